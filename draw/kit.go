package draw

import (
	"image"
	"image/color"

	"github.com/fogleman/gg"
	"github.com/kulami/kulami/engine"
)

// kit is what the images of one width, theme, set of marbles, cell size
// and header height share whatever their layout: the sprites, the header with each player's
// box outlined or none, the key's icons and the type faces. A kit is
// immutable once built and safe for concurrent use.
type kit struct {
	theme   Theme
	marbles *marbleSet
	sprites sprites
	// headers are the header's background with red's box, black's box or
	// neither outlined, indexed by engine.Color and noCard.
	headers [3]*band
	icons   icons
	faces   *facePool
}

// icons are the key's pictures, each about as tall as its text.
type icons struct {
	legal, last, prev, closed *image.RGBA
	held                      [2]*image.RGBA // a panel in red's tint, one in black's
	area, line                *image.RGBA
}

func newKit(g *geometry, theme Theme, m Marbles, faces *facePool) *kit {
	ms := m.set()
	k := &kit{theme: theme, marbles: ms, sprites: newSprites(g.cell, g.scale, ms), faces: faces}
	for _, hi := range []engine.Color{engine.Red, engine.Black, noCard} {
		k.headers[hi] = newBand(g.width, 0, g.header, nil)
		drawCards(k.headers[hi].rgba, g, theme, ms, hi)
	}
	k.icons = newIcons(g, ms)
	return k
}

// pack packs the kit's bands into q's palette.
func (k *kit) pack(q *quantizer) {
	for _, h := range k.headers {
		h.pack(q, nil)
	}
}

func (k *kit) bytes() int {
	n := 256 + spriteBytes(k.sprites.marble[0], k.sprites.marble[1], k.sprites.hole, k.sprites.legal, k.sprites.last, k.sprites.prev)
	n += spriteBytes(k.icons.legal, k.icons.last, k.icons.prev, k.icons.closed, k.icons.held[0], k.icons.held[1], k.icons.area, k.icons.line)
	for _, h := range k.headers {
		n += h.bytes()
	}
	return n
}

// noCard stands for no player's box being outlined.
const noCard = engine.Color(2)

// drawCards draws the players' boxes with their marbles of ms on dst, the box
// of colour hi outlined unless hi is noCard.
func drawCards(dst *image.RGBA, g *geometry, theme Theme, ms *marbleSet, hi engine.Color) {
	th := themes[theme]
	fill(dst, roundRect{0, 0, float64(g.width), float64(g.header), 0}, th.bg, nil)
	dc := gg.NewContextForRGBA(dst)
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		r := g.card(c)
		box := roundRect{float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y), g.f(10)}
		if c == hi {
			fill(dst, box, th.hi, nil)
		}
		fill(dst, box.inset(g.f(3)), th.card, nil)
		m := g.f(19)
		ms.drawMarble(dc, float64(r.Min.X)+g.f(16)+m, float64(r.Min.Y)+g.f(cardPad/2+cardLine/2), m, c)
	}
}

// newIcons draws the key's icons for geometry g with the marbles of ms.
func newIcons(g *geometry, ms *marbleSet) icons {
	side := px(30, g.scale)
	n := float64(side)
	c := n / 2
	edge := max(1, 1.2*g.scale)
	icon := func(w int, f func(dc *gg.Context, im *image.RGBA)) *image.RGBA {
		im := image.NewRGBA(image.Rect(0, 0, w, side))
		f(gg.NewContextForRGBA(im), im)
		return im
	}
	wood := func(im *image.RGBA, x0 float64) roundRect {
		t := roundRect{x0 + 1, 1, x0 + n - 1, n - 1, n * 0.12}
		fill(im, t, woodColor, nil)
		return t
	}
	marble := func(dc *gg.Context, col engine.Color) { ms.drawMarble(dc, c, c, n*0.3, col) }
	var ic icons
	ic.legal = icon(side, func(dc *gg.Context, im *image.RGBA) {
		wood(im, 0)
		dc.SetColor(holeColor)
		dc.DrawCircle(c, c, n*0.3)
		dc.Fill()
		drawDot(dc, c, c, n*0.11, edge)
	})
	ic.last = icon(side, func(dc *gg.Context, _ *image.RGBA) {
		marble(dc, engine.Red)
		drawRing(dc, c, c, n*0.41, n*0.085, edge, 0)
	})
	ic.prev = icon(side, func(dc *gg.Context, _ *image.RGBA) {
		marble(dc, engine.Black)
		drawRing(dc, c, c, n*0.44, n*0.07, edge, prevDashes) // broken ring that stays broken on a phone
	})
	ic.closed = icon(side, func(dc *gg.Context, im *image.RGBA) {
		t := wood(im, 0)
		fill(im, t, blockedShade, nil)
		fill(im, t, blockedHatch, &stripes{step: n / 3, width: n / 3 * 0.3})
	})
	for _, col := range []engine.Color{engine.Red, engine.Black} {
		ic.held[col] = icon(side, func(dc *gg.Context, im *image.RGBA) { fill(im, wood(im, 0), ms.tint[col], nil) })
	}
	ic.area = icon(side, func(dc *gg.Context, im *image.RGBA) {
		wood(im, 0)
		dc.DrawRectangle(n*0.2, n*0.2, n*0.6, n*0.6)
		strokeCased(dc, n*0.1, edge, ms.outline[engine.Red])
	})
	ic.line = icon(side, func(dc *gg.Context, im *image.RGBA) {
		wood(im, 0)
		dc.SetLineCapRound()
		dc.DrawLine(n*0.2, n*0.8, n*0.8, n*0.2)
		strokeCased(dc, n*0.16, edge, ms.outline[engine.Black])
	})
	return ic
}

// strokeCased strokes dc's path in colour c, width wide, over a white
// casing edge wider on each side, so that it shows on any panel.
func strokeCased(dc *gg.Context, width, edge float64, c color.RGBA) {
	dc.SetColor(casing)
	dc.SetLineWidth(width + 2*edge)
	dc.StrokePreserve()
	dc.SetColor(c)
	dc.SetLineWidth(width)
	dc.Stroke()
}
