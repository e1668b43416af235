package draw

import (
	"image"
	"math"

	"github.com/kulami/kulami/engine"
)

// geometry places the parts of an image: the header, the board frame with
// its coordinate margins, the cells and the footer. Every length is derived
// from the width, so an image at 400 pixels is the one at 800 halved.
type geometry struct {
	width   int
	scale   float64 // width / 800
	pad     int     // space around the header, the frame and the footer
	header  int     // height of the header
	margin  int     // width of the frame's coordinate margins
	frame   image.Rectangle
	origin  image.Point // top-left corner of cell A1
	cell    int         // side of a cell
	groove  int         // half the gap between two panels
	cols    int
	rows    int
	footerY int // top of the footer
}

func newGeometry(l *engine.Layout, width int) geometry {
	s := float64(width) / DefaultWidth
	g := geometry{
		width:  width,
		scale:  s,
		pad:    px(14, s),
		header: px(96, s),
		margin: px(30, s),
		cols:   l.Width(),
		rows:   l.Height(),
	}
	// Cells are whole pixels, so every hole is drawn alike; a layout taller
	// than it is wide keeps the cells of a square one and is centred.
	side := max(g.cols, g.rows, 8)
	g.cell = (width - 2*g.pad - 2*g.margin) / side
	g.groove = max(1, px(2.5, s))
	boardW, boardH := g.cols*g.cell, g.rows*g.cell
	top := g.pad + g.header
	g.frame = image.Rect(0, 0, boardW+2*g.margin, boardH+2*g.margin).Add(image.Pt((width-boardW)/2-g.margin, top))
	g.origin = g.frame.Min.Add(image.Pt(g.margin, g.margin))
	g.footerY = g.frame.Max.Y
	return g
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

// HoleCenter returns the pixel at the centre of cell c of layout l in an
// image drawn with opt; for an even cell size it is the pixel just below
// and right of the exact centre. It is what a test or a click map needs to
// find a hole in the image. Options it cannot draw with give the centre at
// DefaultWidth.
func HoleCenter(l *engine.Layout, c engine.Cell, opt Options) image.Point {
	w, err := opt.width()
	if err != nil {
		w = DefaultWidth
	}
	g := newGeometry(l, w)
	r := g.cellRect(c)
	return r.Min.Add(image.Pt(g.cell/2, g.cell/2))
}
