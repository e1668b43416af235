package draw

import (
	"image"

	"github.com/fogleman/gg"
	"github.com/kulami/kulami/engine"
)

// sprites are the marbles and marks, each drawn once per cell size on a
// transparent cell-sized image with its centre at the cell's centre, so
// that a render only copies them into place.
type sprites struct {
	marble [2]*image.RGBA // indexed by engine.Color
	legal  *image.RGBA    // a hole the player to move may play
	last   *image.RGBA    // the marble just placed: a ring and a dot
	prev   *image.RGBA    // the marble before it: a ring
}

// Mark sizes, in cells.
const (
	legalRadius = 0.11
	lastDot     = 0.10
	ringRadius  = marbleRadius + 0.07
	ringWidth   = 0.05
)

func newSprites(cell int, s float64) sprites {
	n := float64(cell)
	c := n / 2
	sprite := func(f func(dc *gg.Context)) *image.RGBA {
		im := image.NewRGBA(image.Rect(0, 0, cell, cell))
		f(gg.NewContextForRGBA(im))
		return trim(im)
	}
	edge := max(1, 1.6*s)
	ring := func(dc *gg.Context, width float64) {
		dc.SetLineWidth(width + 2*edge)
		dc.SetColor(accentEdge)
		dc.DrawCircle(c, c, n*ringRadius)
		dc.Stroke()
		dc.SetLineWidth(width)
		dc.SetColor(accent)
		dc.DrawCircle(c, c, n*ringRadius)
		dc.Stroke()
	}
	dot := func(dc *gg.Context, r float64) {
		dc.SetColor(accentEdge)
		dc.DrawCircle(c, c, r+edge)
		dc.Fill()
		dc.SetColor(accent)
		dc.DrawCircle(c, c, r)
		dc.Fill()
	}
	var sp sprites
	for _, col := range []engine.Color{engine.Red, engine.Black} {
		sp.marble[col] = sprite(func(dc *gg.Context) { drawMarble(dc, c, n*marbleRadius, col) })
	}
	sp.legal = sprite(func(dc *gg.Context) { dot(dc, n*legalRadius) })
	sp.last = sprite(func(dc *gg.Context) {
		ring(dc, n*ringWidth)
		dot(dc, n*lastDot)
	})
	sp.prev = sprite(func(dc *gg.Context) { ring(dc, n*ringWidth*0.55) })
	return sp
}

// drawMarble draws a marble of colour col with radius r centred at (c, c):
// a body lit from the top left with a highlight, and a rim: dark on red
// marbles, light on black ones, which tells the colours apart without hue.
func drawMarble(dc *gg.Context, c, r float64, col engine.Color) {
	dc.SetColor(marbleRim[col])
	dc.DrawCircle(c, c, r)
	dc.Fill()
	dc.SetColor(marbleBody[col])
	if col == engine.Red {
		dc.DrawCircle(c-r*0.07, c-r*0.08, r*0.86)
	} else {
		dc.DrawCircle(c, c, r*0.82)
	}
	dc.Fill()
	dc.SetColor(marbleLight[col])
	dc.DrawEllipse(c-r*0.34, c-r*0.38, r*0.24, r*0.17)
	dc.Fill()
}

// put draws sprite im over the cell c of dst.
func (b *board) put(dst *image.RGBA, c engine.Cell, im *image.RGBA) {
	over(dst, b.geo.cellRect(c).Min.Add(im.Rect.Min), im)
}

// over draws src over dst with src's top-left corner at p; src must lie
// within dst there. It is draw.Draw with draw.Over for premultiplied
// sprites, with fast paths for the clear and opaque pixels that make up
// most of a sprite.
func over(dst *image.RGBA, p image.Point, src *image.RGBA) {
	r := src.Rect
	w := 4 * r.Dx()
	for y := range r.Dy() {
		s := src.Pix[src.PixOffset(r.Min.X, r.Min.Y+y):][:w:w]
		d := dst.Pix[dst.PixOffset(p.X, p.Y+y):][:w:w]
		for i := 0; i < w; i += 4 {
			switch a := uint32(s[i+3]); a {
			case 0:
			case 0xff:
				copy(d[i:i+4], s[i:i+4])
			default:
				k := 0xff - a
				d[i] = s[i] + uint8((uint32(d[i])*k+0x7f)/0xff)
				d[i+1] = s[i+1] + uint8((uint32(d[i+1])*k+0x7f)/0xff)
				d[i+2] = s[i+2] + uint8((uint32(d[i+2])*k+0x7f)/0xff)
				d[i+3] = s[i+3] + uint8((uint32(d[i+3])*k+0x7f)/0xff)
			}
		}
	}
}

// trim returns the part of im that is not fully transparent, keeping its
// coordinates.
func trim(im *image.RGBA) *image.RGBA {
	r := image.Rectangle{}
	b := im.Rect
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if im.Pix[im.PixOffset(x, y)+3] != 0 {
				r = r.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	return im.SubImage(r).(*image.RGBA)
}
