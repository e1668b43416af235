package engine

import "strconv"

// MaxSide is the largest width and height of a layout.
const MaxSide = 10

// Cell is a square of the 10×10 grid on which panels lie: column A–J from
// left to right, row 1–10 from top to bottom, so A1 is the top-left cell.
// Its value is row*10 + column, counting from zero.
type Cell uint8

// NumCells is the number of cells of the grid.
const NumCells = MaxSide * MaxSide

// CellAt returns the cell in column col and row row, counting from zero.
func CellAt(col, row int) Cell { return Cell(row*MaxSide + col) }

// Col returns the column of c, counting from zero (A is 0).
func (c Cell) Col() int { return int(c) % MaxSide }

// Row returns the row of c, counting from zero (row 1 is 0).
func (c Cell) Row() int { return int(c) / MaxSide }

// String returns the coordinate of c, such as "A1" or "J10".
func (c Cell) String() string {
	if c >= NumCells {
		return "Cell(" + strconv.Itoa(int(c)) + ")"
	}
	return string(rune('A'+c.Col())) + strconv.Itoa(c.Row()+1)
}

// MarshalText writes the coordinate of c.
func (c Cell) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a coordinate as ParseCell does.
func (c *Cell) UnmarshalText(b []byte) error {
	v, err := ParseCell(string(b))
	if err != nil {
		return err
	}
	*c = v
	return nil
}

// ParseCell reads a coordinate: a column letter A–J (either case) followed by
// a row number 1–10 without leading zeros or spaces. Anything else returns
// an error that wraps ErrSyntax.
func ParseCell(s string) (Cell, error) {
	if len(s) < 2 || len(s) > 3 {
		return 0, syntaxError(s)
	}
	col := int(lower(s[0])) - 'a'
	if col < 0 || col >= MaxSide {
		return 0, syntaxError(s)
	}
	row := 0
	for i := 1; i < len(s); i++ {
		d := s[i]
		if d < '0' || d > '9' || (i == 1 && d == '0') {
			return 0, syntaxError(s)
		}
		row = row*10 + int(d-'0')
	}
	if row < 1 || row > MaxSide {
		return 0, syntaxError(s)
	}
	return CellAt(col, row-1), nil
}

// Hole is the number of a hole within one layout, from 0 to 63, counting
// the covered cells row by row from the top left. A Hole means nothing
// without its Layout.
type Hole uint8

// NumHoles is the number of holes of every layout.
const NumHoles = 64

// NoHole stands for "no hole", e.g. the last move before the first move.
const NoHole Hole = 0xff
