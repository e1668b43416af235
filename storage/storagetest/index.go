package storagetest

import (
	"fmt"
	"slices"
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

// indexed is what the indexed reads of a store answer for the test
// guild: the head-to-head of every pair of players, the last finished
// game of every channel and the active games listed.
type indexed struct {
	HeadToHead map[string]storage.Tally
	Last       map[string]uint64
	Games      []uint64
	Total      int
}

// readIndexed reads the indexed reads of s for the players and channels
// named.
func readIndexed(tb testing.TB, s Store, players []game.Player, channels []string) indexed {
	tb.Helper()
	out := indexed{HeadToHead: map[string]storage.Tally{}, Last: map[string]uint64{}}
	for _, a := range players {
		for _, b := range players {
			h2h, err := s.HeadToHead(tb.Context(), guild, storage.ProfileID(a), storage.ProfileID(b))
			require.NoError(tb, err)
			out.HeadToHead[a.Name+"-"+b.Name] = h2h
		}
	}
	for _, c := range channels {
		f, err := s.LastFinishedGame(tb.Context(), guild, c)
		if err == nil {
			out.Last[c] = f.ID
		} else {
			require.ErrorIs(tb, err, storage.ErrNotFound)
		}
	}
	games, total, err := s.GuildGames(tb.Context(), guild, 100)
	require.NoError(tb, err)
	for _, g := range games {
		out.Games = append(out.Games, g.ID)
	}
	out.Total = total
	return out
}

// fromHistory is what the indexed reads of s must answer, worked out from
// the histories and finished games (the stored values the indexes are
// built from): ids are the IDs of every game made, in the order made.
func fromHistory(tb testing.TB, s Store, players []game.Player, ids []uint64) indexed {
	tb.Helper()
	out := indexed{HeadToHead: map[string]storage.Tally{}, Last: map[string]uint64{}}
	for _, a := range players {
		entries, err := s.History(tb.Context(), guild, storage.ProfileID(a), 1<<20, 0)
		require.NoError(tb, err)
		for _, b := range players {
			var t storage.Tally
			for _, e := range entries {
				if storage.ProfileID(e.Opponent) == storage.ProfileID(b) {
					t.Add(e.Outcome)
				}
			}
			out.HeadToHead[a.Name+"-"+b.Name] = t
		}
	}
	for i := len(ids) - 1; i >= 0; i-- {
		f, err := s.FinishedGame(tb.Context(), guild, ids[i])
		if err != nil {
			require.ErrorIs(tb, err, storage.ErrNotFound)
			out.Games = append(out.Games, ids[i]) // still going on
			continue
		}
		if _, ok := out.Last[f.ChannelID]; !ok {
			out.Last[f.ChannelID] = f.ID
		}
	}
	out.Total = len(out.Games)
	return out
}

// testIndexesUnderConcurrentWriters plays games side by side, several in
// each channel one after the other, between the same players: the
// head-to-head tallies, the last finished game of each channel and the
// list of a guild's games read through their indexes are what the
// histories and finished games hold once every writer is done.
func testIndexesUnderConcurrentWriters(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	players := []game.Player{alice, bob, carol, easyAI}
	const writers, rounds = 4, 3
	var (
		mu       sync.Mutex
		ids      []uint64
		channels []string
		wg       sync.WaitGroup
	)
	for w := range writers {
		channel := fmt.Sprintf("w%d", w)
		channels = append(channels, channel)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := range rounds {
				red, black := players[(w+r)%len(players)], players[(w+r+1)%len(players)]
				g := newGame(t, channel, red, black)
				if !assert.NoError(t, s.CreateGame(t.Context(), g)) {
					return
				}
				mu.Lock()
				ids = append(ids, g.ID)
				mu.Unlock()
				if r == rounds-1 && w%2 == 0 {
					return // left going on
				}
				ending := []game.Ending{game.Resigned, game.DrawAgreed, game.Aborted}[(w+r)%3]
				_, err := s.UpdateGame(t.Context(), channel, func(g *storage.Game) error {
					return fixture.End(g, ending, engine.Color(r%2), t0.Add(time.Duration(w*rounds+r)*time.Minute))
				})
				assert.NoError(t, err)
			}
		}()
	}
	wg.Wait()
	require.False(t, t.Failed())
	slices.Sort(ids)
	got := readIndexed(t, s, players, channels)
	want := fromHistory(t, s, players, ids)
	assert.Equal(t, want, got)
	assert.Equal(t, writers/2, got.Total, "the games left going on")
	for _, ladder := range []storage.Ladder{storage.Human, storage.AI} {
		page, total, err := s.Leaderboard(t.Context(), guild, ladder, 0, 100)
		require.NoError(t, err)
		assert.Len(t, page, total, "the size of the %s ladder is its profiles", ladder)
		assert.NotZero(t, total)
	}
	assert.NotZero(t, got.HeadToHead["alice-bob"].Games()+got.HeadToHead["bob-Carol"].Games(), "some rated games were played")
}

// testImportBuildsIndexes: a store filled by Import answers the indexed
// reads as the store it came from.
func testImportBuildsIndexes(t *testing.T, open Open) {
	src := open(t, storage.Options{})
	Fill(t, src)
	mustGame(t, src, alice, bob, false, t0.Add(5*time.Hour))
	mustGame(t, src, bob, alice, false, t0.Add(6*time.Hour))
	dst := open(t, storage.Options{})
	_, err := dst.Import(t.Context(), src.Export)
	require.NoError(t, err)
	players := []game.Player{alice, bob, carol, easyAI, hardAI}
	channels := []string{"clock", "ai", "aborted", "none"}
	want := readIndexed(t, src, players, channels)
	assert.Equal(t, storage.Tally{Wins: 1, Losses: 1}, want.HeadToHead["alice-bob"], "alice won one and lost one against bob")
	assert.Equal(t, want, readIndexed(t, dst, players, channels))
}
