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
	// A greyscale print or screen: every channel the luminance.
	{"greyscale", [3][3]float64{{0.2126, 0.7152, 0.0722}, {0.2126, 0.7152, 0.0722}, {0.2126, 0.7152, 0.0722}}},
}

func linear(v uint8) float64 {
	c := float64(v) / 255
	if c <= 0.04045 {
		return c / 12.92
	}
	return math.Pow((c+0.055)/1.055, 2.4)
}

// sees returns c as v sees it, in linear RGB.
func (v vision) sees(c color.RGBA) [3]float64 {
	in := [3]float64{linear(c.R), linear(c.G), linear(c.B)}
	var out [3]float64
	for i := range out {
		for j := range in {
			out[i] += v.m[i][j] * in[j]
		}
		out[i] = min(1, max(0, out[i]))
	}
	return out
}

// luminance returns the relative luminance (WCAG) of c as v sees it.
func (v vision) luminance(c color.RGBA) float64 {
	out := v.sees(c)
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
	ms := Standard.set()
	marbleRim, marbleBody, ownerTint := ms.rim, ms.body, ms.tint
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
	ms := Standard.set()
	marbleRim, marbleBody, ownerTint := ms.rim, ms.body, ms.tint
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

// lab returns c as v sees it in CIE L*a*b* (D65).
func (v vision) lab(c color.RGBA) [3]float64 {
	l := v.sees(c)
	xyz := [3]float64{
		(0.4124*l[0] + 0.3576*l[1] + 0.1805*l[2]) / 0.95047,
		0.2126*l[0] + 0.7152*l[1] + 0.0722*l[2],
		(0.0193*l[0] + 0.1192*l[1] + 0.9505*l[2]) / 1.08883,
	}
	f := func(t float64) float64 {
		if t > 216.0/24389 {
			return math.Cbrt(t)
		}
		return (24389.0/27*t + 16) / 116
	}
	fx, fy, fz := f(xyz[0]), f(xyz[1]), f(xyz[2])
	return [3]float64{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

// deltaE returns the CIE76 colour difference of a and b as v sees them.
func (v vision) deltaE(a, b color.RGBA) float64 {
	la, lb := v.lab(a), v.lab(b)
	return math.Sqrt((la[0]-lb[0])*(la[0]-lb[0]) + (la[1]-lb[1])*(la[1]-lb[1]) + (la[2]-lb[2])*(la[2]-lb[2]))
}

// TestColourBlindMarblesStandApart checks the colour-blind set for normal
// vision, the three full dichromacies and greyscale: its two marbles
// differ in lightness (WCAG contrast) and in colour (ΔE) far more than the
// standard set's, every marble stands off every ground it is drawn on
// (the wood, the panels held at the end, the players' boxes and the
// background of both themes) by its body or its rim, and the cross on
// black's marbles stands off their body. doc.go quotes the weakest
// figures.
func TestColourBlindMarblesStandApart(t *testing.T) {
	red, black := engine.Red, engine.Black
	cb, std := ColourBlind.set(), Standard.set()
	pairs := []colourPair{
		{"orange and black marble bodies", cb.body[red], cb.body[black], 7},
		{"orange and black marbles' rims", cb.rim[red], cb.rim[black], 7},
		{"orange rim and wood", cb.rim[red], woodColor, 5},
		{"black marble and wood", cb.body[black], woodColor, 7},
		{"cross and black marble", cb.rim[black], cb.body[black], 10},
		{"mark's edge and orange marble", accentEdge, cb.body[red], 5},
		{"mark and black marble", accent, cb.body[black], 7},
		{"orange's and black's panels at the end", blend(cb.tint[red], woodColor), blend(cb.tint[black], woodColor), 2.5},
		{"orange rim on orange's panel", cb.rim[red], blend(cb.tint[red], woodColor), 5},
		{"black rim on black's panel", cb.rim[black], blend(cb.tint[black], woodColor), 3},
		{"orange's and black's outlines", cb.outline[red], cb.outline[black], 7},
	}
	checkContrasts(t, pairs)

	// Each marble against each ground: the better of its body and its
	// rim, as either shows the marble's round edge.
	// Black's panels and the closed ones are dark, so that they stand off
	// the open wood and orange's panels: an orange marble there stands off
	// less.
	type ground struct {
		what string
		c    color.RGBA
		min  float64
	}
	grounds := []ground{
		{"wood", woodColor, 4.5},
		{"orange's panel", blend(cb.tint[red], woodColor), 4.5},
		{"black's panel", blend(cb.tint[black], woodColor), 2.3},
		{"closed wood", blend(blockedShade, woodColor), 2.3},
	}
	for th, tc := range themes {
		grounds = append(grounds, ground{Theme(th).String() + " box", tc.card, 4.5}, ground{Theme(th).String() + " background", tc.bg, 4.5})
	}
	name := [2]string{engine.Red: "orange", engine.Black: "black"}
	for _, col := range []engine.Color{red, black} {
		for _, g := range grounds {
			worst, who := math.Inf(1), ""
			for _, v := range visions {
				if c := max(v.contrast(cb.body[col], g.c), v.contrast(cb.rim[col], g.c)); c < worst {
					worst, who = c, v.name
				}
			}
			t.Logf("%-6s marble on %-17s weakest %.2f:1 (%s)", name[col], g.what, worst, who)
			assert.GreaterOrEqual(t, worst, g.min, "%s marble on %s: contrast %.2f under %s", name[col], g.what, worst, who)
		}
	}

	// The bodies differ in colour too, for every kind of vision, and in
	// the worst case by far more than the standard set's.
	worst, worstStd := math.Inf(1), math.Inf(1)
	for _, v := range visions {
		got, was := v.deltaE(cb.body[red], cb.body[black]), v.deltaE(std.body[red], std.body[black])
		t.Logf("ΔE of the bodies, %-12s %5.1f (standard set %5.1f)", v.name, got, was)
		assert.GreaterOrEqual(t, got, 60.0, v.name)
		worst, worstStd = min(worst, got), min(worstStd, was)
	}
	assert.Greater(t, worst, worstStd+20, "the weakest ΔE, against the standard set's")
}
