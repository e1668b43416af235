package storagetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/internal/fixture"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testGuildGames(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	got, n, err := s.GuildGames(t.Context(), guild, 10)
	require.NoError(t, err)
	assert.Empty(t, got, "a new store has no games")
	assert.Zero(t, n)

	first := mustCreate(t, s, "c1", alice, bob)
	second := mustCreate(t, s, "c2", carol, easyAI)
	other := newGame(t, "c3", bob, carol)
	other.GuildID = "2000"
	require.NoError(t, s.CreateGame(t.Context(), other))
	ended := mustCreate(t, s, "c4", alice, carol)
	mustFinish(t, s, "c4", game.Resigned, engine.Red, moveTime(0))
	mustPlay(t, s, "c1", "D4")
	require.NoError(t, s.NoteBoard(t.Context(), "c1", first.ID, 1, "4242"))

	got, n, err = s.GuildGames(t.Context(), guild, 10)
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	require.Len(t, got, 2, "the active games of the guild: not another guild's, not a finished one (%d)", ended.ID)
	assert.Equal(t, []uint64{second.ID, first.ID}, []uint64{got[0].ID, got[1].ID}, "newest first")
	assert.Equal(t, 1, got[1].Ply(), "the game as it is now")
	assert.Equal(t, "4242", got[1].BoardMessageID, "with the board noted but not yet written")

	got, n, err = s.GuildGames(t.Context(), "2000", 10)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, 1, n)
	assert.Equal(t, other.ID, got[0].ID)

	got, n, err = s.GuildGames(t.Context(), guild, 1)
	require.NoError(t, err)
	require.Len(t, got, 1, "only the first limit games are read")
	assert.Equal(t, second.ID, got[0].ID)
	assert.Equal(t, 2, n, "and the others counted")
	_, _, err = s.GuildGames(t.Context(), guild, 0)
	assert.ErrorIs(t, err, storage.ErrInvalid)
}

// testGuildGamesMoved: a game moved into a thread is listed once, in its
// thread, and a game that ends leaves the list.
func testGuildGamesMoved(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	g := mustCreate(t, s, "parent", alice, bob)
	_, err := s.MoveIntoThread(t.Context(), "parent", g.ID, "thread")
	require.NoError(t, err)
	got, n, err := s.GuildGames(t.Context(), guild, 10)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, 1, n)
	assert.Equal(t, "thread", got[0].ChannelID)
	mustFinish(t, s, "thread", game.Resigned, engine.Red, moveTime(0))
	got, n, err = s.GuildGames(t.Context(), guild, 10)
	require.NoError(t, err)
	assert.Empty(t, got)
	assert.Zero(t, n)
	f, err := s.LastFinishedGame(t.Context(), guild, "thread")
	require.NoError(t, err)
	assert.Equal(t, g.ID, f.ID)
}

// testGuildGamesUnderConcurrentWriters: games that start and end at once
// in one guild, more of them than a count kept in parts has parts, leave
// the guild's count equal to the games it lists.
func testGuildGamesUnderConcurrentWriters(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	players := []game.Player{alice, bob, carol, easyAI}
	const writers, rounds = 6, 6
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for r := range rounds {
				channel := fmt.Sprintf("w%d-%d", w, r)
				if !assert.NoError(t, s.CreateGame(t.Context(), newGame(t, channel, players[(w+r)%4], players[(w+r+1)%4]))) {
					return
				}
				if r%3 == 2 {
					continue // left going on
				}
				_, err := s.UpdateGame(t.Context(), channel, func(g *storage.Game) error {
					return fixture.End(g, game.Aborted, engine.Red, t0.Add(time.Duration(w*rounds+r)*time.Minute))
				})
				assert.NoError(t, err)
			}
		})
	}
	wg.Wait()
	require.False(t, t.Failed())
	got, n, err := s.GuildGames(t.Context(), guild, 100)
	require.NoError(t, err)
	assert.Len(t, got, writers*rounds/3, "the games left going on")
	assert.Equal(t, len(got), n, "counted as listed")
}

