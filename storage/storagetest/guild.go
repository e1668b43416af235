package storagetest

import (
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
