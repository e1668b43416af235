package draw

import (
	"image"
	"image/color"

	"github.com/fogleman/gg"
	"github.com/kulami/kulami/engine"
)

// tintOwners colours every panel held at the end by its holder.
func (b *board) tintOwners(dst *image.RGBA, p *engine.Position) {
	for i := range engine.NumPanels {
		if c, ok := p.PanelOwner(i); ok {
			b.shadePanel(dst, i, ownerTint[c], b.tiles)
		}
	}
}

// drawGroups outlines each colour's largest group, for the rule sets
// that count the area bonus.
func (b *board) drawGroups(dst *image.RGBA, p *engine.Position) {
	dc := gg.NewContextForRGBA(dst)
	dc.SetLineCapRound()
	cell := float64(b.geo.cell)
	edge := max(1, b.geo.f(2))
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		g := p.LargestGroup(c)
		if g.Len() < 2 {
			continue
		}
		for k, col := range []color.RGBA{casing, outlineColor[c]} {
			b.outline(dc, g, cell*0.05)
			dc.SetColor(col)
			dc.SetLineWidth(cell*0.07 + float64(1-k)*2*edge)
			dc.Stroke()
		}
	}
}

// drawLines draws a bar through every scoring line, for the rule sets
// that count the lines bonus. It goes under the marbles, like a rod
// through beads, so that it shows between them and hides none.
func (b *board) drawLines(dst *image.RGBA, p *engine.Position) {
	dc := gg.NewContextForRGBA(dst)
	dc.SetLineCapRound()
	cell := float64(b.geo.cell)
	edge := max(1, b.geo.f(2))
	for _, ln := range p.Lines() {
		x0, y0 := b.geo.center(b.layout.Cell(ln.Holes[0]))
		x1, y1 := b.geo.center(b.layout.Cell(ln.Holes[len(ln.Holes)-1]))
		for k, col := range []color.RGBA{casing, outlineColor[ln.Color]} {
			dc.SetColor(col)
			dc.SetLineWidth(cell*0.16 + float64(1-k)*2*edge)
			dc.DrawLine(x0, y0, x1, y1)
			dc.Stroke()
		}
	}
}

// outline adds to dc's path the border of the cells of the holes in set,
// inset by d: one segment per cell side that borders a cell outside set,
// shortened at outer corners and lengthened at inner ones so that the
// segments meet.
func (b *board) outline(dc *gg.Context, set engine.Holes, d float64) {
	l := b.layout
	in := func(col, row int) bool {
		if col < 0 || row < 0 || col >= l.Width() || row >= l.Height() {
			return false
		}
		h, ok := l.HoleAt(engine.CellAt(col, row))
		return ok && set.Has(h)
	}
	cell := float64(b.geo.cell)
	for h := range set.All() {
		c := l.Cell(h)
		col, row := c.Col(), c.Row()
		x0 := float64(b.geo.origin.X + col*b.geo.cell)
		y0 := float64(b.geo.origin.Y + row*b.geo.cell)
		x1, y1 := x0+cell, y0+cell
		// end returns how far a side's segment reaches past the cell's
		// corner: -d where the side at that corner is a border too, +d
		// where the border turns inwards.
		end := func(border bool) float64 {
			if border {
				return -d
			}
			return d
		}
		up, down, lt, rt := !in(col, row-1), !in(col, row+1), !in(col-1, row), !in(col+1, row)
		if up {
			dc.MoveTo(x0-end(lt), y0+d)
			dc.LineTo(x1+end(rt), y0+d)
		}
		if down {
			dc.MoveTo(x0-end(lt), y1-d)
			dc.LineTo(x1+end(rt), y1-d)
		}
		if lt {
			dc.MoveTo(x0+d, y0-end(up))
			dc.LineTo(x0+d, y1+end(down))
		}
		if rt {
			dc.MoveTo(x1-d, y0-end(up))
			dc.LineTo(x1-d, y1+end(down))
		}
	}
}
