package draw

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTextStaysReadableOnAPhone checks the size of every text role: a
// phone shows the 800-pixel image about 360 pixels wide, where names,
// scores, coordinates, the footer, the reason and the key must be at
// least 11 pixels. No text shrinks to fit: it wraps, or ends in an
// ellipsis if it is a name.
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
	require.Len(t, cases, int(numRoles), "every role")
	fs := (&facePool{scale: 1}).get()
	for _, tc := range cases {
		t.Run(tc.what, func(t *testing.T) {
			size := roleSizes[tc.r].size
			t.Logf("%-36s %4.1f px at 800, %4.1f px at 360", tc.what, size, size*phone/DefaultWidth)
			assert.GreaterOrEqual(t, size*phone/DefaultWidth, tc.atPhone)
			// The face is that size: a capital letter is about 0.7 em tall
			// in the Go fonts.
			ch := float64(capHeight(fs.get(tc.r)))
			assert.InDelta(t, 0.7*size, ch, 1.5, "cap height %.0f px for a %.0f px font", ch, size)
		})
	}
}

// TestChartTextStaysReadableOnAPhone checks the review chart's and the
// standings' texts as the board's: shown 360 pixels wide, as a phone
// shows it, every text is at least 11 pixels, at whatever width the image
// was drawn.
func TestChartTextStaysReadableOnAPhone(t *testing.T) {
	const phone = 360.0
	cases := []struct {
		what string
		ty   chartType
	}{
		{"the title", chartTypes.title},
		{"the axes' numbers and words", chartTypes.axis},
		{"the marked moves", chartTypes.mark},
		{"who wins at the top and the bottom", chartTypes.side},
		{"the standings' title", standingsTypes.title},
		{"the standings' caption and headings", standingsTypes.caption},
		{"the standings' rows", standingsTypes.regular},
		{"the standings' points and ranks", standingsTypes.bold},
	}
	for _, tc := range cases {
		t.Run(tc.what, func(t *testing.T) {
			t.Logf("%-36s %4.1f px at 800, %4.1f px at 360", tc.what, tc.ty.size, tc.ty.size*phone/DefaultWidth)
			assert.GreaterOrEqual(t, tc.ty.size*phone/DefaultWidth, 11.0)
			for _, width := range []int{MinWidth, DefaultWidth, MaxWidth} {
				// The face is drawn at that size, scaled with the chart: a
				// capital letter is about 0.7 em tall in the Go fonts.
				size := tc.ty.size * float64(width) / DefaultWidth
				ch := float64(capHeight((&facePool{scale: float64(width) / DefaultWidth}).get().face(tc.ty.font, tc.ty.size)))
				assert.InDelta(t, 0.7*size*phone/float64(width), ch*phone/float64(width), 1, "cap height %.0f px at %d wide", ch, width)
			}
		})
	}
}
