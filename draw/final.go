package draw

import (
	"cmp"
	"image"
	"math"
	"slices"

	"github.com/fogleman/gg"
	"github.com/kulami/kulami/engine"
)

// The overlays of an ended game, in cells: the width of the outline of a
// largest group and how far inside the group's cells it runs, and the
// width of a scoring line's bar. Each has a white casing edge on both
// sides, casingEdge pixels wide at 800.
const (
	outlineWidth = 0.07
	outlineInset = 0.05
	barWidth     = 0.16
	casingEdge   = 2
)

// segment is a straight stroke from (x0, y0) to (x1, y1).
type segment struct{ x0, y0, x1, y1 float64 }

// tintOwners colours every panel held at the end by its holder, in the
// tints of ms.
func tintOwners(dst *image.RGBA, g *geometry, p *engine.Position, ms *marbleSet) {
	l := p.Layout()
	for i := range engine.NumPanels {
		if c, ok := p.PanelOwner(i); ok {
			shadePanel(dst, g, l, i, ms.tint[c], nil)
		}
	}
}

// drawGroups outlines each colour's largest group, for the rule sets that
// count the area bonus, leaving a gap where a scoring line's bar crosses
// (bars is nil when the rule set counts no lines).
func drawGroups(dst *image.RGBA, g *geometry, p *engine.Position, bars []segment, ms *marbleSet) {
	dc := gg.NewContextForRGBA(dst)
	dc.SetLineCapRound()
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		for _, s := range groupOutline(g, p, c, bars) {
			dc.MoveTo(s.x0, s.y0)
			dc.LineTo(s.x1, s.y1)
		}
		strokeCased(dc, float64(g.cell)*outlineWidth, max(1, g.f(casingEdge)), ms.outline[c])
	}
}

// groupOutline returns the segments of the outline of colour c's largest
// group, with a gap around every point where one of bars crosses a
// corner of the cells.
func groupOutline(g *geometry, p *engine.Position, c engine.Color, bars []segment) []segment {
	set := p.LargestGroup(c)
	if set.Len() < 2 {
		return nil
	}
	segs := merge(outline(g, p.Layout(), set, float64(g.cell)*outlineInset))
	cell := float64(g.cell)
	edge := max(1, g.f(casingEdge))
	// A bar at 45° crosses an outline that runs inset from a corner within
	// this distance of the corner, casings and a small gap included.
	r := ((barWidth+outlineWidth)*cell/2+2*edge+g.f(3))*math.Sqrt2 + cell*outlineInset
	for _, b := range bars {
		for _, pt := range crossings(g, b) {
			segs = clipAround(segs, pt, r)
		}
	}
	return segs
}

// crossings returns the cell corners bar b passes through: the points
// between two diagonal neighbours.
func crossings(g *geometry, b segment) [][2]float64 {
	cell := float64(g.cell)
	dx, dy := b.x1-b.x0, b.y1-b.y0
	if math.Abs(dx) < 1 || math.Abs(dy) < 1 {
		return nil // a row or a column: it crosses cell sides, not corners
	}
	n := int(math.Round(math.Abs(dx) / cell))
	var pts [][2]float64
	for i := range n {
		t := (float64(i) + 0.5) / float64(n)
		pts = append(pts, [2]float64{b.x0 + t*dx, b.y0 + t*dy})
	}
	return pts
}

// clipAround removes from the horizontal and vertical segments segs what
// lies within r of pt.
func clipAround(segs []segment, pt [2]float64, r float64) []segment {
	var out []segment
	for _, s := range segs {
		horizontal := s.y0 == s.y1
		// along is the segment's coordinate along its axis, across the
		// distance of its axis from pt.
		a0, a1, across, centre := s.x0, s.x1, s.y0-pt[1], pt[0]
		if !horizontal {
			a0, a1, across, centre = s.y0, s.y1, s.x0-pt[0], pt[1]
		}
		if math.Abs(across) >= r {
			out = append(out, s)
			continue
		}
		half := math.Sqrt(r*r - across*across)
		lo, hi := min(a0, a1), max(a0, a1)
		mk := func(from, to float64) {
			if to-from < 1 {
				return
			}
			if horizontal {
				out = append(out, segment{from, s.y0, to, s.y1})
			} else {
				out = append(out, segment{s.x0, from, s.x1, to})
			}
		}
		mk(lo, min(hi, centre-half))
		mk(max(lo, centre+half), hi)
	}
	return out
}

