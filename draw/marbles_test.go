package draw

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMarbles(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Marbles
	}{{"standard", Standard}, {"colour-blind", ColourBlind}, {"Colour-Blind", ColourBlind}} {
		got, err := ParseMarbles(tc.in)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
	}
	for _, in := range []string{"", "colourblind", "color-blind", "standard "} {
		_, err := ParseMarbles(in)
		require.ErrorIs(t, err, ErrOptions)
		assert.Contains(t, err.Error(), "standard or colour-blind")
	}
	assert.Equal(t, "Marbles(7)", Marbles(7).String())
}

// FuzzParseMarbles checks that ParseMarbles accepts exactly the names of
// the sets, in any letter case, and that String round-trips.
func FuzzParseMarbles(f *testing.F) {
	for _, s := range []string{"standard", "COLOUR-BLIND", "", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMarbles(s)
		if err != nil {
			assert.False(t, strings.EqualFold(s, "standard") || strings.EqualFold(s, "colour-blind"))
			return
		}
		assert.True(t, strings.EqualFold(s, m.String()))
		back, err := ParseMarbles(m.String())
		require.NoError(t, err)
		assert.Equal(t, m, back)
	})
}
