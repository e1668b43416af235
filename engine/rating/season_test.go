package rating_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
)

func TestSeasonOf(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	for _, tt := range []struct {
		name string
		at   time.Time
		want string
	}{
		{"first instant of Q1", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), "2026 Q1"},
		{"last instant of Q1", time.Date(2026, 3, 31, 23, 59, 59, 999999999, time.UTC), "2026 Q1"},
		{"first instant of Q2", time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), "2026 Q2"},
		{"last instant of Q2", time.Date(2026, 6, 30, 23, 59, 59, 999999999, time.UTC), "2026 Q2"},
		{"first instant of Q3", time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), "2026 Q3"},
		{"first instant of Q4", time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), "2026 Q4"},
		{"last instant of the year", time.Date(2026, 12, 31, 23, 59, 59, 999999999, time.UTC), "2026 Q4"},
		{"new year", time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), "2027 Q1"},
		{"UTC, not the local zone: 00:30 in Paris is still Q3 in UTC", time.Date(2026, 10, 1, 0, 30, 0, 0, paris), "2026 Q3"},
		{"leap day", time.Date(2028, 2, 29, 12, 0, 0, 0, time.UTC), "2028 Q1"},
		{"before year 1", time.Date(-5, 6, 1, 0, 0, 0, 0, time.UTC), "1 Q1"},
		{"after year 9999", time.Date(12000, 6, 1, 0, 0, 0, 0, time.UTC), "9999 Q4"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, rating.SeasonOf(tt.at).String())
		})
	}
}

func TestSeasonBounds(t *testing.T) {
	for _, tt := range []struct {
		season     string
		start, end time.Time
	}{
		{"2026-Q1", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)},
		{"2026-Q2", time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC)},
		{"2026-Q3", time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)},
		{"2026-Q4", time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)},
	} {
		t.Run(tt.season, func(t *testing.T) {
			var s rating.Season
			require.NoError(t, s.UnmarshalText([]byte(tt.season)))
			assert.Equal(t, tt.start, s.Start())
			assert.Equal(t, tt.end, s.End())
			assert.Equal(t, s, rating.SeasonOf(tt.start))
			assert.Equal(t, s, rating.SeasonOf(tt.end.Add(-time.Nanosecond)))
			assert.Equal(t, s+1, rating.SeasonOf(tt.end))
		})
	}
}

// TestSeasonProperties checks over random times that a time lies in its
// season, that seasons follow each other without a gap and in order, and
// that a season's text reads back.
func TestSeasonProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	lo, hi := time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC).Unix(), time.Date(9999, 10, 1, 0, 0, 0, 0, time.UTC).Unix()
	for range 10000 {
		at := time.Unix(lo+r.Int64N(hi-lo), r.Int64N(1e9)).In(time.FixedZone("", 3600*(r.IntN(27)-12)))
		s := rating.SeasonOf(at)
		require.True(t, s.Valid(), at)
		assert.False(t, at.Before(s.Start()), at)
		assert.True(t, at.Before(s.End()), at)
		assert.Equal(t, s.End(), (s + 1).Start())
		assert.Less(t, s.End().Sub(s.Start()), 93*24*time.Hour)
		assert.GreaterOrEqual(t, s.End().Sub(s.Start()), 90*24*time.Hour)
		later := at.Add(time.Duration(r.Int64N(int64(400 * 24 * time.Hour))))
		assert.LessOrEqual(t, s, rating.SeasonOf(later))
		b, err := s.MarshalText()
		require.NoError(t, err)
		var back rating.Season
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, s, back)
	}
}

func TestSeasonOfPlayed(t *testing.T) {
	p := played(1, game.Resigned, engine.Red, false, time.Date(2026, 9, 30, 23, 59, 0, 0, time.UTC))
	assert.Equal(t, "2026 Q3", p.Season().String())
}

func TestSeasonInvalid(t *testing.T) {
	for _, s := range []rating.Season{0, 3, 9999*4 + 4, -1} {
		assert.False(t, s.Valid(), int32(s))
		_, err := s.MarshalText()
		assert.ErrorIs(t, err, rating.ErrInvalid)
	}
}

// FuzzSeasonText checks the parser of seasons: text that parses is a
// valid season written back the same, anything else is refused with
// ErrInvalid and leaves the season alone.
func FuzzSeasonText(f *testing.F) {
	for _, s := range []string{"2026-Q4", "0001-Q1", "9999-Q4", "0000-Q1", "2026-Q5", "2026Q4", "26-Q1", "２０２６-Q1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		season := rating.Season(42)
		if err := season.UnmarshalText([]byte(s)); err != nil {
			assert.ErrorIs(t, err, rating.ErrInvalid)
			assert.Equal(t, rating.Season(42), season)
			return
		}
		require.True(t, season.Valid())
		b, err := season.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, s, string(b))
	})
}
