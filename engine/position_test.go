package engine

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ruleErrors are the sentinels in the order RULES.md checks them, with
// their reason codes.
var ruleErrors = []struct {
	err  *RuleError
	code string
}{
	{ErrGameOver, "game-over"},
	{ErrSyntax, "syntax"},
	{ErrOffBoard, "off-board"},
	{ErrOccupied, "occupied"},
	{ErrNotInLine, "not-in-line"},
	{ErrSamePanel, "same-panel"},
	{ErrPreviousPanel, "previous-panel"},
}

// sentinel returns the rule error with reason code code.
func sentinel(code string) *RuleError {
	for _, e := range ruleErrors {
		if e.code == code {
			return e.err
		}
	}
	panic("no rule error " + code)
}

func TestRuleErrors(t *testing.T) {
	for _, tt := range ruleErrors {
		t.Run(tt.code, func(t *testing.T) {
			assert.Equal(t, tt.code, tt.err.Code)
			assert.NotEmpty(t, tt.err.Error())
			assert.Equal(t, tt.err.Message, tt.err.Error())
			wrapped := fmt.Errorf("game 7: %w", tt.err)
			assert.ErrorIs(t, wrapped, tt.err)
			assert.Equal(t, tt.code, reasonCode(t, wrapped))
		})
	}
}