// merge joins the horizontal and vertical segments of segs that lie on
// one line and touch, so that a straight stretch of an outline is one
// stroke: where two strokes overlap, the rasterizer may leave a seam.
func merge(segs []segment) []segment {
	type line struct {
		horizontal bool
		at         float64
	}
	spans := map[line][][2]float64{}
	var order []line
	for _, s := range segs {
		l, span := line{true, s.y0}, [2]float64{min(s.x0, s.x1), max(s.x0, s.x1)}
		if s.x0 == s.x1 {
			l, span = line{false, s.x0}, [2]float64{min(s.y0, s.y1), max(s.y0, s.y1)}
		}
		if _, ok := spans[l]; !ok {
			order = append(order, l)
		}
		spans[l] = append(spans[l], span)
	}
	var out []segment
	for _, l := range order {
		ss := spans[l]
		slices.SortFunc(ss, func(a, b [2]float64) int { return cmp.Compare(a[0], b[0]) })
		cur := ss[0]
		flush := func() {
			if l.horizontal {
				out = append(out, segment{cur[0], l.at, cur[1], l.at})
			} else {
				out = append(out, segment{l.at, cur[0], l.at, cur[1]})
			}
		}
		for _, s := range ss[1:] {
			if s[0] <= cur[1]+0.5 {
				cur[1] = max(cur[1], s[1])
				continue
			}
			flush()
			cur = s
		}
		flush()
	}
	return out
}

// lineBars returns, indexed by engine.Color, a bar through each scoring
// line, from the centre of its first hole to that of its last.
func lineBars(g *geometry, p *engine.Position) [2][]segment {
	var bars [2][]segment
	l := p.Layout()
	for _, ln := range p.Lines() {
		x0, y0 := g.center(l.Cell(ln.Holes[0]))
		x1, y1 := g.center(l.Cell(ln.Holes[len(ln.Holes)-1]))
		bars[ln.Color] = append(bars[ln.Color], segment{x0, y0, x1, y1})
	}
	return bars
}

// drawLines draws the bars of bars, for the rule sets that count the
// lines bonus. They go under the marbles, like a rod through beads, so
// that they show between them and hide none.
func drawLines(dst *image.RGBA, g *geometry, bars [2][]segment, ms *marbleSet) {
	dc := gg.NewContextForRGBA(dst)
	dc.SetLineCapRound()
	for c, line := range bars {
		for _, b := range line {
			dc.DrawLine(b.x0, b.y0, b.x1, b.y1)
			strokeCased(dc, float64(g.cell)*barWidth, max(1, g.f(casingEdge)), ms.outline[c])
		}
	}
}

// outline returns the border of the cells of the holes in set, inset by
// d: one segment per cell side that borders a cell outside set, shortened
// at outer corners and lengthened at inner ones so that the segments meet.
func outline(g *geometry, l *engine.Layout, set engine.Holes, d float64) []segment {
	in := func(col, row int) bool {
		if col < 0 || row < 0 || col >= l.Width() || row >= l.Height() {
			return false
		}
		h, ok := l.HoleAt(engine.CellAt(col, row))
		return ok && set.Has(h)
	}
	// end returns how far a side's segment reaches past the cell's corner:
	// -d where the side at that corner is a border too, +d where the
	// border turns inwards.
	end := func(border bool) float64 {
		if border {
			return -d
		}
		return d
	}
	cell := float64(g.cell)
	var segs []segment
	for h := range set.All() {
		c := l.Cell(h)
		col, row := c.Col(), c.Row()
		x0 := float64(g.origin.X + col*g.cell)
		y0 := float64(g.origin.Y + row*g.cell)
		x1, y1 := x0+cell, y0+cell
		up, down, lt, rt := !in(col, row-1), !in(col, row+1), !in(col-1, row), !in(col+1, row)
		if up {
			segs = append(segs, segment{x0 - end(lt), y0 + d, x1 + end(rt), y0 + d})
		}
		if down {
			segs = append(segs, segment{x0 - end(lt), y1 - d, x1 + end(rt), y1 - d})
		}
		if lt {
			segs = append(segs, segment{x0 + d, y0 - end(up), x0 + d, y1 + end(down)})
		}
		if rt {
			segs = append(segs, segment{x1 - d, y0 - end(up), x1 - d, y1 + end(down)})
		}
	}
	return segs
}