// racer is one of the writers racing in a channel: it starts a game or
// a challenge there, or ends the game there, with the ID that the race's
// setup returned. It returns whether it is a start, the game it started,
// if it started one, and its error.
type racer func(t *testing.T, s Store, channel string, id uint64, i int) (start bool, g *storage.Game, err error)

// createIn races a CreateGame in the channel.
func createIn(t *testing.T, s Store, channel string, _ uint64, i int) (bool, *storage.Game, error) {
	g := newGame(t, channel, alice, []game.Player{bob, carol, easyAI}[i%3])
	return true, g, s.CreateGame(t.Context(), g)
}

// testGuildGamesRacingStarts: starts that race in one channel (two bots,
// two clicks) store one game or challenge at most, the one whose start
// succeeded; the others are refused, and the guild's count stays the
// games it lists, whatever else races with them (a challenge's start or
// acceptance, a game moved into the channel as its thread, the end of
// the game there).
func testGuildGamesRacingStarts(t *testing.T, open Open) {
	const racers, rounds = 8, 4
	tests := []struct {
		name  string
		setup func(t *testing.T, s Store, channel string) uint64 // the ID the racers are given
		race  racer
		ends  bool // racer 0 ends the game of the channel: the starts win once at most
	}{
		{"games", nil, createIn, false},
		{"games and challenges", nil, func(t *testing.T, s Store, channel string, id uint64, i int) (bool, *storage.Game, error) {
			if i%2 == 0 {
				return createIn(t, s, channel, id, i)
			}
			return true, nil, s.CreateChallenge(t.Context(), newChallenge(channel, alice, bob))
		}, false},
		{"acceptances and games", func(t *testing.T, s Store, channel string) uint64 {
			c := newChallenge(channel, alice, game.Player{}) // open to anyone
			require.NoError(t, s.CreateChallenge(t.Context(), c))
			return c.ID
		}, func(t *testing.T, s Store, channel string, id uint64, i int) (bool, *storage.Game, error) {
			if i%2 == 0 {
				return createIn(t, s, channel, id, i)
			}
			g := newGame(t, channel, carol, alice)
			return true, g, s.AcceptChallenge(t.Context(), channel, id, g)
		}, false},
		{"a move into the channel as a thread and games", func(t *testing.T, s Store, channel string) uint64 {
			return mustCreate(t, s, "parent-"+channel, alice, bob).ID
		}, func(t *testing.T, s Store, channel string, id uint64, i int) (bool, *storage.Game, error) {
			if i > 0 {
				return createIn(t, s, channel, id, i)
			}
			g, err := s.MoveIntoThread(t.Context(), "parent-"+channel, id, channel)
			return true, g, err
		}, false},
		{"the end of the channel's game and games", func(t *testing.T, s Store, channel string) uint64 {
			return mustCreate(t, s, channel, alice, bob).ID
		}, func(t *testing.T, s Store, channel string, id uint64, i int) (bool, *storage.Game, error) {
			if i > 0 {
				return createIn(t, s, channel, id, i)
			}
			_, err := s.UpdateGame(t.Context(), channel, func(g *storage.Game) error {
				return fixture.End(g, game.Aborted, engine.Red, t0)
			})
			return false, nil, err
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := open(t, storage.Options{})
			for r := range rounds {
				channel := fmt.Sprintf("c%d", r)
				var id uint64
				if tt.setup != nil {
					id = tt.setup(t, s, channel)
				}
				type result struct {
					start bool
					g     *storage.Game
					err   error
				}
				results := make([]result, racers)
				ready := make(chan struct{})
				var wg sync.WaitGroup
				for i := range racers {
					wg.Go(func() {
						<-ready
						start, g, err := tt.race(t, s, channel, id, i)
						results[i] = result{start, g, err}
					})
				}
				close(ready)
				wg.Wait()

				var won []result
				for i, res := range results {
					switch {
					case res.err == nil && res.start:
						won = append(won, res)
					case res.err == nil: // the end
					default:
						assert.Truef(t, errors.Is(res.err, storage.ErrChannelBusy) || errors.Is(res.err, storage.ErrNotFound),
							"round %d, racer %d: refused as a channel taken or a challenge or game gone, not %v", r, i, res.err)
					}
				}
				if tt.ends {
					require.NoError(t, results[0].err, "round %d: the end", r)
					assert.LessOrEqual(t, len(won), 1, "round %d: one start at most after the end", r)
				} else {
					assert.Equal(t, 1, len(won), "round %d: one start", r)
				}
				stored, err := s.Game(t.Context(), channel)
				if len(won) == 1 && won[0].g != nil {
					require.NoError(t, err, "round %d: the game started", r)
					assert.Equal(t, won[0].g.ID, stored.ID, "round %d: the game whose start succeeded, not one that replaced it", r)
				} else {
					assert.ErrorIs(t, err, storage.ErrNotFound, "round %d: no game started", r)
				}

				got, n, err := s.GuildGames(t.Context(), guild, 1000)
				require.NoError(t, err)
				active, err := s.ActiveGames(t.Context())
				require.NoError(t, err)
				assert.Equal(t, active, len(got), "round %d: every active game listed", r)
				assert.Equal(t, len(got), n, "round %d: counted as listed", r)
			}
		})
	}
}

