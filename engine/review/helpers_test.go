package review_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

// mustRecord reads the record testdata/name.
func mustRecord(tb testing.TB, name string) *engine.Record {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(tb, err)
	rec, err := engine.ParseRecord(string(b))
	require.NoError(tb, err)
	return rec
}

// mustPosition replays the first n moves of rec.
func mustPosition(tb testing.TB, rec *engine.Record, n int) engine.Position {
	tb.Helper()
	p := engine.NewPosition(rec.Layout, rec.First)
	for _, m := range rec.Moves[:n] {
		require.NoError(tb, p.PlayMove(m))
	}
	return p
}

// solve returns the exact chance of the player to move in p, by trying
// every way the game can go on: 1 for a win, ½ for a draw, 0 for a loss.
// It is the plainest search there is, to check the engine's, and is for
// positions with few moves left.
func solve(p engine.Position, rules engine.Rules) float64 {
	legal := p.Legal()
	if legal == 0 {
		w, ok := p.Score(rules).Winner()
		switch {
		case !ok:
			return 0.5
		case w == p.ToMove():
			return 1
		}
		return 0
	}
	best := 0.0
	for h := range legal.All() {
		q := p
		q.Apply(h)
		best = max(best, 1-solve(q, rules))
	}
	return best
}
