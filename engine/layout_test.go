package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseLayoutRefuses(t *testing.T) {
	// swap returns the square layout with the cells at the given positions
	// of SquareString replaced by b.
	swap := func(b byte, at ...int) string {
		s := []byte(SquareString)
		for _, i := range at {
			s[i] = b
		}
		return string(s)
	}
	tests := []struct {
		name, in string
		want     string // part of the message
	}{
		{"empty", "", "the layout string is empty"},
		{"empty first row", "/aab", "row 1 is empty"},
		{"empty middle row", "aab//aab", "row 2 has 0 cells but row 1 has 3"},
		{"trailing slash", SquareString + "/", "row 9 has 0 cells but row 1 has 8"},
		{"row of another width", "aab/aabc", "row 2 has 4 cells but row 1 has 3; all rows must have the same width"},
		{"shorter row", "aabccdee/aabccde", "row 2 has 7 cells but row 1 has 8"},
		{"11 rows", strings.Repeat("a/", 10) + "a", "11 rows, at most 10 are allowed"},
		{"11 columns", strings.Repeat("a", 11), "rows are 11 cells wide, at most 10 are allowed"},
		{"upper-case letter", strings.ToUpper(SquareString), `row 1 has "A"; only the letters a-z (panels) and '.' (gaps) are allowed`},
		{"digit", "aab1", `row 1 has "1"`},
		{"space", "aab/a b", `row 2 has " "`},
		{"non-ASCII", "aab/aéb", `row 2 has "é"`},
		{"bad byte in a long row", strings.Repeat("a", 12) + "#", `row 1 has "#"`},
		{"letter in two places", swap('g', 34, 43), `the cells of panel 'g' do not form one rectangle`},
		{"letter in an L", "aa/a.", `the cells of panel 'a' do not form one rectangle`},
		{"1×1 panel", swap('z', 2), `panel 'z' is 1×1; panels are 2×3, 2×2, 1×3 or 1×2 (either way round)`},
		{"1×4 panel", "aaaa", `panel 'a' is 4×1`},
		{"3×3 panel", "aaa/aaa/aaa", `panel 'a' is 3×3`},
		{"2×4 panel", "aa/aa/aa/aa", `panel 'a' is 2×4`},
		{"two panels", "aab/aab", "the panels are 0 of 6 holes, 1 of 4 holes, 0 of 3 holes, 1 of 2 holes; a board has 4 panels of 6 holes, 5 of 4, 4 of 3 and 4 of 2"},
		{"a 2×3 panel cut into two 1×3", swap('z', 1, 10, 19), "the panels are 3 of 6 holes, 5 of 4 holes, 6 of 3 holes, 4 of 2 holes"},
		{"gap instead of a panel", swap('.', 56, 65), "the panels are 4 of 6 holes, 5 of 4 holes, 4 of 3 holes, 3 of 2 holes"},
		{"two halves", "aabccdee/aabccdee/aabfffee/......../ghhiijjk/ghhiijjk/llmmmnoo/llpqqnoo/llpqqnoo", "the panels are not joined edge to edge into one group"},
		{"a panel touching by a corner only", "aabccdee./aabccdee./aabfffee./ghhiijj../ghhiijj../llmmmnoo./llpqqnoo./llpqqnoo./........k/........k", "the panels are not joined edge to edge into one group"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := ParseLayout(tt.in)
			require.ErrorIs(t, err, ErrLayout)
			assert.Nil(t, l)
			assert.True(t, strings.HasPrefix(err.Error(), "bad layout: "+tt.want), "got %q, want it to start with %q", err, "bad layout: "+tt.want)
		})
	}
}

