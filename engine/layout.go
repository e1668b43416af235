package engine

import (
	"errors"
	"fmt"
	"strings"
)

// NumPanels is the number of panels of every layout.
const NumPanels = 17

// ErrLayout is wrapped by every error about a malformed layout string.
var ErrLayout = errors.New("bad layout")

// SquareString is the default board of RECORD.md: an 8×8 square that maps
// onto itself when turned by 180°, with a 2×2 panel at its centre.
const SquareString = "aabccdee/aabccdee/aabfffee/ghhiijjk/ghhiijjk/llmmmnoo/llpqqnoo/llpqqnoo"

// panelSet is how many panels of each size (holes) a layout has.
var panelSet = [7]int{2: 4, 3: 4, 4: 5, 6: 4}

// Panel is one wooden panel: a rectangle of cells.
type Panel struct {
	Col, Row      int // top-left cell, counting from zero
	Width, Height int // in cells
}

// Size returns the number of holes of p.
func (p Panel) Size() int { return p.Width * p.Height }

// Contains reports whether the cell c lies on p.
func (p Panel) Contains(c Cell) bool {
	return c.Col() >= p.Col && c.Col() < p.Col+p.Width && c.Row() >= p.Row && c.Row() < p.Row+p.Height
}

// allowedShape reports whether a w×h rectangle is the shape of a panel.
func allowedShape(w, h int) bool {
	if w > h {
		w, h = h, w
	}
	switch {
	case w == 2 && (h == 2 || h == 3):
		return true
	case w == 1 && (h == 2 || h == 3):
		return true
	}
	return false
}

// Layout is an arrangement of the 17 panels on a grid of at most 10×10
// cells. Its holes are numbered 0–63 row by row from the top left, its
// panels 0–16 in order of first appearance, as the canonical layout string
// names them a, b, c, ….
//
// A Layout is immutable and safe for concurrent use. Build one with
// ParseLayout, Square, RandomSquare or RandomIrregular.
type Layout struct {
	width, height int
	panelAt       [NumCells]int8 // panel of each cell, or -1 for a gap
	holeAt        [NumCells]int8 // hole of each cell, or -1 for a gap
	cellOf        [NumHoles]Cell
	panelOf       [NumHoles]uint8
	panels        [NumPanels]Panel
	panelMask     [NumPanels]uint64
	lineMask      [NumHoles]uint64 // the row and column of a hole, without the hole
	blockMask     [NumHoles]uint64 // the panel of a hole
	neighbours    [NumHoles]uint64 // orthogonally adjacent holes
	runs          [][]Hole         // straight gap-free sequences of 5 or more holes
}

// ParseLayout reads a layout string (RECORD.md): rows from top to bottom,
// separated by '/', one character per column, a lowercase letter naming
// the panel that covers the cell and '.' for a gap. Letters need not be in
// canonical order. Every malformed string returns a *ParseError wrapping
// ErrLayout that names the problem.
func ParseLayout(s string) (*Layout, error) {
	if s == "" {
		return nil, layoutError("layout-empty")
	}
	rows := strings.Split(s, "/")
	if len(rows) > MaxSide {
		return nil, layoutError("too-many-rows", "Rows", len(rows), "Max", MaxSide)
	}
	width := len(rows[0])
	var grid [NumCells]byte // the letter of each cell, 0 for a gap
	for r, row := range rows {
		for i := 0; i < len(row); i++ {
			if b := row[i]; b != '.' && (b < 'a' || b > 'z') {
				return nil, layoutError("bad-cell", "Row", r+1, "Char", fmt.Sprintf("%q", badRune(row[i:])))
			}
		}
		if len(row) != width {
			return nil, layoutError("uneven-rows", "Row", r+1, "Cells", len(row), "Width", width)
		}
		if width == 0 {
			return nil, layoutError("empty-row", "Row", r+1)
		}
		if width > MaxSide {
			return nil, layoutError("too-wide", "Width", width, "Max", MaxSide)
		}
		for c := 0; c < width; c++ {
			if row[c] != '.' {
				grid[CellAt(c, r)] = row[c]
			}
		}
	}
	return newLayout(&grid, width, len(rows))
}