// TestPlayMove checks every reason code, and that the first rule broken in
// the order of RULES.md names the reason. The layouts are drawn in the
// comments: a letter is a panel, '.' a gap.
func TestPlayMove(t *testing.T) {
	//    A B C D E F G H
	// 1  a a b c c d e e
	// 2  a a b c c d e e
	// 3  a a b f f f e e
	// 4  g h h i i j j k
	// 5  g h h i i j j k
	// 6  l l m m m n o o
	// 7  l l p q q n o o
	// 8  l l p q q n o o
	square := Square()
	//    A B C D E F G H I J
	// 1  . a a a . b b . . .
	// 2  c c c d d b b e e e
	// 3  c c c d d . . f f .
	// 4  . . . g g . . f f .
	// 5  h i i g g j j k k .
	// 6  h i i g g . l k k m
	// 7  h i i n n n l o . m
	// 8  . . . . p p p o . .
	// 9  . . . . p p p q q .
	// 10 . . . . . . . q q .
	irregular := mustLayout(t, irregularExample)

	tests := []struct {
		name   string
		layout *Layout
		before string // moves already played
		move   string
		want   string // reason code, or "" for a legal move
	}{
		// Move 1: any hole.
		{"first move anywhere", square, "", "D4", ""},
		{"first move in lower case", square, "", "d4", ""},
		{"first move in a corner", square, "", "H8", ""},
		{"not a coordinate", square, "", "zz", "syntax"},
		{"row 0", square, "", "A0", "syntax"},
		{"row 11", square, "", "A11", "syntax"},
		{"column K", square, "", "K1", "syntax"},
		{"spaces", square, "", " D4", "syntax"},
		{"empty move", square, "", "", "syntax"},
		{"right of the layout", square, "", "I1", "off-board"},
		{"below the layout", square, "", "A9", "off-board"},
		{"far corner of the grid", square, "", "J10", "off-board"},
		{"a gap", irregular, "", "A1", "off-board"},
		{"a gap inside the layout", irregular, "", "F6", "off-board"},

		// Move 2: in the row or column of D4 (panel i), not on panel i.
		{"same column, far", square, "D4", "D1", ""},
		{"same column, down", square, "D4", "D8", ""},
		{"same row, far right", square, "D4", "H4", ""},
		{"same row, left", square, "D4", "A4", ""},
		{"occupied", square, "D4", "D4", "occupied"},
		{"occupied beats not in line", square, "D4 D1 A1", "D4", "occupied"},
		{"the last marble's own hole", square, "D4 D1", "D1", "occupied"},
		{"diagonal", square, "D4", "F6", "not-in-line"},
		{"knight's move", square, "D4", "F7", "not-in-line"},
		{"not in line beats same panel", square, "D4", "E5", "not-in-line"},
		{"same panel, same row", square, "D4", "E4", "same-panel"},
		{"same panel, same column", square, "D4", "D5", "same-panel"},
		{"off-board beats not in line", square, "D4", "I5", "off-board"},
		{"off-board in the row", square, "D4", "I4", "off-board"},
		{"syntax after a move", square, "D4", "D 1", "syntax"},

		// Move 3: not on panel c of D1 either, nor on panel i of D4.
		{"move 3 same panel", square, "D4 D1", "E1", "same-panel"},
		{"move 3 same panel in the column", square, "D4 D1", "D2", "same-panel"},
		{"move 3 previous panel", square, "D4 D1", "D5", "previous-panel"},
		{"occupied beats previous panel", square, "D4 D1", "D4", "occupied"},
		{"move 3 across an occupied hole", square, "D4 D1", "D8", ""},
		{"move 3 along the row", square, "D4 D1", "A1", ""},
		{"move 3 row end", square, "D4 D1", "H1", ""},
		{"move 3 not in line beats previous panel", square, "D4 D1", "E5", "not-in-line"},

		// Move 4: last A1 (panel a), previous D1 (panel c); panel i is open again.
		{"move 4 previous panel", square, "D4 D1 A1", "E1", "previous-panel"},
		{"move 4 same panel", square, "D4 D1 A1", "B1", "same-panel"},
		{"move 4 next panel", square, "D4 D1 A1", "C1", ""},
		{"move 4 down the column", square, "D4 D1 A1", "A4", ""},
		{"move 4 occupied", square, "D4 D1 A1", "D1", "occupied"},

		// Move 5: last A4 (panel g), previous A1 (panel a).
		{"panel of move 1 open again", square, "D4 D1 A1 A4", "E4", ""},
		{"move 5 previous panel", square, "D4 D1 A1 A4", "A2", "previous-panel"},
		{"move 5 same panel", square, "D4 D1 A1 A4", "A5", "same-panel"},
		{"move 5 past an occupied hole", square, "D4 D1 A1 A4", "H4", ""},
		// Move 6: last E4 (panel i), previous A4 (panel g); panel c of move 2 is open.
		{"panel of move 2 open again", square, "D4 D1 A1 A4 E4", "E1", ""},

		// Rows and columns run on across gaps, at any distance.
		{"across a gap in the row", irregular, "B1", "F1", ""},
		{"across a gap in the column", irregular, "B1", "B6", ""},
		{"gap in the row", irregular, "B1", "E1", "off-board"},
		{"gap at the row's end", irregular, "B1", "J1", "off-board"},
		{"gap in the column", irregular, "B1", "B10", "off-board"},
		{"same panel across the layout", irregular, "B1", "C1", "same-panel"},
		{"across a gap, distance 9", irregular, "J6", "A6", ""},
		{"across three gaps", irregular, "J6", "J2", ""},
		{"gap beats not in line", irregular, "J6", "I7", "off-board"},
		{"not in line on an irregular layout", irregular, "J6", "H7", "not-in-line"},
		{"previous panel across gaps", irregular, "J6 J2", "J7", "previous-panel"},
		{"move 3 across gaps", irregular, "J6 J2", "A2", ""},
		{"move 3 same panel", irregular, "J6 J2", "H2", "same-panel"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := NewPosition(tt.layout, Red)
			mustPlay(t, &p, strings.Fields(tt.before)...)
			before := p
			err := p.PlayMove(tt.move)
			require.Equal(t, tt.want, reasonCode(t, err), "%s after %q", tt.move, tt.before)
			if tt.want != "" {
				assert.Equal(t, before, p, "a refused move leaves the position alone")
				assert.ErrorIs(t, err, sentinel(tt.want))
				if tt.want == "syntax" {
					assert.EqualError(t, err, fmt.Sprintf("%q: %s", tt.move, ErrSyntax.Message), "the message quotes the move")
				}
			} else {
				assert.Equal(t, before.Ply()+1, p.Ply())
				last, prev := p.Last()
				assert.Equal(t, strings.ToUpper(tt.move), tt.layout.Cell(last).String())
				want, _ := before.Last()
				assert.Equal(t, want, prev)
			}
			// Check gives the same answer for every move that is a coordinate.
			if c, perr := ParseCell(tt.move); perr == nil {
				assert.Equal(t, tt.want, reasonCode(t, before.Check(c)), "Check(%s)", c)
				assert.Equal(t, tt.want == "", before.Legal()&bitAt(tt.layout, c) != 0, "Legal holds %s", c)
			}
		})
	}
}

