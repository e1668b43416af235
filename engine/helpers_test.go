package engine

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// update rewrites the golden files under testdata/ instead of comparing:
// go test ./engine -run TestGolden -update
var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// IrregularExample is the irregular layout of RECORD.md.
const irregularExample = ".aaa.bb.../cccddbbeee/cccdd..ff./...gg..ff./hiiggjjkk./hiigg.lkkm/hiinnnlo.m/....pppo../....pppqq./.......qq."

// mustLayout parses a layout string that the test knows to be valid.
func mustLayout(tb testing.TB, s string) *Layout {
	tb.Helper()
	l, err := ParseLayout(s)
	require.NoError(tb, err, "layout %q", s)
	return l
}

// mustCell parses a coordinate that the test knows to be valid.
func mustCell(tb testing.TB, s string) Cell {
	tb.Helper()
	c, err := ParseCell(s)
	require.NoError(tb, err, "cell %q", s)
	return c
}

// mustHole returns the hole of layout l at the coordinate s.
func mustHole(tb testing.TB, l *Layout, s string) Hole {
	tb.Helper()
	h, ok := l.HoleAt(mustCell(tb, s))
	require.True(tb, ok, "%s is not a hole of %s", s, l)
	return h
}

// mustPlay plays moves from p, each of which the test knows to be legal.
func mustPlay(tb testing.TB, p *Position, moves ...string) {
	tb.Helper()
	for i, m := range moves {
		require.NoError(tb, p.PlayMove(m), "move %d (%s)", p.Ply()+1, moves[i])
	}
}

// mustBoard returns a position on layout l with the marbles of diagram set
// directly, with no regard to the order of play: one line per row of l
// (leading and trailing blank lines and indentation are ignored), one
// character per column, 'R' for red, 'B' for black and '.' for an empty
// hole or a gap. No marble is the last placed, and Red began.
func mustBoard(tb testing.TB, l *Layout, diagram string) Position {
	tb.Helper()
	rows := strings.Split(strings.TrimSpace(diagram), "\n")
	require.Len(tb, rows, l.Height(), "the diagram must have a line per row")
	p := NewPosition(l, Red)
	for r, row := range rows {
		row = strings.TrimSpace(row)
		require.Len(tb, row, l.Width(), "row %d of the diagram", r+1)
		for col := 0; col < len(row); col++ {
			c := CellAt(col, r)
			if row[col] == '.' {
				continue
			}
			h, ok := l.HoleAt(c)
			require.True(tb, ok, "the diagram puts a marble on the gap %s", c)
			switch row[col] {
			case 'R':
				p.stones[Red] |= 1 << h
			case 'B':
				p.stones[Black] |= 1 << h
			default:
				require.Failf(tb, "bad diagram", "%q at %s; use R, B or '.'", row[col], c)
			}
		}
	}
	p.ply = uint8(p.Occupied().Len())
	return p
}

// cells returns the holes of mask as sorted coordinates.
func cells(l *Layout, s Holes) []string {
	var out []string
	for _, c := range s.Cells(l) {
		out = append(out, c.String())
	}
	return out
}

// reasonCode returns the reason code of a rule error, "" for nil, and fails
// the test for any other error.
func reasonCode(tb testing.TB, err error) string {
	if err == nil {
		return ""
	}
	var re *RuleError
	if !errors.As(err, &re) {
		tb.Helper()
		require.Failf(tb, "not a rule error", "%v (%T)", err, err)
	}
	return re.Code
}

// golden compares got with the file testdata/name, or rewrites the file
// with -update.
func golden(tb testing.TB, name, got string) {
	tb.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(tb, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(tb, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(tb, err, "run go test ./engine -update to create it")
	assert.Equal(tb, string(want), got, "%s differs; if the change is intended, rerun with -update", path)
}
