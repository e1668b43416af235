package draw

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTextStaysReadableOnAPhone checks the size of every text role: a
// phone shows the 800-pixel image about 360 pixels wide, where names,
// scores, coordinates, the footer, the reason and the key must be at
// least 11 pixels, even when shrunk to fit.
func TestTextStaysReadableOnAPhone(t *testing.T) {
	const phone = 360.0
	cases := []struct {
		r       role
		what    string
		atPhone float64 // the smallest size in pixels at 360 wide
	}{
		{roleName, "players' names", 11},
		{roleScore, "points, panels and the score table", 11},
		{roleLabel, "coordinates", 11},
		{roleStrong, "the result and the totals", 11},
		{roleFooter, "the footer's line while the game goes on", 11},
		{roleReason, "why the game ended", 11},
		{roleKey, "the key", 11},
	}
	fs := (&facePool{scale: 1}).get()
	for _, tc := range cases {
		t.Run(tc.what, func(t *testing.T) {
			size, smallest := roleSizes[tc.r].size, roleSizes[tc.r].min
			t.Logf("%-36s %4.1f px at 800, %4.1f px at 360; shrinks to %4.1f px at 360", tc.what, size, size*phone/DefaultWidth, smallest*phone/DefaultWidth)
			assert.GreaterOrEqual(t, smallest*phone/DefaultWidth, tc.atPhone)
			assert.LessOrEqual(t, smallest, size)
			// The face is that size: a capital letter is about 0.7 em tall
			// in the Go fonts.
			ch := float64(capHeight(fs.get(tc.r)))
			assert.InDelta(t, 0.7*size, ch, 1.5, "cap height %.0f px for a %.0f px font", ch, size)
		})
	}
}