// testGuildGamesReplaced: a game that takes the place of another (a
// rematch in its channel, a game started in the channel whose game moved
// into a thread, an accepted challenge) counts once, and a start rolled
// back not at all.
func testGuildGamesReplaced(t *testing.T, open Open) {
	tests := []struct {
		name  string
		steps func(t *testing.T, s Store)
		want  int // games in the guild
	}{
		{"a rematch in the channel", func(t *testing.T, s Store) {
			mustCreate(t, s, "c", alice, bob)
			mustFinish(t, s, "c", game.Resigned, engine.Red, t0)
			mustCreate(t, s, "c", bob, alice)
		}, 1},
		{"a game in the channel whose game moved into a thread", func(t *testing.T, s Store) {
			g := mustCreate(t, s, "c", alice, bob)
			_, err := s.MoveIntoThread(t.Context(), "c", g.ID, "thread")
			require.NoError(t, err)
			mustCreate(t, s, "c", carol, bob)
		}, 2},
		{"a challenge accepted in its channel", func(t *testing.T, s Store) {
			c := newChallenge("c", alice, bob)
			require.NoError(t, s.CreateChallenge(t.Context(), c))
			require.NoError(t, s.AcceptChallenge(t.Context(), "c", c.ID, newGame(t, "c", bob, alice)))
		}, 1},
		{"a start rolled back", func(t *testing.T, s Store) {
			g := newGame(t, "c", alice, bob)
			g.ID = 7
			_, err := s.Import(t.Context(), func(_ context.Context, fn func(storage.Record) error) error {
				if err := fn(storage.GameRecords.Record(g)); err != nil {
					return err
				}
				// Refused by the put that follows the game's, in its transaction.
				return fn(storage.SeasonProfileRecords.Record(&storage.Profile{GuildID: guild, UserID: alice.UserID}))
			})
			require.ErrorIs(t, err, storage.ErrInvalid)
		}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := open(t, storage.Options{})
			tt.steps(t, s)
			got, n, err := s.GuildGames(t.Context(), guild, 100)
			require.NoError(t, err)
			assert.Len(t, got, tt.want)
			assert.Equal(t, tt.want, n, "counted as listed")
			active, err := s.ActiveGames(t.Context())
			require.NoError(t, err)
			assert.Equal(t, tt.want, active)
		})
	}
}
