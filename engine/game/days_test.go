package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

// The colours of alice and bob in the tests' games.
const red, black = engine.Red, engine.Black

// mustNewAt starts a test game at start (see config).
func mustNewAt(tb testing.TB, start time.Time, changes ...func(*game.Config)) *game.Game {
	tb.Helper()
	g, err := game.New(config(changes...), start)
	require.NoError(tb, err)
	return g
}

// play plays the first legal hole for the player to move at now.
func play(tb testing.TB, g *game.Game, now time.Time) engine.Cell {
	tb.Helper()
	c := firstLegal(g.Position())
	require.NoError(tb, g.Play(g.ToMove(), g.Ply(), c, now))
	return c
}

// firstLegal returns the first legal hole of p.
func firstLegal(p engine.Position) engine.Cell {
	return p.Legal().Cells(p.Layout())[0]
}

// mustZone loads the time zone name.
func mustZone(tb testing.TB, name string) *time.Location {
	tb.Helper()
	z, err := time.LoadLocation(name)
	require.NoError(tb, err)
	return z
}

// restored returns g written out and read back.
func restored(tb testing.TB, g *game.Game) *game.Game {
	tb.Helper()
	again, err := game.Restore(g.State())
	require.NoError(tb, err)
	require.Equal(tb, g.State(), again.State())
	return again
}
