package draw

import (
	"image"
	"image/color"
	"strconv"

	"github.com/kulami/kulami/engine"
)

// board is the empty board of one layout at one width and theme: the
// frame with its coordinates, the panels and the holes, packed into runs
// of palette colours (about 75 KB at 800 pixels). It is built in a few
// milliseconds from rectangles and sprites, and is immutable once built
// and safe for concurrent use.
type board struct {
	band *band
}

// newBoard draws the empty board of layout l with geometry g, using kit
// k's hole sprite and faces, and pixels from pool.
func newBoard(l *engine.Layout, g *geometry, k *kit, pool *pixPool) *board {
	bd := newBand(g.width, g.frame.Min.Y, g.frame.Dy(), pool)
	dst := bd.rgba
	bg := themes[k.theme].bg
	fill(dst, roundRect{0, float64(g.frame.Min.Y), float64(g.width), float64(g.frame.Max.Y), 0}, bg, nil)
	f := roundRect{float64(g.frame.Min.X), float64(g.frame.Min.Y), float64(g.frame.Max.X), float64(g.frame.Max.Y), g.f(12)}
	fill(dst, f, shade(frameColor, 22), nil)
	fill(dst, f.inset(g.f(2)), frameColor, nil)

	// The wooden tiles, lit from the top left, and their holes.
	bevel := max(1, g.f(2.5))
	for i := range engine.NumPanels {
		t := g.tile(l.Panel(i))
		fill(dst, t, shade(woodColor, -52), nil)
		fill(dst, roundRect{t.x0, t.y0, t.x1 - bevel, t.y1 - bevel, t.r}, shade(woodColor, 26), nil)
		fill(dst, t.inset(bevel), woodColor, nil)
	}
	for h := range engine.NumHoles {
		over(dst, g.cellRect(l.Cell(engine.Hole(h))).Min.Add(k.sprites.hole.Rect.Min), k.sprites.hole)
	}

	// The column letters above the board, the row numbers left and right
	// of it.
	fs := k.faces.get()
	defer k.faces.put(fs)
	label := fs.get(roleLabel)
	ch := capHeight(label)
	mid := g.margin / 2
	for c := range g.cols {
		x := g.origin.X + c*g.cell + g.cell/2
		s := string(rune('A' + c))
		text(dst, label, labelColor, s, x, g.frame.Min.Y+mid+ch/2, alignCenter)
	}
	for r := range g.rows {
		y := g.origin.Y + r*g.cell + g.cell/2 + ch/2
		s := strconv.Itoa(r + 1)
		text(dst, label, labelColor, s, g.frame.Min.X+mid, y, alignCenter)
		text(dst, label, labelColor, s, g.frame.Max.X-mid, y, alignCenter)
	}
	return &board{band: bd}
}

func (b *board) bytes() int { return 32 + b.band.bytes() }

// shadePanel lays colour c over panel i's tile, or over its stripes if s
// is not nil.
func shadePanel(dst *image.RGBA, g *geometry, l *engine.Layout, i int, c color.RGBA, s *stripes) {
	fill(dst, g.tile(l.Panel(i)), c, s)
}
