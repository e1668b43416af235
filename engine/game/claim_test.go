package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

// claims makes a game of claims.
func claims(c *game.Config) { c.Timeouts = game.Claim }

// mustLate returns a game of claims in which both players moved and red,
// to move, ran out of time at the deadline it returns (Timeout marked it).
func mustLate(t *testing.T) (*game.Game, time.Time) {
	t.Helper()
	g := mustNew(t, claims)
	play(t, g, t0)
	play(t, g, t0)
	deadline := g.Deadline()
	require.NoError(t, g.Timeout(deadline))
	require.False(t, g.Over())
	return g, deadline
}

func TestTimeoutInAGameOfClaims(t *testing.T) {
	g := mustNew(t, claims)
	require.Equal(t, game.Claim, g.Timeouts())
	play(t, g, t0)
	play(t, g, t0)
	deadline := g.Deadline()
	refuse(t, g, game.ErrNotDue, func() error { return g.Timeout(deadline.Add(-time.Nanosecond)) })
	_, _, ok := g.Claimable(deadline.Add(-time.Nanosecond))
	assert.False(t, ok, "not claimable before the deadline")

	require.NoError(t, g.Timeout(deadline))
	assert.False(t, g.Over(), "the game waits for a claim")
	since, by, ok := g.Claimable(deadline.Add(time.Hour))
	assert.True(t, ok)
	assert.Equal(t, deadline, since)
	assert.Equal(t, black, by, "the opponent of the late player claims")
	assert.Equal(t, deadline.Add(game.ClaimWindow), g.Wake(), "no more reminders: the next thing due is the end of the window")
	assert.Equal(t, time.Duration(0), g.TimeLeft(red, deadline.Add(time.Hour)))
	refuse(t, g, game.ErrNotDue, func() error { return g.Remind(deadline.Add(time.Hour)) })
	refuse(t, g, game.ErrNotDue, func() error { return g.Timeout(deadline.Add(game.ClaimWindow - time.Nanosecond)) })
	restored(t, g)

	require.NoError(t, g.Timeout(deadline.Add(game.ClaimWindow)))
	r := g.Result()
	require.NotNil(t, r)
	assert.Equal(t, game.TimedOut, r.Ending)
	assert.False(t, r.Claimed, "a claim not made ends the game as Auto does")
	assert.Equal(t, "Black wins, Red ran out of time", r.String())
}

func TestClaim(t *testing.T) {
	g, deadline := mustLate(t)
	now := deadline.Add(time.Hour)
	refuse(t, g, game.ErrNotClaimant, func() error { return g.Claim(red, now) })
	require.NoError(t, g.Claim(black, now))
	r := g.Result()
	require.NotNil(t, r)
	assert.Equal(t, game.TimedOut, r.Ending)
	assert.True(t, r.Claimed)
	assert.Equal(t, black, r.Winner)
	assert.Equal(t, now, r.At)
	assert.Equal(t, "Black wins, Red ran out of time (claimed)", r.String())
	tag, _ := g.Record().Tag("Result")
	assert.Equal(t, "Black wins, Red ran out of time (claimed)", tag, "history and export say so")
	restored(t, g)
	refuse(t, g, engine.ErrGameOver, func() error { return g.Claim(black, now) })
}

func TestClaimBeforeTimeoutMarksIt(t *testing.T) {
	g := mustNew(t, claims)
	play(t, g, t0)
	play(t, g, t0)
	require.NoError(t, g.Claim(black, g.Deadline()), "the scheduler may be late: the claim is open from the deadline")
	assert.True(t, g.Result().Claimed)
}

func TestLatePlayerMayStillMove(t *testing.T) {
	g, deadline := mustLate(t)
	now := deadline.Add(2 * day)
	play(t, g, now)
	_, _, ok := g.Claimable(now)
	assert.False(t, ok, "the claim lapsed")
	assert.True(t, g.Deadline().Equal(now.Add(moveTime)), "the opponent's clock runs")
	refuse(t, g, game.ErrNotClaimable, func() error { return g.Claim(black, now) })
}

func TestGiveTimeToALatePlayer(t *testing.T) {
	g, deadline := mustLate(t)
	now := deadline.Add(time.Hour)
	require.NoError(t, g.GiveTime(black, now), "keep waiting, with time given")
	_, _, ok := g.Claimable(now)
	assert.False(t, ok)
	assert.True(t, g.Deadline().Equal(now.Add(moveTime)), "the clock runs again with the time given")
	restored(t, g)
}

func TestClaimRefused(t *testing.T) {
	tests := []struct {
		name   string
		g      func(t *testing.T) *game.Game
		at     time.Duration // after t0
		by     engine.Color
		err    error
		result game.Ending // the ending Timeout gives at the same time, if the game ends
	}{
		{"auto", func(t *testing.T) *game.Game {
			g := mustNew(t)
			play(t, g, t0)
			play(t, g, t0)
			return g
		}, moveTime, black, game.ErrNotClaimable, game.TimedOut},
		{"before both moved", func(t *testing.T) *game.Game {
			g := mustNew(t, claims)
			play(t, g, t0)
			return g
		}, moveTime, red, game.ErrNotClaimable, game.Unstarted},
		{"no clock", func(t *testing.T) *game.Game { return mustNew(t, claims, noClock) }, 30 * day, black, game.ErrNotClaimable, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := tt.g(t)
			now := t0.Add(tt.at)
			refuse(t, g, tt.err, func() error { return g.Claim(tt.by, now) })
			if tt.result != 0 {
				require.NoError(t, g.Timeout(now))
				assert.Equal(t, tt.result, g.Result().Ending, "the game ends by itself, as today")
			}
		})
	}
}

func TestRestoreRefusesForgedClaims(t *testing.T) {
	g, deadline := mustLate(t)
	auto := g.State()
	auto.Timeouts = game.Auto
	require.NoError(t, g.Claim(black, deadline))
	resigned := g.State()
	resigned.Result.Ending = game.Resigned
	for name, s := range map[string]game.State{"late in a game without claims": auto, "a claimed resignation": resigned} {
		t.Run(name, func(t *testing.T) {
			_, err := game.Restore(s)
			assert.ErrorIs(t, err, game.ErrInvalid)
		})
	}
}
