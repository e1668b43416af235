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

func TestCutoffBoundsTheDeadline(t *testing.T) {
	g := mustNew(t, cutAt(cutoff))
	assert.Equal(t, cutoff, g.Deadline(), "the cutoff comes before the clock runs out")
	assert.Equal(t, moveTime, g.TimeLeft(red, t0), "the clock keeps its own time")
	assert.Equal(t, cutoff.Add(-moveTime/2), g.Wake(), "the first reminder counts back from the cutoff")
	require.NoError(t, g.Remind(g.Wake()))
	assert.Equal(t, cutoff.Add(-moveTime/10), g.Wake())
	restored(t, g)

	early := t0.Add(time.Hour)
	g = mustNew(t, cutAt(t0.Add(20*time.Hour)))
	assert.Equal(t, t0.Add(moveTime), g.Deadline(), "a clock that runs out first is the deadline")
	play(t, g, early)
	assert.Equal(t, early.Add(moveTime), g.Deadline())
	play(t, g, early.Add(9*time.Hour))
	assert.Equal(t, t0.Add(20*time.Hour), g.Deadline(), "the cutoff, once it comes first")
}

func TestCutoffKeepsAWholeGameClock(t *testing.T) {
	g := mustNew(t, cutAt(t0.Add(2*time.Hour)), func(c *game.Config) { c.Kind = game.WholeGame })
	play(t, g, t0.Add(time.Hour))
	assert.Equal(t, moveTime-time.Hour, g.TimeLeft(red, t0.Add(time.Hour)), "red keeps what their clock had, not what the cutoff left")
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
		{"no move: the first player forfeits", func(*testing.T, *game.Game) {}, game.Unstarted, red, cutoff},
		{"one move: the second player forfeits", func(t *testing.T, g *game.Game) { play(t, g, t0.Add(time.Hour)) }, game.Unstarted, black, cutoff},
		{"no move, away: forfeits all the same", func(t *testing.T, g *game.Game) { require.NoError(t, g.Away(red, t0)) }, game.Unstarted, red, cutoff},
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
			for w := g.Wake(); !w.IsZero() && w.Before(cutoff); w = g.Wake() {
				require.NoError(t, g.Remind(w))
			}
			assert.Equal(t, tt.wake, g.Wake())
			refuse(t, g, game.ErrNotDue, func() error { return g.Timeout(cutoff.Add(-time.Nanosecond)) })
			refuse(t, g, game.ErrCutoff, func() error { return g.Play(g.ToMove(), g.Ply(), firstLegal(g.Position()), cutoff) })
			if tt.ending == 0 {
				refuse(t, g, game.ErrNotDue, func() error { return g.Timeout(cutoff.Add(time.Hour)) })
				require.NoError(t, g.Adjudicate(black, false, cutoff))
				assert.Equal(t, "Black wins by adjudication", g.Result().String())
				return
			}
			require.NoError(t, g.Timeout(cutoff))
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
