package bot

import (
	"time"

	"github.com/kulami/kulami/storage"
)

// Store is what the bot keeps in storage; *storage.Store (bbolt) and
// *postgres.Store (package storage/postgres) implement it.
// Games are storage.Game values: a game.Game (the rules of the game
// between two players, which the bot calls inside UpdateGame) and where
// it is played. Methods return the storage package's sentinel errors
// (storage.ErrNotFound, ErrChannelBusy, ErrInvalid), wrapped with context,
// or what UpdateGame's function returned.
type Store interface {
	CreateChallenge(c *storage.Challenge) error
	Challenge(channelID string) (*storage.Challenge, error)
	UpdateChallenge(channelID string, fn func(*storage.Challenge) error) (*storage.Challenge, error)
	DeleteChallenge(channelID string, id uint64) error
	AcceptChallenge(channelID string, challengeID uint64, g *storage.Game) error
	MoveIntoThread(channelID string, gameID uint64, threadID string) (*storage.Game, error)

	CreateGame(g *storage.Game) error
	Game(channelID string) (*storage.Game, error)
	UpdateGame(channelID string, fn func(*storage.Game) error) (*storage.Game, error)
	NoteBoard(channelID string, gameID uint64, ply int, messageID string) error
	GuildGames(guildID string) ([]*storage.Game, error)

	FinishedGame(guildID string, id uint64) (*storage.FinishedGame, error)
	LastFinishedGame(guildID, channelID string) (*storage.FinishedGame, error)
	SaveReview(guildID string, gameID uint64, data []byte) error
	Review(guildID string, gameID uint64) ([]byte, error)
	History(guildID, userID string, limit int, before uint64) ([]storage.HistoryEntry, error)
	HeadToHead(guildID, a, b string) (storage.Tally, error)
	RatingTrend(guildID, userID string, ladder storage.Ladder, n int) ([]storage.RatingPoint, error)
	Profile(guildID, userID string, ladder storage.Ladder) (*storage.Profile, error)
	Leaderboard(guildID string, ladder storage.Ladder, offset, limit int) ([]storage.Profile, int, error)

	GuildSettings(guildID string) (storage.GuildSettings, error)
	UpdateGuildSettings(guildID string, fn func(*storage.GuildSettings) error) (storage.GuildSettings, error)
	UserSettings(userID string) (storage.UserSettings, error)
	UpdateUserSettings(userID string, fn func(*storage.UserSettings) error) (storage.UserSettings, error)

	NextWake() (time.Time, bool, error)
	Due(now time.Time) ([]storage.Wake, error)
	Claim(w storage.Wake, owner string, now time.Time, d time.Duration) (bool, error)
	SetAlive(t time.Time) error
	Resume(now time.Time, minDown time.Duration, fn func(g *storage.Game, down time.Duration) (bool, error)) (time.Duration, []*storage.Game, error)
}
