package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

// cutoff is the cutoff of the tests' games: before their clock
// (moveTime) runs out.
var cutoff = t0.Add(6 * time.Hour)

// cutAt gives a game the cutoff at.
func cutAt(at time.Time) func(*game.Config) { return func(c *game.Config) { c.Cutoff = at } }

// firstDue is when the first move of a game with the tests' cutoff is
// due: the cutoff less half the time from the start to it (3 hours, less
// than a day), kept for the reply.
var firstDue = cutoff.Add(-3 * time.Hour)

func TestCutoffBoundsTheDeadline(t *testing.T) {
	g := mustNew(t, cutAt(cutoff))
	assert.Equal(t, firstDue, g.Deadline(), "the first move keeps the reply's share of the time to the cutoff")
	assert.Equal(t, moveTime, g.TimeLeft(red, t0), "the clock keeps its own time")
	assert.Equal(t, firstDue.Add(-moveTime/2), g.Wake(), "the first reminder counts back from the first move's deadline")
	require.NoError(t, g.Remind(g.Wake()))
	assert.Equal(t, firstDue.Add(-moveTime/10), g.Wake())
	restored(t, g)
	play(t, g, firstDue.Add(-time.Minute))
	assert.Equal(t, cutoff, g.Deadline(), "the reply is due by the cutoff: 3 hours after a first move at the last minute")

	early := t0.Add(time.Hour)
	g = mustNew(t, cutAt(t0.Add(20*time.Hour)))
	assert.Equal(t, t0.Add(moveTime), g.Deadline(), "a clock that runs out first is the deadline")
	play(t, g, early)
	assert.Equal(t, early.Add(moveTime), g.Deadline())
	play(t, g, early.Add(9*time.Hour))
	assert.Equal(t, t0.Add(20*time.Hour), g.Deadline(), "the cutoff, once it comes first")
}

// TestReplyShare: the first move is due by the cutoff less the reply's
// share: a day, or half the time from the start to the cutoff if that is
// less; the first player may not move from then on, and forfeits.
func TestReplyShare(t *testing.T) {
	tests := []struct {
		name   string
		cutoff time.Duration // after the start
		share  time.Duration
	}{
		{"an hour", time.Hour, 30 * time.Minute},
		{"six hours", 6 * time.Hour, 3 * time.Hour},
		{"two days", 48 * time.Hour, 24 * time.Hour},
		{"two weeks", 14 * 24 * time.Hour, 24 * time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t, cutAt(t0.Add(tt.cutoff)), func(c *game.Config) { c.MoveTime = 30 * 24 * time.Hour })
			due := t0.Add(tt.cutoff - tt.share)
			assert.Equal(t, due, g.Deadline())
			refuse(t, g, game.ErrCutoff, func() error { return g.Play(red, 0, firstLegal(g.Position()), due) })
			refuse(t, g, game.ErrNotDue, func() error { return g.Timeout(due.Add(-time.Nanosecond)) })
			require.NoError(t, g.Timeout(due))
			require.NotNil(t, g.Result())
			assert.Equal(t, game.Unstarted, g.Result().Ending)
			assert.Equal(t, black, g.Result().Winner, "the first player forfeits")
		})
	}
}

func TestCutoffKeepsAWholeGameClock(t *testing.T) {
	g := mustNew(t, cutAt(t0.Add(2*time.Hour)), func(c *game.Config) { c.Kind = game.WholeGame })
	play(t, g, t0.Add(30*time.Minute))
	assert.Equal(t, moveTime-30*time.Minute, g.TimeLeft(red, t0.Add(30*time.Minute)), "red keeps what their clock had, not what the cutoff left")
	assert.Equal(t, t0.Add(2*time.Hour), g.Deadline())
}

