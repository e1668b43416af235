package bot_test

import (
	"sync/atomic"

	"github.com/kulami/kulami/storage"
)

// countingStore is the real store that counts its successful write
// transactions: every write method of storage.Store is one bbolt
// transaction, committed when it returns no error (a refused UpdateGame
// writes nothing), and NoteBoard writes none (storage's
// TestOneCommitPerMove checks both at the bbolt level).
//
// beforeAccept, if set, runs just before AcceptChallenge: a test makes
// another answer win the race for the challenge there.
type countingStore struct {
	*storage.Store
	commits      atomic.Int64
	beforeAccept atomic.Pointer[func()]
}

// count counts a write that returned err.
func (s *countingStore) count(err error) error {
	if err == nil {
		s.commits.Add(1)
	}
	return err
}

func (s *countingStore) CreateChallenge(c *storage.Challenge) error {
	return s.count(s.Store.CreateChallenge(c))
}

func (s *countingStore) UpdateChallenge(channelID string, fn func(*storage.Challenge) error) (*storage.Challenge, error) {
	c, err := s.Store.UpdateChallenge(channelID, fn)
	return c, s.count(err)
}

func (s *countingStore) DeleteChallenge(channelID string, id uint64) error {
	return s.count(s.Store.DeleteChallenge(channelID, id))
}

func (s *countingStore) AcceptChallenge(channelID string, challengeID uint64, g *storage.Game) error {
	if f := s.beforeAccept.Load(); f != nil {
		(*f)()
	}
	return s.count(s.Store.AcceptChallenge(channelID, challengeID, g))
}

func (s *countingStore) MoveIntoThread(channelID string, gameID uint64, threadID string) (*storage.Game, error) {
	g, err := s.Store.MoveIntoThread(channelID, gameID, threadID)
	return g, s.count(err)
}

func (s *countingStore) CreateGame(g *storage.Game) error { return s.count(s.Store.CreateGame(g)) }

func (s *countingStore) UpdateGame(channelID string, fn func(*storage.Game) error) (*storage.Game, error) {
	g, err := s.Store.UpdateGame(channelID, fn)
	return g, s.count(err)
}

func (s *countingStore) UpdateGuildSettings(guildID string, fn func(*storage.GuildSettings) error) (storage.GuildSettings, error) {
	g, err := s.Store.UpdateGuildSettings(guildID, fn)
	return g, s.count(err)
}

func (s *countingStore) UpdateUserSettings(userID string, fn func(*storage.UserSettings) error) (storage.UserSettings, error) {
	u, err := s.Store.UpdateUserSettings(userID, fn)
	return u, s.count(err)
}
