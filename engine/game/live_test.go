package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/game"
)

// TestLiveGames checks the clocks that start under game.LiveLimit: their
// games send no reminders and end at the deadline, even where the config
// asks for claims; longer clocks keep both.
func TestLiveGames(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		clock string
		live  bool
	}{
		{"1m", true},
		{"5m", true},
		{"10m+1m", true},
		{"14m", true},
		{"15m", false},
		{"1h", false},
		{"3d+1d", false},
	} {
		t.Run(tt.clock, func(t *testing.T) {
			m, err := game.ParseMoveTime(tt.clock)
			require.NoError(t, err)
			assert.Equal(t, tt.live, m.Live())
			g := mustNew(t, func(c *game.Config) {
				c.MoveTime, c.Increment, c.Kind, c.Timeouts = m.Start, m.Increment, m.Kind, game.Claim
			})
			mustPlay(t, g, "D4", "A4") // past the first two moves, a timeout is a loss
			deadline := g.Deadline()
			require.False(t, deadline.IsZero())
			if !tt.live {
				assert.Equal(t, game.Claim, g.Timeouts(), "the config's claims")
				assert.True(t, g.Wake().Before(deadline), "a reminder comes first")
				return
			}
			assert.Equal(t, game.Auto, g.Timeouts(), "a live game ends on time at once")
			assert.Equal(t, deadline, g.Wake(), "no reminder: the next thing is the deadline")
			assert.ErrorIs(t, g.Remind(deadline.Add(-time.Nanosecond)), game.ErrNotDue)
			require.NoError(t, g.Timeout(deadline))
			assert.True(t, g.Over(), "lost on time at the deadline")
			assert.Equal(t, game.TimedOut, g.Result().Ending)
		})
	}
}
