package ai

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

// endgames returns n positions with left marbles still to place, after
// random games on random irregular layouts, and the rule set of each, all
// four in turn.
func endgames(n, left int) ([]engine.Position, []engine.Rules) {
	rules := []engine.Rules{engine.Basic, engine.Area, engine.Lines, engine.Full}
	var ps []engine.Position
	var rs []engine.Rules
	for seed := uint64(1); len(ps) < n; seed++ {
		if pos := randomGame(seed, engine.MaxPly-left); !pos.IsOver() {
			ps, rs = append(ps, pos), append(rs, rules[len(ps)%len(rules)])
		}
	}
	return ps, rs
}

// solveAll solves each position of ps under its rules with the solver
// s returns, and returns the values and the positions searched.
func solveAll(t testing.TB, ps []engine.Position, rs []engine.Rules, s func(*engine.Scorer, engine.Rules) *negamax) (values []int, nodes int) {
	for i, pos := range ps {
		n := s(engine.NewScorer(pos.Layout()), rs[i])
		var buf [engine.NumHoles]engine.Hole
		_, v, ok := n.root(&pos, n.order(&pos, pos.Legal(), engine.MaxPly, buf[:0]), engine.MaxPly)
		require.True(t, ok, "position %d", i)
		values, nodes = append(values, v), nodes+n.nodes
	}
	return values, nodes
}

// The two ways the solver can order moves.
var (
	panelGainOrder = func(sc *engine.Scorer, r engine.Rules) *negamax { return newSolver(sc, r, nil, 0, time.Time{}, nil) }
	marginOrder    = func(sc *engine.Scorer, r engine.Rules) *negamax { return &negamax{scorer: sc, rules: r, wdl: true} }
)

func TestSolverOrderKeepsValues(t *testing.T) {
	// Ordering near the end by panel gain changes how fast the solver
	// proves, never what.
	ps, rs := endgames(24, 14)
	want, _ := solveAll(t, ps, rs, marginOrder)
	got, _ := solveAll(t, ps, rs, panelGainOrder)
	assert.Equal(t, want, got)
	assert.Contains(t, want, 1, "some endgames are won")
	assert.Contains(t, want, -1, "some endgames are lost")
}

func BenchmarkSolve(b *testing.B) {
	ps, rs := endgames(40, 18)
	for _, bc := range []struct {
		name  string
		solve func(*engine.Scorer, engine.Rules) *negamax
	}{{"panel-gain order", panelGainOrder}, {"margin order", marginOrder}} {
		b.Run(bc.name, func(b *testing.B) {
			nodes := 0
			for b.Loop() {
				_, n := solveAll(b, ps, rs, bc.solve)
				nodes += n
			}
			b.ReportMetric(float64(nodes)/float64(b.N), "positions/op")
		})
	}
}