// layoutError returns the problem code of a layout string, naming args.
func layoutError(code string, args ...any) error {
	return &ParseError{Err: ErrLayout, Code: code, Args: args}
}

// badRune returns the first character of s, which may be a multi-byte rune.
func badRune(s string) string {
	for _, r := range s {
		return string(r)
	}
	return s
}

// MustParseLayout is ParseLayout for layouts known to be valid; it panics
// on an error.
func MustParseLayout(s string) *Layout {
	l, err := ParseLayout(s)
	if err != nil {
		panic(err)
	}
	return l
}

var square = MustParseLayout(SquareString)

// Square returns the default 8×8 layout of RECORD.md.
func Square() *Layout { return square }

// newLayout validates a grid of panel labels (0 for a gap; any other byte
// names a panel) and builds the layout with its precomputed masks.
func newLayout(grid *[NumCells]byte, width, height int) (*Layout, error) {
	l := &Layout{width: width, height: height}
	for i := range l.panelAt {
		l.panelAt[i] = -1
		l.holeAt[i] = -1
	}

	// Panels in order of first appearance; each label a rectangle.
	var index [256]int8
	for i := range index {
		index[i] = -1
	}
	type extent struct{ minC, minR, maxC, maxR, cells int }
	var ext []extent
	var labels []byte
	for r := 0; r < height; r++ {
		for c := 0; c < width; c++ {
			b := grid[CellAt(c, r)]
			if b == 0 {
				continue
			}
			if index[b] < 0 {
				index[b] = int8(len(ext)) // at most 26 letters
				ext = append(ext, extent{c, r, c, r, 0})
				labels = append(labels, b)
			}
			e := &ext[index[b]]
			e.minC, e.maxC = min(e.minC, c), max(e.maxC, c)
			e.minR, e.maxR = min(e.minR, r), max(e.maxR, r)
			e.cells++
		}
	}
	var count [7]int
	for i, e := range ext {
		w, h := e.maxC-e.minC+1, e.maxR-e.minR+1
		if w*h != e.cells {
			return nil, layoutError("not-rectangle", "Panel", fmt.Sprintf("%q", labels[i]))
		}
		if !allowedShape(w, h) {
			return nil, layoutError("panel-shape", "Panel", fmt.Sprintf("%q", labels[i]), "Width", w, "Height", h)
		}
		count[w*h]++
	}
	if count != panelSet {
		return nil, layoutError("panel-count", "Six", count[6], "Four", count[4], "Three", count[3], "Two", count[2])
	}
	for i, e := range ext {
		l.panels[i] = Panel{Col: e.minC, Row: e.minR, Width: e.maxC - e.minC + 1, Height: e.maxR - e.minR + 1}
	}

	// Holes row by row.
	h := 0
	for r := 0; r < height; r++ {
		for c := 0; c < width; c++ {
			cell := CellAt(c, r)
			if grid[cell] == 0 {
				continue
			}
			p := index[grid[cell]]
			l.panelAt[cell] = p
			l.holeAt[cell] = int8(h)
			l.cellOf[h] = cell
			l.panelOf[h] = uint8(p)
			l.panelMask[p] |= 1 << h
			h++
		}
	}
	if !l.connected() {
		return nil, layoutError("not-connected")
	}
	l.precompute()
	return l, nil
}

// connected reports whether the holes form one orthogonally connected group.
func (l *Layout) connected() bool {
	seen := uint64(1)
	stack := []Hole{0}
	for len(stack) > 0 {
		h := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		c := l.cellOf[h]
		for _, n := range l.adjacent(c) {
			if m := uint64(1) << n; seen&m == 0 {
				seen |= m
				stack = append(stack, n)
			}
		}
	}
	return seen == ^uint64(0)
}

// adjacent returns the holes orthogonally next to cell c.
func (l *Layout) adjacent(c Cell) []Hole {
	var out []Hole
	col, row := c.Col(), c.Row()
	for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
		if h, ok := l.holeNear(col+d[0], row+d[1]); ok {
			out = append(out, h)
		}
	}
	return out
}

