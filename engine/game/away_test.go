package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

func TestAwayOnTheirTurn(t *testing.T) {
	// Alice (red, to move) goes away 2h into her turn: her clock stops
	// with 8h on it, and runs again with them when she is back.
	g := mustNew(t)
	away, back := t0.Add(2*time.Hour), t0.Add(5*day)
	require.NoError(t, g.Away(red, away))
	assert.Equal(t, away, g.AwaySince(red))
	left, stopped := g.Stopped()
	assert.True(t, stopped)
	assert.Equal(t, 8*time.Hour, left)
	assert.True(t, g.Deadline().IsZero())
	assert.True(t, g.Wake().IsZero(), "nothing is due on a stopped clock")
	assert.Equal(t, 8*time.Hour, g.TimeLeft(red, back))
	refuse(t, g, game.ErrNotDue, func() error { return g.Timeout(t0.Add(30 * day)) })
	refuse(t, g, game.ErrOnVacation, func() error { return g.Away(red, back) })
	restored(t, g)

	require.NoError(t, g.Back(red, back))
	assert.True(t, g.AwaySince(red).IsZero())
	assert.True(t, g.Deadline().Equal(back.Add(8*time.Hour)), "the clock resumes with the time it had")
	refuse(t, g, game.ErrNotOnVacation, func() error { return g.Back(red, back) })
}

func TestAwayOffTheirTurn(t *testing.T) {
	// Bob goes away while alice is to move: alice's clock runs as usual,
	// and she may move; bob's clock starts stopped, with a whole move time.
	g := mustNew(t)
	require.NoError(t, g.Away(black, t0))
	assert.True(t, g.Deadline().Equal(t0.Add(moveTime)), "the opponent's clock runs")
	play(t, g, t0.Add(time.Hour))
	left, stopped := g.Stopped()
	assert.True(t, stopped)
	assert.Equal(t, moveTime, left)
	restored(t, g)
	back := t0.Add(3 * day)
	require.NoError(t, g.Back(black, back))
	assert.True(t, g.Deadline().Equal(back.Add(moveTime)))
}

func TestAwayMayStillMove(t *testing.T) {
	g := mustNew(t)
	require.NoError(t, g.Away(red, t0))
	play(t, g, t0.Add(day))
	assert.True(t, g.Deadline().Equal(t0.Add(day+moveTime)), "bob's clock runs from the move")
	play(t, g, t0.Add(day+time.Hour))
	_, stopped := g.Stopped()
	assert.True(t, stopped, "alice is still away")
}

func TestAwayWithIncrement(t *testing.T) {
	g := mustNew(t, func(c *game.Config) { c.Increment = time.Hour })
	require.NoError(t, g.Away(red, t0.Add(3*time.Hour)))
	play(t, g, t0.Add(5*day))
	assert.Equal(t, 8*time.Hour, g.TimeLeft(red, t0.Add(5*day)), "the time away is not used: 7h left, +1h")
}

func TestAwayRefused(t *testing.T) {
	tests := []struct {
		name   string
		g      func(t *testing.T) *game.Game
		c      engine.Color
		err    error
		change func(g *game.Game, c engine.Color) error
	}{
		{"the computer", func(t *testing.T) *game.Game { return mustNew(t, againstComputer) }, black, game.ErrNotAPlayer, awayAt},
		{"game over", func(t *testing.T) *game.Game {
			g := mustNew(t)
			require.NoError(t, g.Resign(red, t0))
			return g
		}, red, engine.ErrGameOver, awayAt},
		{"back, not away", func(t *testing.T) *game.Game { return mustNew(t) }, red, game.ErrNotOnVacation, func(g *game.Game, c engine.Color) error { return g.Back(c, t0) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.g(t)
			refuse(t, g, tt.err, func() error { return tt.change(g, tt.c) })
		})
	}
}

// awayAt sends the player of colour c away at t0.
func awayAt(g *game.Game, c engine.Color) error { return g.Away(c, t0) }

func TestAwayAfterTheClockRanOut(t *testing.T) {
	g := mustNew(t)
	require.NoError(t, g.Away(red, t0.Add(moveTime)))
	_, stopped := g.Stopped()
	assert.False(t, stopped, "a clock that ran out is not stopped")
	require.NoError(t, g.Timeout(t0.Add(moveTime)))
}

func TestAwayByClock(t *testing.T) {
	// A vacation marks a player away in a game of an hour or more, and in
	// a game without a clock (nothing to stop, nothing to refuse); a game
	// under an hour refuses it, live or not.
	for _, tc := range []struct {
		name  string
		clock time.Duration
		err   error
	}{
		{"no clock", 0, nil},
		{"an hour", time.Hour, nil},
		{"59 minutes", 59 * time.Minute, game.ErrLiveGame},
		{"10 minutes", 10 * time.Minute, game.ErrLiveGame},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := mustNewAt(t, t0, func(c *game.Config) { c.MoveTime = tc.clock })
			err := g.Away(black, t0)
			if tc.err != nil {
				assert.ErrorIs(t, err, tc.err)
				assert.True(t, g.AwaySince(black).IsZero(), "not marked away")
				return
			}
			require.NoError(t, err)
			assert.Equal(t, t0, g.AwaySince(black))
		})
	}
}
