package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/game"
)

// withClock makes the test game's clock the written move time s.
func withClock(tb testing.TB, s string) func(*game.Config) {
	tb.Helper()
	m, err := game.ParseMoveTime(s)
	require.NoError(tb, err)
	return func(c *game.Config) { c.MoveTime, c.Increment, c.Kind = m.Start, m.Increment, m.Kind }
}

// TestWholeGameFlag: in a "3m" game, red's 3 minutes last for all their
// moves: a minute a move, they run out in their third, and lose on time
// at once (a live game), while black, who moved at once, kept all of it.
func TestWholeGameFlag(t *testing.T) {
	t.Parallel()
	g := mustNew(t, withClock(t, "3m"), func(c *game.Config) { c.Timeouts = game.Claim })
	require.Equal(t, game.MoveTime{Start: 3 * time.Minute, Kind: game.WholeGame}, g.Clock())
	now := t0
	for range 2 {
		now = now.Add(time.Minute)
		play(t, g, now) // red, a minute
		play(t, g, now) // black, at once
	}
	assert.Equal(t, time.Minute, g.TimeLeft(red, now), "two minutes used of three")
	assert.Equal(t, 3*time.Minute, g.TimeLeft(black, now), "no time used, no time gained")
	assert.Equal(t, now.Add(time.Minute), g.Deadline(), "red's third turn starts with what was left")
	assert.Equal(t, g.Deadline(), g.Wake(), "a live game: no reminder before the deadline")
	assert.ErrorIs(t, g.Timeout(g.Deadline().Add(-time.Second)), game.ErrNotDue)
	require.NoError(t, g.Timeout(g.Deadline()))
	require.True(t, g.Over(), "lost on time at once, although the config asks for claims")
	assert.Equal(t, game.TimedOut, g.Result().Ending)
	assert.Equal(t, black, g.Result().Winner)
}

// TestWholeGameIncrement: in a "5m+10s" game, red spends 40 seconds a
// move, black 30: the increments keep red alive for 9 moves, 6 minutes of
// thinking on a 5-minute clock, their clock falling by 30 seconds a move,
// until it no longer covers a move of 40 seconds. Black's clock falls by
// 20 seconds a move.
func TestWholeGameIncrement(t *testing.T) {
	t.Parallel()
	g := mustNew(t, withClock(t, "5m+10s"))
	now := t0
	for i := range 9 {
		require.Equal(t, 5*time.Minute-time.Duration(i)*30*time.Second, g.TimeLeft(red, now), "red's clock as their turn %d begins", i+1)
		now = now.Add(40 * time.Second)
		play(t, g, now)
		now = now.Add(30 * time.Second)
		play(t, g, now)
	}
	assert.Equal(t, 30*time.Second, g.TimeLeft(red, now), "6 minutes thought, 90 seconds earned")
	assert.Equal(t, 5*time.Minute-9*20*time.Second, g.TimeLeft(black, now))
	assert.Equal(t, now.Add(30*time.Second), g.Deadline())
	require.NoError(t, g.Timeout(now.Add(30*time.Second)), "a 40-second move no longer fits")
	assert.Equal(t, game.TimedOut, g.Result().Ending)
	assert.Equal(t, black, g.Result().Winner)
}

// TestPerMoveAfterUpgrade: a "5m" game stored by an earlier release (its
// State without a clock kind) stays 5 minutes per move: four minutes a
// move, ten times over, never runs out, and it is written back with its
// kind.
func TestPerMoveAfterUpgrade(t *testing.T) {
	t.Parallel()
	g := mustNew(t, func(c *game.Config) { c.MoveTime = 5 * time.Minute })
	old := g.State()
	old.Kind = 0 // as the earlier release wrote it
	g, err := game.Restore(old)
	require.NoError(t, err)
	assert.Equal(t, game.MoveTime{Start: 5 * time.Minute, Kind: game.PerMove}, g.Clock())
	assert.Equal(t, game.PerMove, g.State().Kind, "the kind is written from now on")
	now := t0
	for range 10 {
		now = now.Add(4 * time.Minute)
		play(t, g, now)
		assert.Equal(t, now.Add(5*time.Minute), g.Deadline(), "each move gets 5 minutes")
		g = restored(t, g)
	}
	assert.ErrorIs(t, g.Timeout(now.Add(4*time.Minute)), game.ErrNotDue)
}

// TestClockKindInvalid: a kind that does not fit the clock is refused.
func TestClockKindInvalid(t *testing.T) {
	t.Parallel()
	for name, change := range map[string]func(*game.Config){
		"an increment per move":  func(c *game.Config) { c.Increment, c.Kind = time.Hour, game.PerMove },
		"an unknown kind":        func(c *game.Config) { c.Kind = 3 },
		"a kind without a clock": func(c *game.Config) { c.MoveTime, c.Kind = 0, game.WholeGame },
	} {
		t.Run(name, func(t *testing.T) {
			_, err := game.New(config(change), t0)
			assert.ErrorIs(t, err, game.ErrInvalid)
		})
	}
}

// TestClockKindText: a kind is stored by its name, no kind as nothing,
// and an unknown name or kind is refused.
func TestClockKindText(t *testing.T) {
	t.Parallel()
	for k, name := range map[game.ClockKind]string{0: "", game.PerMove: "move", game.WholeGame: "game"} {
		b, err := k.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, name, string(b))
		var back game.ClockKind
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, k, back)
		assert.Equal(t, name, k.String())
	}
	_, err := game.ClockKind(3).MarshalText()
	assert.Error(t, err)
	var k game.ClockKind
	assert.Error(t, k.UnmarshalText([]byte("daily")))
}