// bitAt returns the bit of the hole at c, or 0 for a gap or off the layout.
func bitAt(l *Layout, c Cell) Holes {
	if h, ok := l.HoleAt(c); ok {
		return 1 << h
	}
	return 0
}

// legalByRules returns the holes the player to move may play, found from
// the rules rather than from Legal: empty holes in the row or column of
// the last marble, on neither its panel nor the panel of the one before.
func legalByRules(p *Position) Holes {
	l := p.Layout()
	last, prev := p.Last()
	var m Holes
	for h := Hole(0); h < NumHoles; h++ {
		if _, taken := p.At(h); taken {
			continue
		}
		if last != NoHole {
			c, lc := l.Cell(h), l.Cell(last)
			if c.Row() != lc.Row() && c.Col() != lc.Col() || l.PanelOf(h) == l.PanelOf(last) {
				continue
			}
			if prev != NoHole && l.PanelOf(h) == l.PanelOf(prev) {
				continue
			}
		}
		m |= 1 << h
	}
	return m
}

// seededGame plays a uniformly random game with the generator seeded with
// seed, checking every move, and returns the end position and the moves.
func seededGame(tb testing.TB, l *Layout, first Color, seed uint64) (Position, []string) {
	tb.Helper()
	p := NewPosition(l, first)
	r := NewRand(seed)
	var moves []string
	for !p.IsOver() {
		m := l.Cell(r.Pick(p.Legal())).String()
		require.NoError(tb, p.PlayMove(m))
		moves = append(moves, m)
	}
	return p, moves
}

// findGame returns the first seeded game from seed 0 on that satisfies ok.
func findGame(tb testing.TB, l *Layout, ok func(p *Position) bool) (Position, []string) {
	tb.Helper()
	for seed := uint64(0); seed < 1000; seed++ {
		if p, moves := seededGame(tb, l, Red, seed); ok(&p) {
			return p, moves
		}
	}
	require.FailNow(tb, "no game found in 1000 seeds")
	return Position{}, nil
}

// assertGameOver checks that every move is refused with game-over.
func assertGameOver(t *testing.T, p Position) {
	t.Helper()
	require.True(t, p.IsOver())
	assert.Zero(t, p.Legal())
	for _, m := range []string{"zz", "", "A0", "K1", "D4", "d4"} {
		assert.ErrorIs(t, p.PlayMove(m), ErrGameOver, "move %q", m)
	}
	for c := Cell(0); c < NumCells; c++ {
		assert.ErrorIs(t, p.Check(c), ErrGameOver, "Check(%s)", c)
	}
}

func TestGameEndsEarly(t *testing.T) {
	for _, l := range []*Layout{Square(), mustLayout(t, irregularExample)} {
		t.Run(l.String(), func(t *testing.T) {
			p, moves := findGame(t, l, func(p *Position) bool { return p.Ply() < MaxPly })
			require.Len(t, moves, p.Ply())
			assert.Zero(t, legalByRules(&p), "the player to move has no hole")
			assert.Positive(t, p.MarblesLeft(p.ToMove()), "but has marbles left")
			assertGameOver(t, p)

			// One move earlier the game was not over.
			q := NewPosition(l, Red)
			mustPlay(t, &q, moves[:len(moves)-1]...)
			assert.False(t, q.IsOver())
			assert.NotZero(t, q.Legal())
		})
	}
}

