package bot

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseStart(t *testing.T) {
	now := time.Date(2026, 11, 27, 9, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Time
	}{
		{"", time.Time{}},
		{"when full", time.Time{}},
		{"  When Full ", time.Time{}},
		{"full", time.Time{}},
		{"3d", now.Add(72 * time.Hour)},
		{"in 12h", now.Add(12 * time.Hour)},
		{"90m", now.Add(90 * time.Minute)},
		{"2026-12-01 18:00", time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)},
		{"2026-12-01T18:00", time.Date(2026, 12, 1, 18, 0, 0, 0, time.UTC)},
		{"2026-12-01T18:00:00+01:00", time.Date(2026, 12, 1, 17, 0, 0, 0, time.UTC)},
		{"2026-12-01", time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)},
		{"<t:1796227200:f>", time.Unix(1796227200, 0).UTC()},
		{"<t:1796227200>", time.Unix(1796227200, 0).UTC()},
	} {
		got, err := parseStart(tc.in, now)
		require.NoError(t, err, tc.in)
		assert.True(t, tc.want.Equal(got), "%q: %v, want %v", tc.in, got, tc.want)
	}
	for _, bad := range []string{"tomorrow", "0d", "3w", "12345d", "d", "2026-13-01", "<t:abc>", "<t:12x:f>", "in", "-3d", "3.5d"} {
		_, err := parseStart(bad, now)
		assert.ErrorIs(t, err, errBadStart, bad)
	}
}

// FuzzParseStart: whatever is typed, parseStart returns a time or
// errBadStart, never panics; a delay is never before now.
func FuzzParseStart(f *testing.F) {
	for _, s := range []string{"", "when full", "3d", "in 12h", "2026-12-01 18:00", "<t:1796227200:f>", "<t:", "999d", "in in 3d"} {
		f.Add(s)
	}
	now := time.Date(2026, 11, 27, 9, 30, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		got, err := parseStart(s, now)
		if err != nil {
			assert.ErrorIs(t, err, errBadStart)
			assert.True(t, got.IsZero())
			return
		}
		if d, ok := parseDelay(s); ok {
			assert.True(t, got.Equal(now.Add(d)), "%q", s)
			assert.Positive(t, d)
		}
	})
}
