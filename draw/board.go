package draw

import (
	"image"
	"image/color"
	"strconv"

	"github.com/kulami/kulami/engine"
	"golang.org/x/image/font"
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
	for _, l := range labels(g, label) {
		text(dst, label, labelColor, l.s, l.x, l.y, alignCenter)
	}
	return &board{band: bd}
}

// label is a coordinate on the frame: its text, centred at x on the
// baseline y, in its room.
type label struct {
	s    string
	x, y int
	box  image.Rectangle
}

// labels returns the coordinates of the frame of geometry g, in face f:
// each in its margin, a cell long. Their ink is their capitals' and
// digits' height: they have no accents and no descenders.
func labels(g *geometry, f font.Face) []label {
	ch := capHeight(f)
	mid := g.margin / 2
	var out []label
	for c := range g.cols {
		x := g.origin.X + c*g.cell + g.cell/2
		y := g.frame.Min.Y + mid + ch/2
		out = append(out, label{string(rune('A' + c)), x, y, image.Rect(x-g.cell/2, g.frame.Min.Y, x+g.cell/2, g.origin.Y)})
	}
	for r := range g.rows {
		y := g.origin.Y + r*g.cell + g.cell/2 + ch/2
		s := strconv.Itoa(r + 1)
		top := g.origin.Y + r*g.cell
		out = append(out, label{s, g.frame.Min.X + mid, y, image.Rect(g.frame.Min.X, top, g.origin.X, top+g.cell)},
			label{s, g.frame.Max.X - mid, y, image.Rect(g.origin.X+g.cols*g.cell, top, g.frame.Max.X, top+g.cell)})
	}
	return out
}

// reportLabels records the coordinates of the frame of geometry g in rep,
// as newBoard draws them (the empty board is drawn once and kept).
func reportLabels(rep *Report, g *geometry, fs *faces) {
	if rep == nil {
		return
	}
	f := fs.get(roleLabel)
	for _, l := range labels(g, f) {
		w := font.MeasureString(f, l.s)
		x0 := l.x - (w / 2).Ceil()
		rep.add(Laid{What: "coordinate", Text: l.s, Lines: []string{l.s}, Box: l.box,
			Ink: image.Rect(x0, l.y-capHeight(f), x0+w.Ceil(), l.y)})
	}
}

func (b *board) bytes() int { return 32 + b.band.bytes() }

// shadePanel lays colour c over panel i's tile, or over its stripes if s
// is not nil.
func shadePanel(dst *image.RGBA, g *geometry, l *engine.Layout, i int, c color.RGBA, s *stripes) {
	fill(dst, g.tile(l.Panel(i)), c, s)
}
