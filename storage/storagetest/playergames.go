package storagetest

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/internal/fixture"
)

// mustPlayerGames returns the channels of the active games that PlayerGames
// lists for user, in its order.
func mustPlayerGames(tb testing.TB, s Store, user string) []string {
	tb.Helper()
	games, err := s.PlayerGames(tb.Context(), user)
	require.NoError(tb, err)
	out := []string{}
	for _, g := range games {
		out = append(out, g.ChannelID)
	}
	return out
}

// testPlayerGames: a player's games are listed, in channel order and as
// they are now, from their start, in every guild, under their thread once
// moved into one, until they end; the computer, whose UserID is the
// bot's, and a user who plays nothing have none.
func testPlayerGames(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	for _, p := range []game.Player{alice, bob, carol, easyAI} {
		assert.Empty(t, mustPlayerGames(t, s, p.UserID), "%s in a new store", p.Name)
	}

	first := mustCreate(t, s, "c2", alice, bob)
	mustCreate(t, s, "c1", carol, alice)
	other := newGame(t, "c3", bob, alice)
	other.GuildID = "2000"
	require.NoError(t, s.CreateGame(t.Context(), other))
	mustCreate(t, s, "c4", carol, easyAI)
	mustPlay(t, s, "c2", "D4")

	want := map[string][]string{alice.UserID: {"c1", "c2", "c3"}, bob.UserID: {"c2", "c3"}, carol.UserID: {"c1", "c4"}, easyAI.UserID: {}, "404": {}}
	for user, channels := range want {
		assert.Equal(t, channels, mustPlayerGames(t, s, user), "after the starts, user %s", user)
	}
	games, err := s.PlayerGames(t.Context(), bob.UserID)
	require.NoError(t, err)
	require.Len(t, games, 2)
	assert.Equal(t, first.ID, games[0].ID)
	assert.Equal(t, 1, games[0].Ply(), "the game as it is now")

	moved := mustCreate(t, s, "parent", bob, carol)
	_, err = s.MoveIntoThread(t.Context(), "parent", moved.ID, "c0-thread")
	require.NoError(t, err)
	mustFinish(t, s, "c2", game.Resigned, engine.Red, moveTime(1))
	mustFinish(t, s, "c4", game.Aborted, engine.Red, moveTime(0))
	want = map[string][]string{alice.UserID: {"c1", "c3"}, bob.UserID: {"c0-thread", "c3"}, carol.UserID: {"c0-thread", "c1"}, easyAI.UserID: {}}
	for user, channels := range want {
		assert.Equal(t, channels, mustPlayerGames(t, s, user), "after a move into a thread and two ends, user %s", user)
	}
	mustCreate(t, s, "parent", alice, easyAI)
	assert.Equal(t, []string{"c1", "c3", "parent"}, mustPlayerGames(t, s, alice.UserID), "a new game in the channel a game left")
	assert.Equal(t, []string{"c0-thread", "c3"}, mustPlayerGames(t, s, bob.UserID))
}

// testPlayerGamesUnderConcurrentWriters: games that start and end at once,
// in two guilds, leave each player's games listed by PlayerGames equal to
// the active games that name them, and each guild's count of its games
// equal to the games it lists.
func testPlayerGamesUnderConcurrentWriters(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	players := []game.Player{alice, bob, carol, easyAI}
	guilds := []string{guild, "2000"}
	const writers, rounds = 6, 6
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for r := range rounds {
				g := newGame(t, fmt.Sprintf("w%d-%d", w, r), players[(w+r)%4], players[(w+r+1+r%3)%4])
				g.GuildID = guilds[(w+r)%2]
				if !assert.NoError(t, s.CreateGame(t.Context(), g)) {
					return
				}
				if r%3 == 2 {
					continue // left going on
				}
				_, err := s.UpdateGame(t.Context(), g.ChannelID, func(g *storage.Game) error {
					return fixture.End(g, game.Aborted, engine.Red, t0.Add(time.Duration(w*rounds+r)*time.Minute))
				})
				assert.NoError(t, err)
			}
		})
	}
	wg.Wait()
	require.False(t, t.Failed())

	want := map[string][]string{}
	for _, p := range players {
		want[p.UserID] = []string{}
	}
	active := 0
	for _, g := range guilds {
		games, n, err := s.GuildGames(t.Context(), g, 100)
		require.NoError(t, err)
		assert.Equal(t, len(games), n, "guild %s: counted as listed", g)
		active += len(games)
		for _, g := range games {
			for _, user := range storage.PlayerUsers(g.Players()) {
				if user != "" {
					want[user] = append(want[user], g.ChannelID)
				}
			}
		}
	}
	require.Equal(t, writers*rounds/3, active, "the games left going on")
	for user, channels := range want {
		slices.Sort(channels)
		assert.Equal(t, channels, mustPlayerGames(t, s, user), "user %s", user)
	}
}