func TestGameEndsWhenAllMarblesArePlaced(t *testing.T) {
	// A full game after which the rules alone would still allow a hole:
	// the game ends because the marbles are used up.
	p, moves := findGame(t, Square(), func(p *Position) bool {
		return p.Ply() == MaxPly && legalByRules(p) != 0
	})
	require.Len(t, moves, 56)
	assert.Equal(t, 28, p.Stones(Red).Len())
	assert.Equal(t, 28, p.Stones(Black).Len())
	assert.Zero(t, p.MarblesLeft(Red))
	assert.Zero(t, p.MarblesLeft(Black))
	assert.Equal(t, 8, NumHoles-p.Occupied().Len())
	assertGameOver(t, p)
	for _, c := range cells(Square(), legalByRules(&p)) {
		assert.ErrorIs(t, p.PlayMove(c), ErrGameOver, "%s would be in line, but there are no marbles left", c)
	}
}

func TestPositionAccessors(t *testing.T) {
	l := Square()
	p := NewPosition(l, Black)
	assert.Same(t, l, p.Layout())
	assert.Equal(t, Black, p.First())
	assert.Equal(t, Black, p.ToMove())
	assert.Zero(t, p.Ply())
	last, prev := p.Last()
	assert.Equal(t, NoHole, last)
	assert.Equal(t, NoHole, prev)
	assert.Equal(t, ^Holes(0), p.Legal(), "move 1 may go anywhere")
	assert.False(t, p.IsOver())

	mustPlay(t, &p, "D4", "D1", "A1")
	d4, d1, a1 := mustHole(t, l, "D4"), mustHole(t, l, "D1"), mustHole(t, l, "A1")
	assert.Equal(t, 3, p.Ply())
	assert.Equal(t, Red, p.ToMove())
	last, prev = p.Last()
	assert.Equal(t, a1, last)
	assert.Equal(t, d1, prev)
	assert.Equal(t, Holes(1)<<d4|1<<a1, p.Stones(Black))
	assert.Equal(t, Holes(1)<<d1, p.Stones(Red))
	assert.Equal(t, p.Stones(Red)|p.Stones(Black), p.Occupied())
	assert.Equal(t, 26, p.MarblesLeft(Black))
	assert.Equal(t, 27, p.MarblesLeft(Red))
	for _, tt := range []struct {
		hole  Hole
		color Color
		ok    bool
	}{{d4, Black, true}, {d1, Red, true}, {a1, Black, true}, {mustHole(t, l, "H8"), 0, false}} {
		c, ok := p.At(tt.hole)
		assert.Equal(t, tt.ok, ok, "hole %s", l.Cell(tt.hole))
		assert.Equal(t, tt.color, c, "hole %s", l.Cell(tt.hole))
	}
	assert.Equal(t, []string{"C1", "F1", "G1", "H1", "A4", "A5", "A6", "A7", "A8"}, cells(l, p.Legal()))
}

func TestApplyRevert(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		l := RandomIrregular(seed)
		p, moves := seededGame(t, l, Color(seed&1), seed)

		// Apply the same moves unchecked, then take them all back.
		q := NewPosition(l, Color(seed&1))
		history := []Position{q}
		var undos []Undo
		for _, m := range moves {
			undos = append(undos, q.Apply(mustHole(t, l, m)))
			history = append(history, q)
		}
		require.Equal(t, p, q, "seed %d: Apply plays as PlayMove does", seed)
		for i := len(undos) - 1; i >= 0; i-- {
			q.Revert(undos[i])
			require.Equal(t, history[i], q, "seed %d: revert move %d", seed, i+1)
		}
	}
}

// gamePositions returns every position of n seeded random games on l.
func gamePositions(tb testing.TB, l *Layout, n int) []Position {
	tb.Helper()
	var out []Position
	for seed := range uint64(n) {
		p := NewPosition(l, Red)
		r := NewRand(seed)
		for !p.IsOver() {
			out = append(out, p)
			p.Apply(r.Pick(p.Legal()))
		}
		out = append(out, p)
	}
	return out
}

// BenchmarkLegalMoves computes the legal holes of positions met in random
// games on the square layout, one position per operation.
func BenchmarkLegalMoves(b *testing.B) {
	positions := gamePositions(b, Square(), 100)
	var sink Holes
	i := 0
	for b.Loop() {
		sink ^= positions[i%len(positions)].Legal()
		i++
	}
	if sink == 1 {
		b.Log(sink) // keeps sink alive
	}
}
