package draw

import (
	"image/color"
)

// rgb returns an opaque colour.
func rgb(hex uint32) color.RGBA {
	return color.RGBA{uint8(hex >> 16), uint8(hex >> 8), uint8(hex), 0xff}
}

// alpha returns c at opacity a (0–1), premultiplied as color.RGBA wants.
func alpha(c color.RGBA, a float64) color.RGBA {
	m := func(v uint8) uint8 { return uint8(float64(v)*a + 0.5) }
	return color.RGBA{m(c.R), m(c.G), m(c.B), m(0xff)}
}

// shade returns c with each channel moved by d (clamped), for the lit and
// shaded edges of a tile.
func shade(c color.RGBA, d int) color.RGBA {
	m := func(v uint8) uint8 { return uint8(min(255, max(0, int(v)+d))) }
	return color.RGBA{m(c.R), m(c.G), m(c.B), c.A}
}

// themeColors are the colours that change with the Discord theme.
type themeColors struct {
	bg    color.RGBA // Discord's message background
	card  color.RGBA // a player's box in the header
	hi    color.RGBA // the outline of the box of the player to move
	text  color.RGBA
	muted color.RGBA // secondary text
}

var themes = [...]themeColors{
	Dark:  {bg: rgb(0x313338), card: rgb(0x2b2d31), hi: accent, text: rgb(0xf2f3f5), muted: rgb(0xb5bac1)},
	Light: {bg: rgb(0xffffff), card: rgb(0xf0f1f3), hi: rgb(0x1b8fd6), text: rgb(0x0c0d0f), muted: rgb(0x4e5058)},
}

// The board's colours are the same on both themes, and in both sets of
// marbles but for the marbles' own (marbleSet). doc.go explains how they
// were chosen and the tests check their contrasts.
var (
	frameColor = rgb(0x3b2a1f) // the board under the panels, the grooves and gaps
	labelColor = rgb(0xe8d4b4) // coordinates on the frame
	woodColor  = rgb(0xdcb683)
	holeColor  = rgb(0x8c6642)

	// accent marks the last two marbles and the legal holes, each in its
	// own shape; accentEdge outlines it so it stands out on light wood as
	// on dark marbles.
	accent     = rgb(0x8ae6ff)
	accentEdge = rgb(0x06283a)

	blockedShade = alpha(rgb(0x000000), 0.46) // panels closed to the next move
	blockedHatch = alpha(rgb(0x000000), 0.22) // and their stripes
	casing       = rgb(0xffffff)              // under the outlines, so that they show on any panel
)
