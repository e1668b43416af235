package drawtest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/draw/internal/sample"
	"github.com/kulami/kulami/engine"
)

// MustGame returns the position after plies random legal moves on l, the
// same for the same seed; it fails the test if the game ends earlier.
func MustGame(tb testing.TB, l *engine.Layout, seed uint64, plies int) engine.Position {
	tb.Helper()
	p := sample.Game(l, seed, plies)
	require.Equal(tb, plies, p.Ply(), "the game ended early")
	return p
}

// GameWithLines returns the first finished random game on the square (by
// seed) in which both colours score lines: a board with every bonus to
// draw.
func GameWithLines() engine.Position { return sample.GameWithLines() }
