package puzzle

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

// quick is a generator small enough for tests: short self-play searches
// and puzzles close to the end, where the brute force of brute_test.go
// can re-prove them.
var quick = Generator{Left: 9, Playouts: 300}

// generated returns the puzzles of the games of seeds [0, n) under quick.
func generated(t testing.TB, n uint64) []Puzzle {
	t.Helper()
	var ps []Puzzle
	for seed := range n {
		found, err := quick.Game(context.Background(), seed)
		require.NoError(t, err)
		ps = append(ps, found...)
	}
	return ps
}

func TestGenerateIsReproducible(t *testing.T) {
	a, err := quick.Game(context.Background(), 7)
	require.NoError(t, err)
	b, err := quick.Game(context.Background(), 7)
	require.NoError(t, err)
	assert.Equal(t, a, b)
}

func TestGeneratedPuzzlesKeepTheRules(t *testing.T) {
	ps := generated(t, 12)
	require.NotEmpty(t, ps)
	for _, p := range ps {
		t.Run(p.ID, func(t *testing.T) {
			require.NoError(t, p.Check())
			pos, err := p.Position()
			require.NoError(t, err)
			assert.LessOrEqual(t, engine.MaxPly-pos.Ply(), quick.Left, "close enough to the end")
			assert.False(t, greedyFinds(pos, p.Record.Rules, mustHole(t, pos, p.Solution[0])), "not trivial")
			assert.GreaterOrEqual(t, p.Rating, baseRating)
			assert.LessOrEqual(t, p.Rating, baseRating+len(effort)*ratingStep)
			assert.Contains(t, p.Themes, []Theme{OneMove, TwoMoves, ThreeMoves}[p.Moves()-1])
			assert.Equal(t, idOf(p.Record), p.ID)
		})
	}
}

func mustHole(t testing.TB, pos engine.Position, c engine.Cell) engine.Hole {
	h, ok := pos.Layout().HoleAt(c)
	require.True(t, ok, "%s is a hole", c)
	return h
}