// checkLayout checks what every layout must satisfy, by brute force over
// the cells of the grid rather than through the layout's masks.
func checkLayout(tb testing.TB, l *Layout) {
	tb.Helper()
	s := l.String()
	require.True(tb, l.Width() >= 1 && l.Width() <= MaxSide && l.Height() >= 1 && l.Height() <= MaxSide, "%s is %d×%d", s, l.Width(), l.Height())

	// The string is canonical and parses back to the same layout.
	back, err := ParseLayout(s)
	require.NoError(tb, err, s)
	require.True(tb, back.Equal(l), s)
	require.Equal(tb, s, back.String())
	next := byte('a')
	for i := 0; i < len(s); i++ {
		if b := s[i]; b >= 'a' && b <= 'z' && b >= next {
			require.Equal(tb, next, b, "%s: letters must appear in order", s)
			next++
		}
	}
	require.Equal(tb, byte('a'+NumPanels), next, "%s has 17 panels", s)

	// Holes are the covered cells, numbered row by row.
	h := Hole(0)
	for c := Cell(0); c < NumCells; c++ {
		got, ok := l.HoleAt(c)
		p, onPanel := l.PanelAt(c)
		inside := c.Col() < l.Width() && c.Row() < l.Height()
		covered := inside && s[c.Row()*(l.Width()+1)+c.Col()] != '.'
		require.Equal(tb, covered, ok, "%s: is %s a hole", s, c)
		require.Equal(tb, covered, onPanel, "%s: is %s on a panel", s, c)
		if !covered {
			require.Equal(tb, NoHole, got)
			continue
		}
		require.Equal(tb, h, got, "%s: hole at %s", s, c)
		require.Equal(tb, c, l.Cell(h))
		require.Equal(tb, int(s[c.Row()*(l.Width()+1)+c.Col()]-'a'), p, "%s: panel at %s", s, c)
		require.Equal(tb, p, l.PanelOf(h))
		require.True(tb, l.Panel(p).Contains(c), "%s: panel %d contains %s", s, p, c)
		h++
	}
	require.Equal(tb, Hole(NumHoles), h, "%s has 64 holes", s)
	_, ok := l.HoleAt(NumCells)
	require.False(tb, ok, "a cell beyond the grid is no hole")

	// Panels: rectangles of the allowed sizes whose masks partition the holes.
	var union uint64
	var sizes [7]int
	for i := 0; i < NumPanels; i++ {
		pn, m := l.Panel(i), l.PanelHoles(i)
		require.Zero(tb, union&uint64(m), "%s: panel %d overlaps another", s, i)
		union |= uint64(m)
		require.Equal(tb, pn.Size(), m.Len(), "%s: panel %d", s, i)
		for h := range m.All() {
			require.True(tb, pn.Contains(l.Cell(h)))
		}
		sizes[pn.Size()]++
	}
	require.Equal(tb, ^uint64(0), union, s)
	require.Equal(tb, [7]int{2: 4, 3: 4, 4: 5, 6: 4}, sizes, s)

	// The line mask is the rest of the row and the column, across gaps.
	for h := Hole(0); h < NumHoles; h++ {
		var want Holes
		for o := Hole(0); o < NumHoles; o++ {
			if o != h && (l.Cell(o).Row() == l.Cell(h).Row() || l.Cell(o).Col() == l.Cell(h).Col()) {
				want |= 1 << o
			}
		}
		require.Equal(tb, cells(l, want), cells(l, Holes(l.lineMask[h])), "%s: line of %s", s, l.Cell(h))
	}

	// The panels are edge-connected: flood the covered cells of the string.
	seen := map[Cell]bool{l.Cell(0): true}
	stack := []Cell{l.Cell(0)}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			col, row := c.Col()+d[0], c.Row()+d[1]
			if col < 0 || row < 0 || col >= l.Width() || row >= l.Height() {
				continue
			}
			if n := CellAt(col, row); !seen[n] && s[row*(l.Width()+1)+col] != '.' {
				seen[n] = true
				stack = append(stack, n)
			}
		}
	}
	require.Len(tb, seen, NumHoles, "%s: the panels form one group", s)
}

func TestParseLayout(t *testing.T) {
	tests := []struct {
		name, in, canonical string
		width, height       int
	}{
		{"square", SquareString, SquareString, 8, 8},
		{"irregular example", irregularExample, irregularExample, 10, 10},
		// The letters of the square reversed: z for a, y for b, ….
		{"renamed square", "zzyxxwvv/zzyxxwvv/zzyuuuvv/tssrrqqp/tssrrqqp/oonnnmll/ookjjmll/ookjjmll", SquareString, 8, 8},
		// A panel moved from H4 to I7, still touching its neighbour edge to edge.
		{"moved panel", "aabccdee./aabccdee./aabfffee./ghhiijj../ghhiijj../llmmmnoo./llpqqnook/llpqqnook",
			"aabccdee./aabccdee./aabfffee./ghhiijj../ghhiijj../kklllmnn./kkoppmnnq/kkoppmnnq", 9, 8},
		{"gap rows and columns at the edge", "." + strings.ReplaceAll(SquareString, "/", "/.") + "/.........",
			"." + strings.ReplaceAll(SquareString, "/", "/.") + "/.........", 9, 9},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := ParseLayout(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.canonical, l.String())
			assert.Equal(t, tt.width, l.Width())
			assert.Equal(t, tt.height, l.Height())
			checkLayout(t, l)
		})
	}
}

