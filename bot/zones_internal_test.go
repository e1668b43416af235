package bot

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/game"
)

// TestZoneNamesLoad: every name suggested is one Go loads (from its
// embedded database too), each once.
func TestZoneNamesLoad(t *testing.T) {
	seen := map[string]bool{}
	for _, name := range zoneNames {
		z, err := time.LoadLocation(name)
		require.NoError(t, err, name)
		assert.Equal(t, name, z.String())
		assert.False(t, seen[name], "%s is listed once", name)
		seen[name] = true
	}
	assert.True(t, slices.IsSorted(zoneNames[1:]), "sorted after UTC")
}

func TestParseZone(t *testing.T) {
	tests := []struct {
		in   string
		want string   // the zone read, or ""
		near []string // the first suggestions, if refused
	}{
		{"Europe/Paris", "Europe/Paris", nil},
		{" europe/PARIS ", "Europe/Paris", nil},
		{"america/new york", "America/New_York", nil},
		{"utc", "UTC", nil},
		{"Europe/Pariss", "", []string{"Europe/Paris"}},
		{"Tokio", "", []string{"Asia/Tokyo"}},
		{"Local", "", nil},
		{"../../etc/passwd", "", nil},
		{"", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			z, near := parseZone(tt.in)
			if tt.want != "" {
				require.NotNil(t, z)
				assert.Equal(t, tt.want, z.String())
				assert.Empty(t, near)
				return
			}
			assert.Nil(t, z)
			assert.Len(t, near, zoneSuggestions)
			for i, n := range tt.near {
				assert.Equal(t, n, near[i])
			}
		})
	}
}

func TestZoneChoices(t *testing.T) {
	got := zoneChoices("paris")
	require.Len(t, got, 1)
	assert.Equal(t, "Europe/Paris", got[0].Value)
	assert.Len(t, zoneChoices(""), maxOptions, "at most Discord's 25")
	assert.Len(t, zoneChoices("zzzz"), zoneSuggestions, "none holds it: the nearest")
}

func TestParseQuietOption(t *testing.T) {
	tests := []struct {
		in   string
		want game.Quiet
		err  string // the refusal's message ID, or ""
	}{
		{"22-08", game.Quiet{From: 22, To: 8}, ""},
		{" 22-08 ", game.Quiet{From: 22, To: 8}, ""},
		{"OFF", game.Quiet{}, ""},
		{"", game.Quiet{}, ""},
		{"22:08", game.Quiet{}, "notify.quiet_form"},
		{"2-8", game.Quiet{}, "notify.quiet_form"},
		{"25-08", game.Quiet{}, "notify.quiet_hour"},
		{"08-08", game.Quiet{}, "notify.quiet_length"},
		{"18-08", game.Quiet{}, "notify.quiet_length"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			q, err := parseQuietOption(tt.in)
			if tt.err == "" {
				require.NoError(t, err)
				assert.Equal(t, tt.want, q)
				return
			}
			var ue *userError
			require.ErrorAs(t, err, &ue)
			assert.Equal(t, tt.err, ue.id)
		})
	}
}

func FuzzParseZone(f *testing.F) {
	for _, s := range []string{"Europe/Paris", "europe/paris", "Tokio", "", "Local", "../x", strings.Repeat("é", 200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		z, near := parseZone(s)
		if z != nil {
			assert.Empty(t, near)
			assert.Equal(t, strings.ToLower(z.String()), zoneKey(s), "only a listed name, whatever its case")
			assert.Contains(t, zoneNames, z.String())
			return
		}
		assert.Len(t, near, zoneSuggestions)
		for _, n := range near {
			assert.Contains(t, zoneNames, n)
		}
	})
}

func FuzzParseQuietOption(f *testing.F) {
	for _, s := range []string{"22-08", "off", "", "25-08", "08-08", "2208", "22-08-09"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := parseQuietOption(s)
		if err != nil {
			var ue *userError
			assert.ErrorAs(t, err, &ue, "every refusal is worded")
			assert.Equal(t, game.Quiet{}, q)
			return
		}
		if q == (game.Quiet{}) {
			return // none: "" or off
		}
		back, err := game.ParseQuiet(q.String())
		require.NoError(t, err)
		assert.Equal(t, q, back, "what is stored reads back")
	})
}
