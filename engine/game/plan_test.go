package game_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

// mustLine returns a line of len(choices) replies from p: at each move
// of the opponent their legal hole number choices[i], and the first legal
// hole as each reply.
func mustLine(tb testing.TB, p engine.Position, choices ...int) game.Line {
	tb.Helper()
	var l game.Line
	for _, i := range choices {
		legal := p.Legal().Cells(p.Layout())
		require.Greater(tb, len(legal), i)
		require.NoError(tb, p.Play(legal[i]))
		c := firstLegal(p)
		require.NoError(tb, p.Play(c))
		l = append(l, legal[i], c)
	}
	return l
}

// mustPlanned returns a game in which alice (red) moved and planned n
// lines of depth replies, each a different choice of bob's moves.
func mustPlanned(tb testing.TB, n, depth int) (*game.Game, []game.Line) {
	tb.Helper()
	g := mustNew(tb)
	play(tb, g, t0)
	lines := make([]game.Line, n)
	for i := range lines {
		choices := make([]int, depth)
		choices[0] = i % 10
		if depth > 1 {
			choices[1] = i / 10
		}
		lines[i] = mustLine(tb, g.Position(), choices...)
	}
	require.NoError(tb, g.SetPlan(red, lines, t0))
	return g, lines
}

func TestPlanReply(t *testing.T) {
	g, lines := mustPlanned(t, 3, 2)
	assert.Equal(t, lines, g.Plan(red), "the owner sees their plan")
	assert.Nil(t, g.Plan(black), "bob has none")
	assert.Nil(t, g.PlanLog(), "plans are private while the game goes on")

	now := t0.Add(time.Hour)
	turn, err := g.PlayTurn(black, g.Ply(), lines[1][0], now)
	require.NoError(t, err)
	assert.Equal(t, game.Turn{Reply: lines[1][1], Planned: true}, turn)
	moves := g.Moves()
	require.Len(t, moves, 3)
	assert.Equal(t, game.Move{Cell: lines[1][0], At: now}, moves[1])
	assert.Equal(t, game.Move{Cell: lines[1][1], At: now, Planned: true}, moves[2], "the reply is played at once, marked planned")
	assert.Equal(t, black, g.ToMove())
	assert.True(t, g.Deadline().Equal(now.Add(moveTime)), "bob's clock runs from the reply")
	assert.Equal(t, []game.Line{lines[1][2:]}, g.Plan(red), "the rest of the line stands")
	restored(t, g)

	// Bob's next move is not the one planned: the plan is dropped.
	turn, err = g.PlayTurn(black, g.Ply(), otherThan(g.Position(), lines[1][2]), now)
	require.NoError(t, err)
	assert.Equal(t, game.Turn{}, turn)
	assert.Nil(t, g.Plan(red))

	require.NoError(t, g.Resign(red, now))
	log := g.PlanLog()
	require.Len(t, log, 1, "the plan as it was set, for review and export")
	assert.Equal(t, game.Plan{By: red, Ply: 1, At: t0, Lines: lines}, log[0])
}

// otherThan returns the first legal hole of p that is none of cs.
func otherThan(p engine.Position, cs ...engine.Cell) engine.Cell {
	for _, h := range p.Legal().Cells(p.Layout()) {
		if !slices.Contains(cs, h) {
			return h
		}
	}
	panic("no other legal hole")
}

func TestPlanNotPlayedIsDropped(t *testing.T) {
	g, lines := mustPlanned(t, 2, 1)
	turn, err := g.PlayTurn(black, g.Ply(), otherThan(g.Position(), lines[0][0], lines[1][0]), t0)
	require.NoError(t, err)
	assert.Equal(t, game.Turn{}, turn)
	assert.Nil(t, g.Plan(red))
	assert.Equal(t, red, g.ToMove())
}

func TestPlanIllegalReplyDroppedWithANote(t *testing.T) {
	// A plan read back whose reply is not legal (the rules changed since
	// it was set): the line is dropped when its move comes, with a note.
	g, lines := mustPlanned(t, 1, 1)
	s := g.State()
	s.Plans[red][0][1] = lines[0][0] // reply on the hole bob takes
	g, err := game.Restore(s)
	require.NoError(t, err)
	turn, err := g.PlayTurn(black, g.Ply(), lines[0][0], t0)
	require.NoError(t, err)
	assert.False(t, turn.Planned)
	require.Len(t, turn.Dropped, 1)
	assert.Equal(t, red, turn.Dropped[0].By)
	assert.Equal(t, s.Plans[red][0], turn.Dropped[0].Line)
	assert.ErrorIs(t, turn.Dropped[0].Err, engine.ErrOccupied)
	assert.Nil(t, g.Plan(red))
	assert.Equal(t, red, g.ToMove(), "alice moves herself")
}

