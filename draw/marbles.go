package draw

import (
	"fmt"
	"image/color"

	"github.com/fogleman/gg"
	"github.com/kulami/kulami/engine"
)

// Marbles is the set of marbles an image is drawn with: how red's and
// black's marbles, the panels they hold at the end and their outlines
// look, in the board, its key, the players' boxes and the score table.
type Marbles uint8

// The two sets. Standard is the zero value.
const (
	// Standard draws red and black marbles, the black ones with a light
	// rim.
	Standard Marbles = iota
	// ColourBlind draws red's marbles in the orange and black's in the
	// black of the Okabe–Ito palette, which every kind of colour vision
	// tells apart by lightness, and marks every black marble with a light
	// cross, so that the two differ in shape as well, even in greyscale.
	ColourBlind
)

var marblesNames = [...]string{Standard: "standard", ColourBlind: "colour-blind"}

// String returns "standard" or "colour-blind".
func (m Marbles) String() string {
	if int(m) < len(marblesNames) {
		return marblesNames[m]
	}
	return fmt.Sprintf("Marbles(%d)", uint8(m))
}

// ParseMarbles reads "standard" or "colour-blind" in any letter case.
func ParseMarbles(s string) (Marbles, error) {
	if m, ok := parseName[Marbles](marblesNames[:], s); ok {
		return m, nil
	}
	return 0, fmt.Errorf("%w: marbles must be standard or colour-blind, not %q", ErrOptions, s)
}

// marbleSet holds the colours and marks of a set of marbles, each indexed
// by engine.Color. doc.go explains how they were chosen and the tests
// check their contrasts.
type marbleSet struct {
	// body, rim and light are each colour's body, its rim and its
	// highlight. The rim of the lighter marble is dark and that of the
	// darker one light, so that the two differ at their edges as well.
	body, rim, light [2]color.RGBA
	// tint colours a panel by the colour holding it at the end: red's
	// light, black's darker but well off the frame, with its empty holes
	// still plain.
	tint [2]color.RGBA
	// outline draws each colour's largest groups and scoring lines;
	// casing goes under it so it shows on any panel.
	outline [2]color.RGBA
	// ink is red's colour as text (the chart's "Red wins") on each
	// theme's background.
	ink [len(themeNames)]color.RGBA
	// cross marks the marbles of the colour with a cross of its rim's
	// colour: a shape, not a colour, tells them apart.
	cross [2]bool
}

var marbleSets = [...]marbleSet{
	Standard: {
		body:    [2]color.RGBA{engine.Red: rgb(0xe53b2c), engine.Black: rgb(0x1f2024)},
		rim:     [2]color.RGBA{engine.Red: rgb(0x9e1e17), engine.Black: rgb(0xc9ced6)},
		light:   [2]color.RGBA{engine.Red: rgb(0xffb3a3), engine.Black: rgb(0x8a8d96)},
		tint:    [2]color.RGBA{engine.Red: alpha(rgb(0xff7a60), 0.32), engine.Black: alpha(rgb(0x0c0d10), 0.5)},
		outline: [2]color.RGBA{engine.Red: rgb(0xff4b3a), engine.Black: rgb(0x15161a)},
		ink:     [...]color.RGBA{Dark: rgb(0xe53b2c), Light: rgb(0xe53b2c)},
	},
	ColourBlind: {
		// Okabe–Ito orange (#E69F00) and black, with a dark brown rim on
		// the orange, which would otherwise melt into the light wood.
		body:    [2]color.RGBA{engine.Red: rgb(0xe69f00), engine.Black: rgb(0x111111)},
		rim:     [2]color.RGBA{engine.Red: rgb(0x5c3300), engine.Black: rgb(0xe6e6e6)},
		light:   [2]color.RGBA{engine.Red: rgb(0xffe2a8), engine.Black: rgb(0x7a7a7a)},
		tint:    [2]color.RGBA{engine.Red: alpha(rgb(0xffc94d), 0.40), engine.Black: alpha(rgb(0x0c0d10), 0.5)},
		outline: [2]color.RGBA{engine.Red: rgb(0xe69f00), engine.Black: rgb(0x111111)},
		ink:     [...]color.RGBA{Dark: rgb(0xe69f00), Light: rgb(0x9a5b00)}, // orange is too light on white
		cross:   [2]bool{engine.Black: true},
	},
}

// set returns the colours and marks of m.
func (m Marbles) set() *marbleSet { return &marbleSets[m] }

// drawMarble draws a marble of colour col with radius r centred at (x, y):
// a body lit from the top left with a highlight, and a rim: dark on the
// lighter marbles, light on the darker ones, which tells the colours apart
// without hue; in a set that marks col, a cross in place of the highlight.
func (ms *marbleSet) drawMarble(dc *gg.Context, x, y, r float64, col engine.Color) {
	dc.SetColor(ms.rim[col])
	dc.DrawCircle(x, y, r)
	dc.Fill()
	dc.SetColor(ms.body[col])
	if col == engine.Red {
		dc.DrawCircle(x-r*0.07, y-r*0.08, r*0.86)
	} else {
		dc.DrawCircle(x, y, r*0.82)
	}
	dc.Fill()
	if ms.cross[col] {
		// The cross instead of the highlight, which would blur its shape.
		d := r * 0.46
		dc.SetColor(ms.rim[col])
		dc.SetLineWidth(r * 0.2)
		dc.SetLineCapRound()
		dc.DrawLine(x-d, y, x+d, y)
		dc.DrawLine(x, y-d, x, y+d)
		dc.Stroke()
		return
	}
	dc.SetColor(ms.light[col])
	dc.DrawEllipse(x-r*0.34, y-r*0.38, r*0.24, r*0.17)
	dc.Fill()
}
