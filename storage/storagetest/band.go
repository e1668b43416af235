package storagetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/internal/fixture"
)

// testRankBandsUnderConcurrentWriters: games that end at the same time,
// each moving its players' ratings from band to band (storage.RankBand),
// leave every leaderboard page by number, all-time and of the season,
// the one the whole ladder read from its top shows at that place.
func testRankBandsUnderConcurrentWriters(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	var players []game.Player
	for i := range 16 {
		players = append(players, game.Player{UserID: fmt.Sprint(2000 + i), Name: fmt.Sprintf("b%d", i)})
	}
	const writers, rounds = 4, 6
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for r := range rounds {
				i := (w*rounds + r) % len(players)
				red, black := players[i], players[(i+1+w)%len(players)]
				channel := fmt.Sprintf("band-%d-%d", w, r)
				if !assert.NoError(t, s.CreateGame(t.Context(), newGame(t, channel, red, black))) {
					return
				}
				_, err := s.UpdateGame(t.Context(), channel, func(g *storage.Game) error {
					return fixture.End(g, game.Resigned, engine.Color((w+r)%2), t0.Add(time.Duration(w*rounds+r)*time.Minute))
				})
				assert.NoError(t, err)
			}
		})
	}
	wg.Wait()
	require.False(t, t.Failed())
	checkPages(t, s)
}

// checkPages checks that every page by number of the Human ladders of
// guild, all-time and of the season of t0, is the one the whole ladder
// read from its top shows at that place, and that a page past the end is
// empty.
func checkPages(t *testing.T, s Store) {
	t.Helper()
	for _, season := range []storage.Season{0, rating.SeasonOf(t0)} {
		all := wholeLadder(t, s, season)
		require.NotEmpty(t, all)
		const limit = 3
		for offset := 0; offset <= len(all); offset++ {
			var page []storage.Profile
			var total int
			var err error
			if season == 0 {
				page, total, err = s.Leaderboard(t.Context(), guild, storage.Human, offset, limit)
			} else {
				page, total, err = s.SeasonLeaderboard(t.Context(), guild, season, storage.Human, offset, limit)
			}
			require.NoError(t, err)
			assert.Equal(t, len(all), total)
			if offset == len(all) {
				assert.Empty(t, page, "season %v: nothing past the end", season)
				continue
			}
			assert.Equal(t, all[offset:min(offset+limit, len(all))], page, "season %v, the page from %d", season, offset)
		}
	}
}
