package postgres

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
)

// TestLeaderboardFromBands reads every page by number of an all-time and
// a season's ladder from their bands (bandsFrom 0: from the first page),
// ratings spread over many bands and some equal: each is the page the
// whole ladder read from its top shows at that place.
func TestLeaderboardFromBands(t *testing.T) {
	defer func(n int) { bandsFrom = n }(bandsFrom)
	bandsFrom = 0
	s := mustOpen(t, storage.Options{})
	const n, season = 60, storage.Season(8100)
	_, err := s.Import(t.Context(), func(_ context.Context, fn func(storage.Record) error) error {
		for i := range n {
			p := &storage.Profile{GuildID: "1", UserID: fmt.Sprint(5000 + i), Ladder: storage.Human, Standing: rating.Standing{
				Name: fmt.Sprintf("p%d", i), Rating: rating.Rating{Rating: 1400 + float64(i%20)*3.3, RD: 60, Volatility: 0.06},
				Tally: rating.Tally{Wins: i % 3},
			}}
			if err := fn(storage.ProfileRecords.Record(p)); err != nil {
				return err
			}
			sp := *p
			sp.Season = season
			if err := fn(storage.SeasonProfileRecords.Record(&sp)); err != nil {
				return err
			}
		}
		return nil
	})
	require.NoError(t, err)
	for _, season := range []storage.Season{0, season} {
		read := func(offset, limit int) ([]storage.Profile, int, error) {
			if season == 0 {
				return s.Leaderboard(t.Context(), "1", storage.Human, offset, limit)
			}
			return s.SeasonLeaderboard(t.Context(), "1", season, storage.Human, offset, limit)
		}
		bandsFrom = 1 << 30
		all, total, err := read(0, n)
		require.NoError(t, err)
		require.Len(t, all, n)
		require.Equal(t, n, total)
		bandsFrom = 0
		for offset := range n + 1 {
			page, total, err := read(offset, 4)
			require.NoError(t, err)
			assert.Equal(t, n, total)
			if offset == n {
				assert.Empty(t, page, "season %v: nothing past the end", season)
				continue
			}
			assert.Equal(t, all[offset:min(offset+4, n)], page, "season %v, from %d", season, offset)
		}
	}
}
