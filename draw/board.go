package draw

import (
	"image"
	"image/color"
	"strconv"

	"github.com/fogleman/gg"
	"github.com/kulami/kulami/engine"
)

// board is everything about one layout at one size and theme that does not
// change from move to move: the geometry, the picture of the empty board
// with its header background, the masks that shade or tint a panel, and
// the pre-drawn marbles and marks. A board is immutable once built and safe
// for concurrent use.
type board struct {
	layout *engine.Layout
	theme  Theme
	geo    geometry
	// base is the image down to the footer: the header's background, the
	// frame with its coordinates, the panels and the empty holes.
	base *image.RGBA
	// tiles covers the panels without the grooves between them; hatch
	// covers the stripes of a closed panel within the tiles. Both are in the
	// coordinates of base.
	tiles, hatch *image.Alpha
	// headers are the strip of base that holds the players' boxes, with
	// red's or black's box outlined, indexed by engine.Color.
	headers [2]*image.RGBA
	sprites sprites
	faces   *facePool
}

func newBoard(l *engine.Layout, width int, theme Theme) *board {
	g := newGeometry(l, width)
	b := &board{layout: l, theme: theme, geo: g, faces: &facePool{scale: g.scale}}
	b.base = image.NewRGBA(image.Rect(0, 0, width, g.footerY))
	dc := gg.NewContextForRGBA(b.base)
	dc.SetColor(themes[theme].bg)
	dc.Clear()
	b.drawCards(b.base, noCard)
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		b.headers[c] = image.NewRGBA(image.Rect(0, 0, width, g.headerHeight()))
		copy(b.headers[c].Pix, b.base.Pix)
		b.drawCards(b.headers[c], c)
	}
	b.drawFrame(dc)
	b.drawPanels(dc)
	b.drawLabels()
	b.tiles, b.hatch = b.masks()
	b.sprites = newSprites(g.cell, g.scale)
	return b
}

// drawFrame draws the board the panels lie on.
func (b *board) drawFrame(dc *gg.Context) {
	f := b.geo.frame
	r := b.geo.f(12)
	dc.SetColor(shade(frameColor, 22))
	dc.DrawRoundedRectangle(float64(f.Min.X), float64(f.Min.Y), float64(f.Dx()), float64(f.Dy()), r)
	dc.Fill()
	inset := b.geo.f(2)
	dc.SetColor(frameColor)
	dc.DrawRoundedRectangle(float64(f.Min.X)+inset, float64(f.Min.Y)+inset, float64(f.Dx())-2*inset, float64(f.Dy())-2*inset, r-inset)
	dc.Fill()
}

// tileRect returns panel i's tile: its cells less half a groove all round,
// in sub-pixel coordinates.
func (b *board) tileRect(i int) (x, y, w, h float64) {
	r := b.geo.panelRect(b.layout.Panel(i))
	gr := float64(b.geo.groove)
	return float64(r.Min.X) + gr, float64(r.Min.Y) + gr, float64(r.Dx()) - 2*gr, float64(r.Dy()) - 2*gr
}

// cornerRadius is the rounding of a tile's corners.
func (b *board) cornerRadius() float64 { return float64(b.geo.cell) * 0.09 }

// drawPanels draws the wooden tiles, lit from the top left, and their
// holes.
func (b *board) drawPanels(dc *gg.Context) {
	bevel := max(1, b.geo.f(2.5))
	rad := b.cornerRadius()
	for i := range engine.NumPanels {
		x, y, w, h := b.tileRect(i)
		dc.SetColor(shade(woodColor, -52))
		dc.DrawRoundedRectangle(x, y, w, h, rad)
		dc.Fill()
		dc.SetColor(shade(woodColor, 26))
		dc.DrawRoundedRectangle(x, y, w-bevel, h-bevel, rad)
		dc.Fill()
		dc.SetColor(woodColor)
		dc.DrawRoundedRectangle(x+bevel, y+bevel, w-2*bevel, h-2*bevel, rad-bevel/2)
		dc.Fill()
	}
	cell := float64(b.geo.cell)
	rh := cell * holeRadius
	for h := range engine.NumHoles {
		x, y := b.geo.center(b.layout.Cell(engine.Hole(h)))
		dc.SetColor(holeColor)
		dc.DrawCircle(x, y, rh)
		dc.Fill()
	}
}

