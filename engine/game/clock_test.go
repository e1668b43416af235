package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

func TestRemind(t *testing.T) {
	// The move time is 10h: the first reminder is due with 5h left, the
	// second with 1h left, the deadline after 10h.
	const half, tenth = moveTime / 2, moveTime - moveTime/10
	tests := []struct {
		name      string
		already   int           // reminders sent before
		at        time.Duration // after the turn began
		err       error
		reminders int // after Remind
	}{
		{"before the first", 0, half - time.Nanosecond, game.ErrNotDue, 0},
		{"the first", 0, half, nil, 1},
		{"the first, late", 0, tenth - time.Nanosecond, nil, 1},
		{"both, the first missed", 0, tenth, nil, 2},
		{"both, at the deadline", 0, moveTime, nil, 2},
		{"before the second", 1, tenth - time.Nanosecond, game.ErrNotDue, 1},
		{"the second", 1, tenth, nil, 2},
		{"after both", 2, moveTime + time.Hour, game.ErrNotDue, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t)
			mustPlay(t, g, "D4")
			start := turnStart(g)
			if tt.already > 0 {
				sent := []time.Duration{half, tenth}[tt.already-1]
				require.NoError(t, g.Remind(start.Add(sent)))
				require.Equal(t, tt.already, g.Reminders())
			}
			if tt.err != nil {
				refuse(t, g, tt.err, func() error { return g.Remind(start.Add(tt.at)) })
				return
			}
			before := g.State()
			require.NoError(t, g.Remind(start.Add(tt.at)))
			assert.Equal(t, tt.reminders, g.Reminders())
			after := g.State()
			after.Reminders = before.Reminders
			assert.Equal(t, before, after, "a reminder changes nothing else")
		})
	}
}

func TestRemindWithoutClock(t *testing.T) {
	tests := []struct {
		name    string
		changes []func(*game.Config)
	}{
		{"no move time", []func(*game.Config){noClock}},
		{"the computer's turn", []func(*game.Config){againstComputer}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t, tt.changes...)
			mustPlay(t, g, "D4")
			refuse(t, g, game.ErrNotDue, func() error { return g.Remind(turnStart(g).Add(100 * moveTime)) })
		})
	}
}

func TestRemindersResetOnAMove(t *testing.T) {
	g := mustNew(t)
	require.NoError(t, g.Remind(g.Deadline()))
	require.Equal(t, 2, g.Reminders())
	mustPlay(t, g, "D4")
	assert.Zero(t, g.Reminders())
	assert.ErrorIs(t, g.Remind(turnStart(g).Add(moveTime/2-time.Nanosecond)), game.ErrNotDue)
	assert.NoError(t, g.Remind(turnStart(g).Add(moveTime/2)), "the new turn has its own reminders")
}

func TestWake(t *testing.T) {
	tests := []struct {
		name    string
		changes []func(*game.Config)
		moves   []string
		sent    int           // reminders sent
		want    time.Duration // after the turn began; -1 for none
	}{
		{"first reminder", nil, []string{"D4"}, 0, moveTime / 2},
		{"second reminder", nil, []string{"D4"}, 1, moveTime - moveTime/10},
		{"deadline", nil, []string{"D4"}, 2, moveTime},
		{"first move", nil, nil, 0, moveTime / 2},
		{"no clock", []func(*game.Config){noClock}, []string{"D4"}, 0, -1},
		{"the computer's turn", []func(*game.Config){againstComputer}, []string{"D4"}, 0, game.ComputerGrace},
		{"the computer's first move", []func(*game.Config){againstComputer, func(c *game.Config) { c.First = engine.Black }}, nil, 0, game.ComputerGrace},
		{"the computer's turn without a clock", []func(*game.Config){againstComputer, noClock}, []string{"D4"}, 0, game.ComputerGrace},
		{"the person's turn against the computer", []func(*game.Config){againstComputer}, []string{"D4", "D7"}, 0, moveTime / 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t, tt.changes...)
			mustPlay(t, g, tt.moves...)
			for range tt.sent {
				require.NoError(t, g.Remind(g.Wake()))
			}
			require.Equal(t, tt.sent, g.Reminders())
			if tt.want < 0 {
				assert.Zero(t, g.Wake())
				return
			}
			assert.Equal(t, turnStart(g).Add(tt.want), g.Wake())
		})
	}
}

func TestWakeAfterTheEnd(t *testing.T) {
	for name, g := range sampleGames(t) {
		if g.Over() {
			t.Run(name, func(t *testing.T) { assert.Zero(t, g.Wake()) })
		}
	}
}

func TestExtend(t *testing.T) {
	t.Run("moves the deadline and the reminders", func(t *testing.T) {
		g := mustNew(t)
		mustPlay(t, g, "D4")
		deadline, wake := g.Deadline(), g.Wake()
		require.NoError(t, g.Extend(5*time.Hour))
		assert.True(t, g.Deadline().Equal(deadline.Add(5*time.Hour)))
		assert.True(t, g.Wake().Equal(wake.Add(5*time.Hour)), "the next reminder moves too")
		refuse(t, g, game.ErrInvalid, func() error { return g.Extend(0) })
	})
	for _, tt := range []struct {
		name    string
		changes []func(*game.Config)
		err     error
	}{
		{"no clock", []func(*game.Config){noClock}, game.ErrNotDue},
		{"the computer's turn", []func(*game.Config){againstComputer}, game.ErrNotDue},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t, tt.changes...)
			mustPlay(t, g, "D4")
			refuse(t, g, tt.err, func() error { return g.Extend(time.Hour) })
		})
	}
	t.Run("over", func(t *testing.T) {
		g := mustNew(t)
		require.NoError(t, g.Resign(engine.Red, next(g)))
		refuse(t, g, engine.ErrGameOver, func() error { return g.Extend(time.Hour) })
	})
}
