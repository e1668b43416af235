package draw

import (
	"image"
	"image/color"
	"math"

	"github.com/fogleman/gg"
	"github.com/kulami/kulami/engine"
)

// sprites are the marbles, holes and marks, each drawn once per cell size
// on a transparent cell-sized image with its centre at the cell's centre,
// so that a render only copies them into place. The three marks differ in
// shape, not only in colour: a legal hole has a small dot, the last marble
// a bold ring, the one before it a thin broken ring.
type sprites struct {
	marble [2]*image.RGBA // indexed by engine.Color
	hole   *image.RGBA    // an empty hole, drawn on the board
	legal  *image.RGBA    // a hole the player to move may play: a dot
	last   *image.RGBA    // the marble just placed: a bold ring
	prev   *image.RGBA    // the marble before it: a thin broken ring
}

// Mark sizes, in cells.
const (
	holeRadius   = 0.30
	marbleRadius = 0.38
	legalRadius  = 0.11
	ringRadius   = marbleRadius + 0.07
	lastWidth    = 0.085
	prevWidth    = 0.035
	prevDashes   = 8 // the broken ring's dashes, the first centred right of the marble
)

// newSprites draws the sprites for cells of size cell at scale s, with the
// marbles of ms.
func newSprites(cell int, s float64, ms *marbleSet) sprites {
	n := float64(cell)
	c := n / 2
	sprite := func(f func(dc *gg.Context)) *image.RGBA {
		im := image.NewRGBA(image.Rect(0, 0, cell, cell))
		f(gg.NewContextForRGBA(im))
		return trim(im)
	}
	edge := max(1, 1.6*s)
	var sp sprites
	for _, col := range []engine.Color{engine.Red, engine.Black} {
		sp.marble[col] = sprite(func(dc *gg.Context) { ms.drawMarble(dc, c, c, n*marbleRadius, col) })
	}
	sp.hole = sprite(func(dc *gg.Context) {
		dc.SetColor(holeColor)
		dc.DrawCircle(c, c, n*holeRadius)
		dc.Fill()
	})
	sp.legal = sprite(func(dc *gg.Context) { drawDot(dc, c, c, n*legalRadius, edge) })
	sp.last = sprite(func(dc *gg.Context) { drawRing(dc, c, c, n*ringRadius, n*lastWidth, edge, 0) })
	sp.prev = sprite(func(dc *gg.Context) { drawRing(dc, c, c, n*ringRadius, n*prevWidth, edge, prevDashes) })
	return sp
}

// drawDot draws the legal hole's mark: a dot of radius r with a dark edge.
func drawDot(dc *gg.Context, x, y, r, edge float64) {
	dc.SetColor(accentEdge)
	dc.DrawCircle(x, y, r+edge)
	dc.Fill()
	dc.SetColor(accent)
	dc.DrawCircle(x, y, r)
	dc.Fill()
}

// drawRing draws a ring of radius r and the given width with a dark edge,
// whole or in dashes, the first centred at angle 0.
func drawRing(dc *gg.Context, x, y, r, width, edge float64, dashes int) {
	arcs := [][2]float64{{0, 2 * math.Pi}}
	if dashes > 0 {
		arcs = nil
		step := 2 * math.Pi / float64(dashes)
		for i := range dashes {
			mid := float64(i) * step
			arcs = append(arcs, [2]float64{mid - step*0.3, mid + step*0.3})
		}
	}
	for _, layer := range []struct {
		w float64
		c color.RGBA
	}{{width + 2*edge, accentEdge}, {width, accent}} {
		dc.SetLineWidth(layer.w)
		dc.SetColor(layer.c)
		for _, a := range arcs {
			dc.NewSubPath()
			dc.DrawArc(x, y, r, a[0], a[1])
			dc.Stroke()
		}
	}
}

// put draws sprite im over the cell c of dst.
func put(dst *image.RGBA, g *geometry, c engine.Cell, im *image.RGBA) {
	over(dst, g.cellRect(c).Min.Add(im.Rect.Min), im)
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

// spriteBytes returns the memory of the images ims.
func spriteBytes(ims ...*image.RGBA) int {
	n := 0
	for _, im := range ims {
		n += len(im.Pix) + 64
	}
	return n
}