func TestTimeoutAtTheCutoff(t *testing.T) {
	tests := []struct {
		name   string
		setup  func(t *testing.T, g *game.Game)
		ending game.Ending // what Timeout at the cutoff ends the game with
		loser  engine.Color
		wake   time.Time // the game's wake once its reminders are sent
	}{
		{"no move: the first player forfeits", func(*testing.T, *game.Game) {}, game.Unstarted, red, firstDue},
		{"one move: the second player forfeits", func(t *testing.T, g *game.Game) { play(t, g, t0.Add(time.Hour)) }, game.Unstarted, black, cutoff},
		{"no move, away: forfeits all the same", func(t *testing.T, g *game.Game) { require.NoError(t, g.Away(red, t0)) }, game.Unstarted, red, firstDue},
		{"both moved: the judge's", func(t *testing.T, g *game.Game) {
			play(t, g, t0.Add(time.Hour))
			play(t, g, t0.Add(2*time.Hour))
		}, 0, 0, time.Time{}},
		{"both moved, away: the judge's", func(t *testing.T, g *game.Game) {
			play(t, g, t0.Add(time.Hour))
			play(t, g, t0.Add(2*time.Hour))
			require.NoError(t, g.Away(red, t0.Add(3*time.Hour)))
		}, 0, 0, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t, cutAt(cutoff))
			tt.setup(t, g)
			at := cutoff // when the player to move is cut off
			if g.Ply() == 0 {
				at = firstDue
			}
			for w := g.Wake(); !w.IsZero() && w.Before(at); w = g.Wake() {
				require.NoError(t, g.Remind(w))
			}
			assert.Equal(t, tt.wake, g.Wake())
			refuse(t, g, game.ErrNotDue, func() error { return g.Timeout(at.Add(-time.Nanosecond)) })
			refuse(t, g, game.ErrCutoff, func() error { return g.Play(g.ToMove(), g.Ply(), firstLegal(g.Position()), at) })
			if tt.ending == 0 {
				refuse(t, g, game.ErrNotDue, func() error { return g.Timeout(cutoff.Add(time.Hour)) })
				require.NoError(t, g.Adjudicate(black, false, cutoff))
				assert.Equal(t, "Black wins by adjudication", g.Result().String())
				return
			}
			require.NoError(t, g.Timeout(at))
			r := g.Result()
			require.NotNil(t, r)
			assert.Equal(t, tt.ending, r.Ending)
			assert.Equal(t, tt.loser.Other(), r.Winner)
			assert.False(t, r.Rated(), "a forfeit is not rated")
			restored(t, g)
		})
	}
}

func TestCutoffClosesAClaim(t *testing.T) {
	g := mustNew(t, claims, cutAt(t0.Add(15*time.Hour)))
	play(t, g, t0)
	play(t, g, t0)
	deadline := t0.Add(moveTime)
	require.NoError(t, g.Timeout(deadline))
	require.False(t, g.Over(), "a claim waits")
	assert.Equal(t, t0.Add(15*time.Hour), g.Wake(), "until the cutoff, not a week")
	require.NoError(t, g.Timeout(t0.Add(15*time.Hour)))
	r := g.Result()
	require.NotNil(t, r)
	assert.Equal(t, game.TimedOut, r.Ending)
	assert.Equal(t, black, r.Winner, "the claim is made for the opponent")

	g = mustNew(t, claims, cutAt(cutoff))
	play(t, g, t0)
	play(t, g, t0)
	_, _, ok := g.Claimable(cutoff.Add(time.Hour))
	assert.False(t, ok, "a clock that runs on to the cutoff leaves no claim: the judge decides")
}

func TestLift(t *testing.T) {
	g := mustNew(t, cutAt(cutoff))
	play(t, g, t0.Add(time.Hour))
	play(t, g, t0.Add(2*time.Hour))
	require.NoError(t, g.Lift())
	assert.Zero(t, g.Cutoff())
	assert.Equal(t, t0.Add(2*time.Hour+moveTime), g.Deadline(), "the clock alone")
	require.NoError(t, g.Play(g.ToMove(), g.Ply(), firstLegal(g.Position()), cutoff.Add(time.Hour)), "moves after the old cutoff")
	restored(t, g)
}

func TestCutRefuses(t *testing.T) {
	g := mustNew(t)
	refuse(t, g, game.ErrInvalid, func() error { return g.Cut(t0) })
	require.NoError(t, g.Cut(cutoff))
	require.NoError(t, g.Cut(cutoff.Add(time.Hour)))
	assert.Equal(t, cutoff, g.Cutoff(), "a later cutoff leaves the earlier one")
	require.NoError(t, g.Resign(red, t0))
	refuse(t, g, engine.ErrGameOver, func() error { return g.Cut(cutoff.Add(-time.Hour)) })
	refuse(t, g, engine.ErrGameOver, g.Lift)

	_, err := game.New(config(cutAt(t0)), t0)
	assert.ErrorIs(t, err, game.ErrInvalid, "a cutoff at the start")
	s := mustNew(t, cutAt(cutoff)).State()
	s.Cutoff = t0.Add(-time.Hour)
	_, err = game.Restore(s)
	assert.ErrorIs(t, err, game.ErrInvalid, "a stored cutoff before the start")
}