func TestSetPlanRefused(t *testing.T) {
	g, lines := mustPlanned(t, 2, 3)
	p := g.Position()
	tooMany := make([]game.Line, game.MaxPlanLines+1)
	for i := range tooMany {
		tooMany[i] = lines[0]
	}
	tooDeep := slices.Concat(lines[0], lines[0][:2])
	occupied := game.Line{lines[0][0], lines[0][0]}
	conflict := game.Line{lines[0][0], otherThan(after(t, p, lines[0][0]), lines[0][1])}
	tests := []struct {
		name  string
		by    engine.Color
		lines []game.Line
		err   error
	}{
		{"too many lines", red, tooMany, game.ErrPlanTooLong},
		{"too deep", red, []game.Line{tooDeep}, game.ErrPlanTooDeep},
		{"an illegal move", red, []game.Line{lines[1], occupied}, engine.ErrOccupied},
		{"an illegal move is a plan error", red, []game.Line{occupied}, game.ErrPlanIllegal},
		{"no reply", red, []game.Line{lines[0][:1]}, game.ErrPlanIllegal},
		{"an empty line", red, []game.Line{{}}, game.ErrPlanIllegal},
		{"two replies to one move", red, []game.Line{lines[0], conflict}, game.ErrPlanConflict},
		{"own turn", black, lines, game.ErrOwnTurn},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			refuse(t, g, tt.err, func() error { return g.SetPlan(tt.by, tt.lines, t0) })
		})
	}
	t.Run("which line and move", func(t *testing.T) {
		var pe *game.PlanError
		require.ErrorAs(t, g.SetPlan(red, []game.Line{lines[1], occupied}, t0), &pe)
		assert.Equal(t, game.PlanError{Line: 2, Move: 2, Err: engine.ErrOccupied}, *pe)
	})
	t.Run("20 lines of 3 replies", func(t *testing.T) {
		_, full := mustPlanned(t, game.MaxPlanLines, game.MaxPlanDepth)
		assert.Len(t, full, game.MaxPlanLines)
	})
	t.Run("no lines clear the plan", func(t *testing.T) {
		g := g.Clone()
		require.NoError(t, g.SetPlan(red, nil, t0))
		assert.Nil(t, g.Plan(red))
	})
	t.Run("the computer", func(t *testing.T) {
		g := mustNew(t, againstComputer, func(c *game.Config) { c.First = black })
		refuse(t, g, game.ErrNotAPlayer, func() error { return g.SetPlan(black, lines, t0) })
	})
	t.Run("game over", func(t *testing.T) {
		g := g.Clone()
		require.NoError(t, g.Resign(black, t0))
		refuse(t, g, engine.ErrGameOver, func() error { return g.SetPlan(red, lines, t0) })
	})
}

// after returns p after c.
func after(tb testing.TB, p engine.Position, c engine.Cell) engine.Position {
	tb.Helper()
	require.NoError(tb, p.Play(c))
	return p
}

func TestRestoreRefusesForgedPlans(t *testing.T) {
	g, lines := mustPlanned(t, 1, 1)
	ownTurn := g.State()
	ownTurn.Plans[black] = lines
	tooDeep := g.State()
	tooDeep.Plans[red] = []game.Line{slices.Concat(lines[0], lines[0], lines[0], lines[0])}
	over := g.State()
	require.NoError(t, g.Resign(red, t0))
	over.Result = g.State().Result
	for name, s := range map[string]game.State{"a plan on the owner's turn": ownTurn, "too deep": tooDeep, "after the end": over} {
		t.Run(name, func(t *testing.T) {
			_, err := game.Restore(s)
			assert.ErrorIs(t, err, game.ErrInvalid)
		})
	}
}

// BenchmarkPlay compares a move that sets off a plan of 20 lines, 3
// replies deep (and so also plays the reply) with a plain move.
func BenchmarkPlay(b *testing.B) {
	for _, n := range []int{0, game.MaxPlanLines} {
		name := "plain"
		if n > 0 {
			name = "planned-20-lines"
		}
		b.Run(name, func(b *testing.B) {
			g, lines := mustPlanned(b, max(n, 1), game.MaxPlanDepth)
			if n == 0 {
				require.NoError(b, g.SetPlan(red, nil, t0))
			}
			move := lines[n/2][0]
			if n == 0 {
				move = lines[0][0]
			}
			b.ResetTimer()
			for b.Loop() {
				b.StopTimer()
				c := g.Clone()
				b.StartTimer()
				if err := c.Play(black, c.Ply(), move, t0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