func TestSquare(t *testing.T) {
	l := Square()
	assert.Equal(t, SquareString, l.String())
	assert.True(t, l.IsSquare())
	checkLayout(t, l)

	// Turned by 180°, every panel lands on a panel of the same layout.
	rotated := map[Panel]bool{}
	for i := 0; i < NumPanels; i++ {
		p := l.Panel(i)
		rotated[Panel{Col: 8 - p.Col - p.Width, Row: 8 - p.Row - p.Height, Width: p.Width, Height: p.Height}] = true
	}
	for i := 0; i < NumPanels; i++ {
		assert.True(t, rotated[l.Panel(i)], "panel %d %+v is the image of a panel", i, l.Panel(i))
	}

	// A 2×2 panel covers the four centre cells D4, E4, D5, E5.
	p, ok := l.PanelAt(mustCell(t, "D4"))
	require.True(t, ok)
	assert.Equal(t, Panel{Col: 3, Row: 3, Width: 2, Height: 2}, l.Panel(p))
}

func TestIsSquare(t *testing.T) {
	assert.False(t, mustLayout(t, irregularExample).IsSquare())
	assert.True(t, RandomSquare(1).IsSquare())
}

func TestLayoutText(t *testing.T) {
	text, err := Square().MarshalText()
	require.NoError(t, err)
	assert.Equal(t, SquareString, string(text))

	var l Layout
	require.NoError(t, l.UnmarshalText([]byte(irregularExample)))
	assert.True(t, l.Equal(mustLayout(t, irregularExample)))

	err = l.UnmarshalText([]byte("aab/aab"))
	require.ErrorIs(t, err, ErrLayout)
	assert.Equal(t, irregularExample, l.String(), "a failed UnmarshalText leaves the layout alone")
}

func TestLayoutEqual(t *testing.T) {
	sq := mustLayout(t, SquareString)
	assert.True(t, sq.Equal(Square()))
	assert.True(t, Square().Equal(sq))
	assert.False(t, sq.Equal(mustLayout(t, irregularExample)))
	assert.False(t, sq.Equal(RandomSquare(1)), "same size, other panels")
	// The same panels shifted one column right are another layout.
	shifted := mustLayout(t, "."+strings.ReplaceAll(SquareString, "/", "/."))
	assert.False(t, sq.Equal(shifted))
}

func TestPanel(t *testing.T) {
	p := Panel{Col: 1, Row: 2, Width: 2, Height: 3}
	assert.Equal(t, 6, p.Size())
	for _, in := range []string{"B3", "C3", "B5", "C5"} {
		assert.True(t, p.Contains(mustCell(t, in)), in)
	}
	for _, in := range []string{"A3", "D3", "B2", "B6", "J10"} {
		assert.False(t, p.Contains(mustCell(t, in)), in)
	}
}

// FuzzParseLayout checks that a layout string that parses is a panel
// renaming of its canonical form, which parses to the same layout, and
// that every other string is refused with ErrLayout.
func FuzzParseLayout(f *testing.F) {
	for _, s := range []string{
		SquareString, irregularExample,
		"zzyxxwvv/zzyxxwvv/zzyuuuvv/tssrrqqp/tssrrqqp/oonnnmll/ookjjmll/ookjjmll",
		"aabccdee./aabccdee./aabfffee./ghhiijj../ghhiijj../llmmmnoo./llpqqnook/llpqqnook",
		RandomSquare(1).String(), RandomIrregular(1).String(), RandomIrregular(2).String(),
		"", "/", "aab/aab", "aa/a.", "aaa/aaa/aaa", strings.Repeat("a", 11),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLayout(s)
		if err != nil {
			require.ErrorIs(t, err, ErrLayout)
			require.Nil(t, l)
			return
		}
		c := l.String()
		require.Len(t, c, len(s), "the canonical form has the shape of the input")
		rename := map[byte]byte{}
		for i := 0; i < len(s); i++ {
			if s[i] == '.' || s[i] == '/' {
				require.Equal(t, s[i], c[i], "%q at %d", s, i)
				continue
			}
			if to, ok := rename[s[i]]; ok {
				require.Equal(t, to, c[i], "panel %q is renamed consistently", s[i])
			}
			rename[s[i]] = c[i]
		}
		require.Len(t, rename, NumPanels)
		renamed := map[byte]bool{}
		for _, to := range rename {
			renamed[to] = true
		}
		require.Len(t, renamed, NumPanels, "no two panels get the same name")
		checkLayout(t, l)
	})
}

func TestMustParseLayout(t *testing.T) {
	assert.True(t, MustParseLayout(irregularExample).Equal(mustLayout(t, irregularExample)))
	assert.PanicsWithError(t, "bad layout: the layout string is empty", func() { MustParseLayout("") })
}
