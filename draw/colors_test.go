package draw

import (
	"image/color"
	"math"
	"testing"

	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/assert"
)

// vision simulates a kind of colour vision on linear RGB: the matrices of
// Machado, Oliveira and Fernandes (2009) at full severity.
type vision struct {
	name string
	m    [3][3]float64
}

var visions = []vision{
	{"normal", [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}},
	{"protanopia", [3][3]float64{{0.152286, 1.052583, -0.204868}, {0.114503, 0.786281, 0.099216}, {-0.003882, -0.048116, 1.051998}}},
	{"deuteranopia", [3][3]float64{{0.367322, 0.860646, -0.227968}, {0.280085, 0.672501, 0.047413}, {-0.011820, 0.042940, 0.968881}}},
	{"tritanopia", [3][3]float64{{1.255528, -0.076749, -0.178779}, {-0.078411, 0.930809, 0.147602}, {0.004733, 0.691367, 0.303900}}},
}

func linear(v uint8) float64 {
	c := float64(v) / 255
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// luminance returns the relative luminance (WCAG) of c as v sees it.
func (v vision) luminance(c color.RGBA) float64 {
	in := [3]float64{linear(c.R), linear(c.G), linear(c.B)}
	var out [3]float64
	for i := range out {
		for j := range in {
			out[i] += v.m[i][j] * in[j]
		}
		out[i] = min(1, max(0, out[i]))
	}
	return 0.2126*out[0] + 0.7152*out[1] + 0.0722*out[2]
}

// contrast returns the WCAG contrast ratio of a and b as v sees them.
func (v vision) contrast(a, b color.RGBA) float64 {
	la, lb := v.luminance(a), v.luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// blend returns the premultiplied colour c laid over the opaque colour d.
func blend(c, d color.RGBA) color.RGBA {
	k := 255 - uint32(c.A)
	m := func(s, d uint8) uint8 { return uint8(uint32(s) + (uint32(d)*k+127)/255) }
	return color.RGBA{m(c.R, d.R), m(c.G, d.G), m(c.B, d.B), 255}
}

// colourPair is two colours a player must tell apart and the weakest WCAG
// contrast ratio allowed between them.
type colourPair struct {
	what string
	a, b color.RGBA
	min  float64
}

// checkContrasts checks each pair's contrast for normal vision and the
// three full dichromacies, and logs the weakest.
func checkContrasts(t *testing.T, pairs []colourPair) {
	t.Helper()
	for _, p := range pairs {
		worst, who := math.Inf(1), ""
		for _, v := range visions {
			if c := v.contrast(p.a, p.b); c < worst {
				worst, who = c, v.name
			}
		}
		t.Logf("%-38s weakest %.2f:1 (%s)", p.what, worst, who)
		assert.GreaterOrEqual(t, worst, p.min, "%s: contrast %.2f under %s", p.what, worst, who)
	}
}

// TestColoursStayApartForColourBlindPlayers checks, for normal vision and
// the three full dichromacies, the luminance contrast of the pairs of
// colours a player must tell apart; doc.go quotes the weakest figures.
func TestColoursStayApartForColourBlindPlayers(t *testing.T) {
	red, black := engine.Red, engine.Black
	pairs := []colourPair{
		{"red and black marbles' rims", marbleRim[red], marbleRim[black], 3},
		{"black rim and black marble", marbleRim[black], marbleBody[black], 7},
		{"red rim and wood", marbleRim[red], woodColor, 3},
		{"black marble and wood", marbleBody[black], woodColor, 7},
		{"red marble and black marble", marbleBody[red], marbleBody[black], 1.8},
		{"hole and wood", holeColor, woodColor, 2},
		{"mark and its edge", accent, accentEdge, 7},
		{"mark's edge and wood", accentEdge, woodColor, 7},
		{"mark and red marble (it has a dark edge too)", accent, marbleBody[red], 2},
		{"mark and black marble", accent, marbleBody[black], 7},
		{"closed and open wood", blend(blockedShade, woodColor), woodColor, 2.5},
		{"red's and black's panels at the end", blend(ownerTint[red], woodColor), blend(ownerTint[black], woodColor), 2.5},
	}
	checkContrasts(t, pairs)
}

// TestFinalBoardsKeepTheirContrast checks the panels of an ended game on
// the dark frame: black's panels stand off the frame, and an empty hole
// stays visible on a panel of either colour.
func TestFinalBoardsKeepTheirContrast(t *testing.T) {
	red, black := engine.Red, engine.Black
	pairs := []colourPair{
		{"black's panels and the frame", blend(ownerTint[black], woodColor), frameColor, 2.2},
		{"an empty hole on black's panel", blend(ownerTint[black], holeColor), blend(ownerTint[black], woodColor), 1.8},
		{"an empty hole on red's panel", blend(ownerTint[red], holeColor), blend(ownerTint[red], woodColor), 1.8},
		{"a black marble on black's panel", marbleBody[black], blend(ownerTint[black], woodColor), 2.5},
		{"a black marble's rim on black's panel", marbleRim[black], blend(ownerTint[black], woodColor), 2.5},
		{"a red marble's rim on red's panel", marbleRim[red], blend(ownerTint[red], woodColor), 2.5},
	}
	checkContrasts(t, pairs)
}
