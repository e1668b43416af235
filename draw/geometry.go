package draw

import (
	"image"
	"math"

	"github.com/kulami/kulami/engine"
)

// geometry places the parts of an image: the header, the board frame with
// its coordinate margins, the cells, the key and the footer. Every length
// is derived from the width, so an image at 400 pixels is the one at 800
// halved.
type geometry struct {
	width  int
	scale  float64 // width / 800
	pad    int     // space around the header, the frame and the footer
	lines  int     // lines of text in a player's box: 2, or 3 to show bonuses
	header int     // height of the header, its padding included
	margin int     // width of the frame's coordinate margins: left, top and right
	bottom int     // height of the frame below the board, which has no labels
	frame  image.Rectangle
	origin image.Point // top-left corner of cell A1
	cell   int         // side of a cell
	groove int         // half the gap between two panels
	cols   int
	rows   int
	keyY   int // top of the key under the board
	// footerY is the top of the footer, below the key.
	footerY int
}

// Heights of the parts of an image at 800 pixels.
const (
	cardLine   = 33 // a line of text in a player's box
	cardPad    = 20 // a box's height beyond its lines
	keyRow     = 38 // a row of the key, which takes as many as it needs
	keyPad     = 4  // above and below the key's rows
	footerLine = 34 // a line of the footer's text
)

func newGeometry(l *engine.Layout, width int, r engine.Rules) geometry {
	s := float64(width) / DefaultWidth
	g := geometry{
		width:  width,
		scale:  s,
		pad:    px(12, s),
		lines:  2,
		margin: px(36, s),
		bottom: px(12, s),
		cols:   l.Width(),
		rows:   l.Height(),
	}
	if r.CountsArea() || r.CountsLines() {
		g.lines = 3
	}
	g.setCardLines(g.lines)
	return g
}

// setCardLines makes the players' boxes n lines tall, and places the
// board under them and the key under the board.
func (g *geometry) setCardLines(n int) {
	s := g.scale
	g.lines = n
	g.header = g.pad + px(cardPad+cardLine*float64(g.lines), s) + px(6, s)
	// Cells are whole pixels, so every hole is drawn alike; a layout taller
	// than it is wide keeps the cells of a square one and is centred.
	side := max(g.cols, g.rows, 8)
	g.cell = (g.width - 2*g.pad - 2*g.margin) / side
	g.groove = max(1, px(2.5, s))
	boardW, boardH := g.cols*g.cell, g.rows*g.cell
	// Column letters above the board only, row numbers on both sides: a
	// second row of letters would make a phone user scroll further.
	g.frame = image.Rect(0, 0, boardW+2*g.margin, boardH+g.margin+g.bottom).Add(image.Pt((g.width-boardW)/2-g.margin, g.header))
	g.origin = g.frame.Min.Add(image.Pt(g.margin, g.margin))
	g.keyY = g.frame.Max.Y
	g.setKeyRows(1)
}

// px scales a length given for an 800-pixel image to scale s, rounded to
// whole pixels.
func px(v, s float64) int { return int(math.Round(v * s)) }

// f scales a length given for an 800-pixel image to scale s.
func (g *geometry) f(v float64) float64 { return v * g.scale }

// cellRect returns the pixels of cell c.
func (g *geometry) cellRect(c engine.Cell) image.Rectangle {
	min := g.origin.Add(image.Pt(c.Col()*g.cell, c.Row()*g.cell))
	return image.Rectangle{min, min.Add(image.Pt(g.cell, g.cell))}
}

// center returns the centre of cell c in sub-pixel coordinates.
func (g *geometry) center(c engine.Cell) (x, y float64) {
	r := g.cellRect(c)
	return float64(r.Min.X) + float64(g.cell)/2, float64(r.Min.Y) + float64(g.cell)/2
}

// panelRect returns the pixels of panel p, grooves included.
func (g *geometry) panelRect(p engine.Panel) image.Rectangle {
	min := g.origin.Add(image.Pt(p.Col*g.cell, p.Row*g.cell))
	return image.Rectangle{min, min.Add(image.Pt(p.Width*g.cell, p.Height*g.cell))}
}

// tile returns panel p's tile: its cells less half a groove all round,
// with rounded corners.
func (g *geometry) tile(p engine.Panel) roundRect {
	r := g.panelRect(p)
	gr := float64(g.groove)
	return roundRect{float64(r.Min.X) + gr, float64(r.Min.Y) + gr, float64(r.Max.X) - gr, float64(r.Max.Y) - gr, float64(g.cell) * 0.09}
}

// footerHeight returns the height of the footer below the key: its
// texts' lines, and at the end of a game (or in an animation's frame,
// where the last frame has it) the score table.
func (g *geometry) footerHeight(lines int, table bool) int {
	if !table {
		return px(footerLine*float64(lines)+10, g.scale)
	}
	return px(footerLine*float64(lines)+3*38+20, g.scale)
}

// HoleCenter returns the pixel at the centre of cell c of layout l in an
// image drawn with opt; for an even cell size it is the pixel just below
// and right of the exact centre. It is what a test or a click map needs to
// find a hole in the image: the board's place depends on the layout, the
// width, the rule set and the words of the players' boxes, not on the
// position. Options it cannot draw with give the centre at DefaultWidth.
func HoleCenter(l *engine.Layout, c engine.Cell, opt Options) image.Point {
	w, err := opt.width()
	if err != nil {
		w = DefaultWidth
	}
	g := newGeometry(l, w, opt.Rules)
	t := opt.Text
	if t == nil {
		t = &English
	}
	fs := defaultRenderer().faces(g.scale).get()
	g.setCardLines(cardLines(fs, t, opt.Rules, &g))
	defaultRenderer().faces(g.scale).put(fs)
	r := g.cellRect(c)
	return r.Min.Add(image.Pt(g.cell/2, g.cell/2))
}

// setKeyRows places the footer under a key of rows rows.
func (g *geometry) setKeyRows(rows int) {
	g.footerY = g.keyY + px(2*keyPad+keyRow*float64(rows), g.scale)
}