// holeNear returns the hole at column col and row row (from zero), if any;
// the column and row may lie outside the layout.
func (l *Layout) holeNear(col, row int) (Hole, bool) {
	if col < 0 || row < 0 || col >= l.width || row >= l.height {
		return NoHole, false
	}
	return l.HoleAt(CellAt(col, row))
}

// precompute fills the masks used by move generation and scoring.
func (l *Layout) precompute() {
	var rowMask, colMask [MaxSide]uint64
	for h := 0; h < NumHoles; h++ {
		c := l.cellOf[h]
		rowMask[c.Row()] |= 1 << h
		colMask[c.Col()] |= 1 << h
	}
	for h := 0; h < NumHoles; h++ {
		c := l.cellOf[h]
		l.lineMask[h] = (rowMask[c.Row()] | colMask[c.Col()]) &^ (1 << h)
		l.blockMask[h] = l.panelMask[l.panelOf[h]]
		for _, n := range l.adjacent(c) {
			l.neighbours[h] |= 1 << n
		}
	}
	// Maximal straight gap-free sequences of 5 or more holes in the four
	// directions: east, south, south-east, south-west.
	for _, d := range [4][2]int{{1, 0}, {0, 1}, {1, 1}, {-1, 1}} {
		for h := 0; h < NumHoles; h++ {
			c := l.cellOf[h]
			if _, ok := l.holeNear(c.Col()-d[0], c.Row()-d[1]); ok {
				continue // not the start of a sequence
			}
			var seq []Hole
			for col, row := c.Col(), c.Row(); ; col, row = col+d[0], row+d[1] {
				n, ok := l.holeNear(col, row)
				if !ok {
					break
				}
				seq = append(seq, n)
			}
			if len(seq) >= minLine {
				l.runs = append(l.runs, seq)
			}
		}
	}
}

// Width returns the number of columns of l.
func (l *Layout) Width() int { return l.width }

// Height returns the number of rows of l.
func (l *Layout) Height() int { return l.height }

// HoleAt returns the hole at cell c, or false if c is a gap or lies outside l.
func (l *Layout) HoleAt(c Cell) (Hole, bool) {
	if c >= NumCells || l.holeAt[c] < 0 {
		return NoHole, false
	}
	return Hole(l.holeAt[c]), true
}

// Cell returns the cell of hole h.
func (l *Layout) Cell(h Hole) Cell { return l.cellOf[h] }

// PanelOf returns the panel (0–16) that hole h lies on.
func (l *Layout) PanelOf(h Hole) int { return int(l.panelOf[h]) }

// PanelAt returns the panel covering cell c, or false for a gap.
func (l *Layout) PanelAt(c Cell) (int, bool) {
	if c >= NumCells || l.panelAt[c] < 0 {
		return 0, false
	}
	return int(l.panelAt[c]), true
}

// Panel returns panel i (0–16).
func (l *Layout) Panel(i int) Panel { return l.panels[i] }

// PanelHoles returns the holes of panel i.
func (l *Layout) PanelHoles(i int) Holes { return Holes(l.panelMask[i]) }

// IsSquare reports whether l is an 8×8 square without gaps.
func (l *Layout) IsSquare() bool { return l.width == 8 && l.height == 8 }

// String returns the canonical layout string: panels named a, b, c, … in
// order of first appearance.
func (l *Layout) String() string {
	var b strings.Builder
	b.Grow(l.height * (l.width + 1))
	for r := 0; r < l.height; r++ {
		if r > 0 {
			b.WriteByte('/')
		}
		for c := 0; c < l.width; c++ {
			if p := l.panelAt[CellAt(c, r)]; p >= 0 {
				b.WriteByte('a' + byte(p))
			} else {
				b.WriteByte('.')
			}
		}
	}
	return b.String()
}

// MarshalText writes the canonical layout string.
func (l *Layout) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText reads a layout string as ParseLayout does.
func (l *Layout) UnmarshalText(b []byte) error {
	v, err := ParseLayout(string(b))
	if err != nil {
		return err
	}
	*l = *v
	return nil
}

// Equal reports whether l and m place the same panels on the same cells.
func (l *Layout) Equal(m *Layout) bool {
	return l.width == m.width && l.height == m.height && l.panelAt == m.panelAt
}
