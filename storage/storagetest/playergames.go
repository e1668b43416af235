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

// testNewestPlayerGames: a player in 0, 1, limit and limit+3 active games,
// across two guilds and among others' games, gets the newest limit of
// them by ID and how many they are, each as it is now; a game that ended
// drops out of both, and the computer plays none.
func testNewestPlayerGames(t *testing.T, open Open) {
	const limit = 4
	opponents := []game.Player{alice, easyAI, carol}
	for _, n := range []int{0, 1, limit, limit + 3} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			s := open(t, storage.Options{})
			var ids []uint64 // bob's active games, oldest first
			for i := range n + 1 {
				red, black := bob, opponents[i%len(opponents)]
				if i%2 == 1 {
					red, black = black, red
				}
				g := newGame(t, fmt.Sprintf("c%d", i), red, black)
				g.GuildID = []string{guild, "2000"}[i%2]
				require.NoError(t, s.CreateGame(t.Context(), g))
				mustCreate(t, s, fmt.Sprintf("o%d", i), alice, carol) // another's, between bob's IDs
				if i < n {
					ids = append(ids, g.ID)
				}
			}
			mustFinish(t, s, fmt.Sprintf("c%d", n), game.Resigned, engine.Red, moveTime(0)) // bob's newest ends
			if n > 0 {
				mustPlay(t, s, "c0", "D4")
			}

			got, total, err := s.NewestPlayerGames(t.Context(), bob.UserID, limit)
			require.NoError(t, err)
			assert.Equal(t, n, total, "bob's active games counted, the ended one not")
			want := []uint64{}
			for i := len(ids) - 1; i >= 0 && len(want) < limit; i-- {
				want = append(want, ids[i])
			}
			gotIDs := []uint64{}
			for _, g := range got {
				gotIDs = append(gotIDs, g.ID)
				if g.ChannelID == "c0" {
					assert.Equal(t, 1, g.Ply(), "the game as it is now")
				}
			}
			assert.Equal(t, want, gotIDs, "the newest %d by ID, newest first", limit)

			got, total, err = s.NewestPlayerGames(t.Context(), easyAI.UserID, limit)
			require.NoError(t, err)
			assert.Empty(t, got, "the computer's games are not a player's")
			assert.Zero(t, total)
			_, _, err = s.NewestPlayerGames(t.Context(), bob.UserID, 0)
			assert.ErrorIs(t, err, storage.ErrInvalid)
		})
	}
}
