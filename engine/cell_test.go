package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseCell(t *testing.T) {
	valid := []struct {
		in       string
		col, row int
	}{
		{"A1", 0, 0},
		{"a1", 0, 0},
		{"D4", 3, 3},
		{"d4", 3, 3},
		{"J1", 9, 0},
		{"A10", 0, 9},
		{"J10", 9, 9},
		{"j10", 9, 9},
		{"E7", 4, 6},
	}
	for _, tt := range valid {
		t.Run(tt.in, func(t *testing.T) {
			c, err := ParseCell(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.col, c.Col(), "column")
			assert.Equal(t, tt.row, c.Row(), "row")
			assert.Equal(t, strings.ToUpper(tt.in), c.String())
		})
	}

	invalid := []string{
		"",     // empty
		"A",    // no row
		"1",    // no column
		"A0",   // row 0
		"K1",   // column after J
		"k1",   // column after j
		"A11",  // row after 10
		"A01",  // leading zero
		"A00",  // zeros
		" A1",  // leading space
		"A1 ",  // trailing space
		"1A",   // row first
		"AA1",  // two letters
		"A-1",  // sign
		"A+1",  // sign
		"A100", // too long
		"@1",   // the byte before 'A'
		"`1",   // the byte before 'a'
		"Ä1",   // not ASCII
		"A１",   // full-width digit
		"A\x001",
	}
	for _, in := range invalid {
		t.Run(in, func(t *testing.T) {
			_, err := ParseCell(in)
			require.ErrorIs(t, err, ErrSyntax)
			assert.Equal(t, "syntax", reasonCode(t, err))
			assert.Contains(t, err.Error(), "like D4", "the message says what a move looks like")
		})
	}
}

func TestCellStringRoundTrip(t *testing.T) {
	for c := Cell(0); c < NumCells; c++ {
		s := c.String()
		back, err := ParseCell(s)
		require.NoError(t, err, s)
		assert.Equal(t, c, back, s)
		assert.Equal(t, c, CellAt(c.Col(), c.Row()), s)

		text, err := c.MarshalText()
		require.NoError(t, err)
		var u Cell
		require.NoError(t, u.UnmarshalText(text))
		assert.Equal(t, c, u, s)
	}
	assert.Equal(t, "Cell(100)", Cell(NumCells).String())

	var u Cell = 42
	require.ErrorIs(t, u.UnmarshalText([]byte("K1")), ErrSyntax)
	assert.Equal(t, Cell(42), u, "a failed UnmarshalText leaves the cell alone")
}

func FuzzParseCell(f *testing.F) {
	for _, s := range []string{"A1", "d4", "J10", "A0", "K1", "A11", "A01", " A1", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCell(s)
		if err != nil {
			require.ErrorIs(t, err, ErrSyntax)
			return
		}
		require.Less(t, int(c), NumCells)
		// The only freedom in a coordinate is the case of its letter.
		assert.Equal(t, strings.ToUpper(s), c.String())
	})
}
