package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

func TestGiveTime(t *testing.T) {
	// Bob (black, not to move) gives alice time: a day, or the move time
	// if shorter, up to twice the move time on her clock.
	tests := []struct {
		name     string
		moveTime time.Duration
		gives    int           // GiveTime calls that succeed
		after    time.Duration // after the turn began
		left     time.Duration // on alice's clock after them
	}{
		{"the move time, shorter than a day", 10 * time.Hour, 1, 0, 20 * time.Hour},
		{"a day", 3 * day, 1, 0, 4 * day},
		{"three days, up to twice the move time", 3 * day, 3, 0, 6 * day},
		{"the time used makes room", 3 * day, 4, day, 6 * day},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t, func(c *game.Config) { c.MoveTime = tt.moveTime })
			now := t0.Add(tt.after)
			for range tt.gives {
				require.NoError(t, g.GiveTime(black, now))
			}
			assert.Equal(t, tt.left, g.TimeLeft(red, now))
			assert.True(t, g.Deadline().Equal(now.Add(tt.left)))
			if tt.left == 2*tt.moveTime {
				refuse(t, g, game.ErrTimeLimit, func() error { return g.GiveTime(black, now) })
			}
			restored(t, g)
		})
	}
}

func TestGiveTimeRefused(t *testing.T) {
	tests := []struct {
		name string
		g    func(t *testing.T) *game.Game
		by   engine.Color
		err  error
	}{
		{"own turn", func(t *testing.T) *game.Game { return mustNew(t) }, red, game.ErrOwnTurn},
		{"the computer", func(t *testing.T) *game.Game {
			g := mustNew(t, func(c *game.Config) { c.Players[red] = computer })
			return g
		}, red, game.ErrNotAPlayer},
		{"to the computer", func(t *testing.T) *game.Game {
			return mustNew(t, againstComputer, func(c *game.Config) { c.First = black })
		}, red, game.ErrNoClock},
		{"no clock", func(t *testing.T) *game.Game { return mustNew(t, noClock) }, black, game.ErrNoClock},
		{"game over", func(t *testing.T) *game.Game {
			g := mustNew(t)
			require.NoError(t, g.Resign(red, t0))
			return g
		}, black, engine.ErrGameOver},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.g(t)
			refuse(t, g, tt.err, func() error { return g.GiveTime(tt.by, t0) })
		})
	}
}

func TestGiveTimeToAStoppedClock(t *testing.T) {
	g := mustNew(t)
	require.NoError(t, g.Away(red, t0.Add(time.Hour)))
	require.NoError(t, g.GiveTime(black, t0.Add(2*time.Hour)))
	left, stopped := g.Stopped()
	assert.True(t, stopped)
	assert.Equal(t, 2*moveTime-time.Hour, left, "the time given waits on the stopped clock")
	assert.True(t, g.Deadline().IsZero())
}