// holeRadius and marbleRadius are in cells.
const (
	holeRadius   = 0.30
	marbleRadius = 0.38
)

// drawLabels writes the column letters above and below the board and the
// row numbers left and right of it.
func (b *board) drawLabels() {
	fs := b.faces.get()
	defer b.faces.put(fs)
	g := &b.geo
	ch := capHeight(fs.label)
	mid := g.margin / 2
	for c := range g.cols {
		x := g.origin.X + c*g.cell + g.cell/2
		s := string(rune('A' + c))
		text(b.base, fs.label, labelColor, s, x, g.frame.Min.Y+mid+ch/2, alignCenter)
		text(b.base, fs.label, labelColor, s, x, g.frame.Max.Y-mid+ch/2, alignCenter)
	}
	for r := range g.rows {
		y := g.origin.Y + r*g.cell + g.cell/2 + ch/2
		s := strconv.Itoa(r + 1)
		text(b.base, fs.label, labelColor, s, g.frame.Min.X+mid, y, alignCenter)
		text(b.base, fs.label, labelColor, s, g.frame.Max.X-mid, y, alignCenter)
	}
}

// masks returns the masks of the tiles and of the stripes on them.
func (b *board) masks() (tiles, hatch *image.Alpha) {
	bounds := b.base.Bounds()
	mask := func(draw func(dc *gg.Context)) *image.Alpha {
		rgba := image.NewRGBA(bounds)
		dc := gg.NewContextForRGBA(rgba)
		dc.SetColor(color.White)
		draw(dc)
		a := image.NewAlpha(bounds)
		for i := range a.Pix {
			a.Pix[i] = rgba.Pix[4*i+3]
		}
		return a
	}
	rad := b.cornerRadius()
	tiles = mask(func(dc *gg.Context) {
		for i := range engine.NumPanels {
			x, y, w, h := b.tileRect(i)
			dc.DrawRoundedRectangle(x, y, w, h, rad)
			dc.Fill()
		}
	})
	stripes := mask(func(dc *gg.Context) {
		f := b.geo.frame
		step := float64(b.geo.cell) / 3
		dc.SetLineWidth(step * 0.3)
		span := float64(f.Dx() + f.Dy())
		for d := 0.0; d < span; d += step {
			x := float64(f.Min.X) + d
			dc.DrawLine(x, float64(f.Min.Y), x-float64(f.Dy()), float64(f.Max.Y))
			dc.Stroke()
		}
	})
	for i := range stripes.Pix {
		stripes.Pix[i] = uint8(uint16(stripes.Pix[i]) * uint16(tiles.Pix[i]) / 255)
	}
	return tiles, stripes
}

// shadePanel lays colour c over panel i's tile, or over its stripes when
// m is the hatch mask.
func (b *board) shadePanel(dst *image.RGBA, i int, c color.RGBA, m *image.Alpha) {
	overMask(dst, b.geo.panelRect(b.layout.Panel(i)), c, m)
}

// overMask lays the premultiplied colour c over the pixels of dst within
// r, as far as mask m (in dst's coordinates) covers them. It is
// draw.DrawMask with a uniform source and draw.Over, with fast paths for
// the uncovered and fully covered pixels that make up most of a mask.
func overMask(dst *image.RGBA, r image.Rectangle, c color.RGBA, m *image.Alpha) {
	k := 0xff - uint32(c.A) // what is left of dst under a full cover
	src := [4]uint32{uint32(c.R), uint32(c.G), uint32(c.B), uint32(c.A)}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		cover := m.Pix[m.PixOffset(r.Min.X, y):][:r.Dx()]
		d := dst.Pix[dst.PixOffset(r.Min.X, y):][:4*r.Dx()]
		for x, a := range cover {
			p := d[4*x : 4*x+4 : 4*x+4]
			switch a {
			case 0:
			case 0xff:
				for ch := range p {
					p[ch] = uint8(src[ch] + (uint32(p[ch])*k+0x7f)/0xff)
				}
			default:
				a := uint32(a)
				kk := 0xff*0xff - uint32(c.A)*a
				for ch := range p {
					p[ch] = uint8((src[ch]*a*0xff + uint32(p[ch])*kk + 0x7f*0xff) / (0xff * 0xff))
				}
			}
		}
	}
}
