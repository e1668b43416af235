package engine

// The shapes of the panels, one entry per panel, as width×height before
// turning: 4 of 2×3, 5 of 2×2, 4 of 1×3, 4 of 1×2.
var panelShapes = [NumPanels][2]int{
	{2, 3}, {2, 3}, {2, 3}, {2, 3},
	{2, 2}, {2, 2}, {2, 2}, {2, 2}, {2, 2},
	{1, 3}, {1, 3}, {1, 3}, {1, 3},
	{1, 2}, {1, 2}, {1, 2}, {1, 2},
}

// intn returns a pseudo-random number in [0, n).
func (r *Rand) intn(n int) int { return int((r.Uint64() >> 32 * uint64(n)) >> 32) }

// RandomSquare returns a random tiling of the 8×8 square by the 17 panels,
// the same for the same seed on every machine. Every tiling can come out.
func RandomSquare(seed uint64) *Layout {
	r := NewRand(seed)
	for {
		var grid [NumCells]byte
		left := panelSet // panels left per size
		budget := 20000  // backtracking steps before starting afresh
		if tile(&r, &grid, &left, 0, &budget) {
			l, err := newLayout(&grid, 8, 8)
			if err != nil {
				panic("engine: random tiling is invalid: " + err.Error())
			}
			return l
		}
	}
}

// tile fills the 8×8 grid from cell index at (row by row) with the panels
// left, trying shapes in random order; it reports whether it succeeded.
func tile(r *Rand, grid *[NumCells]byte, left *[7]int, at int, budget *int) bool {
	for at < 64 && grid[CellAt(at%8, at/8)] != 0 {
		at++
	}
	if at == 64 {
		return true
	}
	if *budget--; *budget < 0 {
		return false
	}
	// The first empty cell is the top-left corner of the panel covering it.
	shapes := [...][2]int{{2, 3}, {3, 2}, {2, 2}, {1, 3}, {3, 1}, {1, 2}, {2, 1}}
	for i := len(shapes) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		shapes[i], shapes[j] = shapes[j], shapes[i]
	}
	col, row := at%8, at/8
	label := byte('a' + NumPanels - sumPanels(left))
	for _, s := range shapes {
		w, h := s[0], s[1]
		if left[w*h] == 0 || !fits(grid, col, row, w, h, 8) {
			continue
		}
		fill(grid, col, row, w, h, label)
		left[w*h]--
		if tile(r, grid, left, at+w, budget) {
			return true
		}
		left[w*h]++
		fill(grid, col, row, w, h, 0)
	}
	return false
}

func sumPanels(left *[7]int) int {
	n := 0
	for _, k := range left {
		n += k
	}
	return n
}

// fits reports whether a w×h panel with its top-left cell at col, row lies
// on empty cells within a side×side grid.
func fits(grid *[NumCells]byte, col, row, w, h, side int) bool {
	if col < 0 || row < 0 || col+w > side || row+h > side {
		return false
	}
	for y := row; y < row+h; y++ {
		for x := col; x < col+w; x++ {
			if grid[CellAt(x, y)] != 0 {
				return false
			}
		}
	}
	return true
}

func fill(grid *[NumCells]byte, col, row, w, h int, label byte) {
	for y := row; y < row+h; y++ {
		for x := col; x < col+w; x++ {
			grid[CellAt(x, y)] = label
		}
	}
}

// RandomIrregular returns a random irregular layout within 10×10: the 17
// panels, each turned at random, laid one by one edge to edge against those
// already down, favouring places where a panel touches more of them. The
// same seed gives the same layout on every machine.
func RandomIrregular(seed uint64) *Layout {
	r := NewRand(seed)
	for {
		if l := irregular(&r); l != nil {
			return l
		}
	}
}

type placement struct{ col, row, w, h, weight int }

// irregular tries once to lay the panels; it returns nil on a dead end.
func irregular(r *Rand) *Layout {
	order := panelShapes
	for i := len(order) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		order[i], order[j] = order[j], order[i]
	}
	var grid [NumCells]byte
	minC, minR, maxC, maxR := MaxSide, MaxSide, -1, -1
	var options []placement
	for i, s := range order {
		label := byte('a' + i)
		options = options[:0]
		total := 0
		for _, o := range [2][2]int{{s[0], s[1]}, {s[1], s[0]}} {
			w, h := o[0], o[1]
			if w == h && o != s {
				continue
			}
			for row := 0; row+h <= MaxSide; row++ {
				for col := 0; col+w <= MaxSide; col++ {
					if i > 0 && (max(maxC, col+w-1)-min(minC, col) >= MaxSide || max(maxR, row+h-1)-min(minR, row) >= MaxSide) {
						continue
					}
					if !fits(&grid, col, row, w, h, MaxSide) {
						continue
					}
					weight := 1
					if i > 0 {
						weight = contact(&grid, col, row, w, h)
						weight *= weight
					}
					if weight > 0 {
						options = append(options, placement{col, row, w, h, weight})
						total += weight
					}
				}
			}
		}
		if total == 0 {
			return nil
		}
		pick := r.intn(total)
		var p placement
		for _, p = range options {
			if pick -= p.weight; pick < 0 {
				break
			}
		}
		fill(&grid, p.col, p.row, p.w, p.h, label)
		minC, minR = min(minC, p.col), min(minR, p.row)
		maxC, maxR = max(maxC, p.col+p.w-1), max(maxR, p.row+p.h-1)
	}
	// Move the shape to the top-left corner.
	var moved [NumCells]byte
	for row := minR; row <= maxR; row++ {
		for col := minC; col <= maxC; col++ {
			moved[CellAt(col-minC, row-minR)] = grid[CellAt(col, row)]
		}
	}
	l, err := newLayout(&moved, maxC-minC+1, maxR-minR+1)
	if err != nil {
		panic("engine: random irregular layout is invalid: " + err.Error())
	}
	return l
}

// contact counts the cell edges a w×h panel at col, row shares with panels
// already on the grid.
func contact(grid *[NumCells]byte, col, row, w, h int) int {
	n := 0
	covered := func(x, y int) bool {
		return x >= 0 && y >= 0 && x < MaxSide && y < MaxSide && grid[CellAt(x, y)] != 0
	}
	for x := col; x < col+w; x++ {
		if covered(x, row-1) {
			n++
		}
		if covered(x, row+h) {
			n++
		}
	}
	for y := row; y < row+h; y++ {
		if covered(col-1, y) {
			n++
		}
		if covered(col+w, y) {
			n++
		}
	}
	return n
}
