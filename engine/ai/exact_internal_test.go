package ai

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

func TestSolveAgreesWithTheSolversRoot(t *testing.T) {
	// The best of the moves' exact values is the value the endgame solver
	// proves for the position, and its best move is one of those with it.
	ps, rs := endgames(24, 12)
	for i, pos := range ps {
		sol, err := Solve(pos, rs[i], 0)
		require.NoError(t, err)
		assert.Len(t, sol.Values, pos.Legal().Len())
		n := newSolver(engine.NewScorer(pos.Layout()), rs[i], nil, 0, time.Time{}, nil)
		var buf [engine.NumHoles]engine.Hole
		best, v, ok := n.root(&pos, n.order(&pos, pos.Legal(), engine.MaxPly, buf[:0]), engine.MaxPly)
		require.True(t, ok)
		assert.Equal(t, v, sol.Best(), "position %d", i)
		assert.Contains(t, sol.With(v), best)
	}
}

func TestSolveLimitsAndEnds(t *testing.T) {
	ps, rs := endgames(1, 18)
	_, err := Solve(ps[0], rs[0], 10)
	assert.ErrorIs(t, err, ErrUnsolved)
	over := randomGame(3, engine.MaxPly)
	require.True(t, over.IsOver())
	_, err = Solve(over, engine.Full, 0)
	assert.ErrorIs(t, err, engine.ErrGameOver)
}
