package storage

import (
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mustWakes returns every wake due at the end of time.
func mustWakes(tb testing.TB, s *Store) []Wake {
	tb.Helper()
	w, err := s.Due(time.Unix(1<<40, 0))
	require.NoError(tb, err)
	return w
}

func TestWakeIndex(t *testing.T) {
	s := mustOpen(t, Options{})
	_, ok, err := s.NextWake()
	require.NoError(t, err)
	assert.False(t, ok, "nothing scheduled")

	g := newGame("g", alice, bob)
	g.WakeAt = t0.Add(2 * time.Hour)
	require.NoError(t, s.CreateGame(g))
	c := newChallenge("c", carol, bob) // wakes at t0+1h
	require.NoError(t, s.CreateChallenge(c))
	mustCreate(t, s, "idle", carol, alice) // no wake

	next, ok, err := s.NextWake()
	require.NoError(t, err)
	require.True(t, ok)
	assert.True(t, next.Equal(t0.Add(time.Hour)))

	due, err := s.Due(t0.Add(time.Hour))
	require.NoError(t, err)
	require.Len(t, due, 1, "a wake at now is due")
	assert.Equal(t, WakeChallenge, due[0].Kind)
	assert.Equal(t, "c", due[0].ChannelID)
	assert.True(t, due[0].At.Equal(t0.Add(time.Hour)))
	due, err = s.Due(t0.Add(time.Hour - 1))
	require.NoError(t, err)
	assert.Empty(t, due)

	// Moving a wake leaves no trace of the old one.
	_, err = s.UpdateGame("g", func(g *Game) error {
		g.WakeAt = t0.Add(30 * time.Minute)
		return nil
	})
	require.NoError(t, err)
	_, err = s.UpdateChallenge("c", func(c *Challenge) error {
		c.WakeAt = t0.Add(3 * time.Hour)
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []Wake{
		{WakeGame, "g", t0.Add(30 * time.Minute)},
		{WakeChallenge, "c", t0.Add(3 * time.Hour)},
	}, utc(mustWakes(t, s)))

	// A failed update keeps the wake as it was.
	_, err = s.UpdateGame("g", func(g *Game) error {
		g.WakeAt = time.Time{}
		return ErrStale
	})
	require.ErrorIs(t, err, ErrStale)
	assert.Len(t, mustWakes(t, s), 2)

	// Clearing, finishing and withdrawing remove wakes.
	_, err = s.UpdateChallenge("c", func(c *Challenge) error {
		c.WakeAt = time.Time{}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []Wake{{WakeGame, "g", t0.Add(30 * time.Minute)}}, utc(mustWakes(t, s)))
	mustFinish(t, s, "g", Aborted, engine.Red, t0)
	assert.Empty(t, mustWakes(t, s))
	_, ok, err = s.NextWake()
	require.NoError(t, err)
	assert.False(t, ok)
}

func TestWakeRemovedWithChallenge(t *testing.T) {
	s := mustOpen(t, Options{})
	c := newChallenge("c", alice, bob)
	require.NoError(t, s.CreateChallenge(c))
	require.NoError(t, s.DeleteChallenge("c", c.ID))
	assert.Empty(t, mustWakes(t, s))

	c = newChallenge("c", alice, bob)
	require.NoError(t, s.CreateChallenge(c))
	g := newGame("c", bob, alice)
	g.WakeAt = t0.Add(time.Minute)
	require.NoError(t, s.AcceptChallenge("c", c.ID, g))
	assert.Equal(t, []Wake{{WakeGame, "c", t0.Add(time.Minute)}}, utc(mustWakes(t, s)))
}

func TestWakesSurviveReopen(t *testing.T) {
	s := mustOpen(t, Options{})
	path := s.Path()
	g := newGame("g", alice, bob)
	g.WakeAt = t0
	require.NoError(t, s.CreateGame(g))
	require.NoError(t, s.Close())

	s = mustOpenPath(t, path, Options{})
	due, err := s.Due(t0.Add(time.Hour))
	require.NoError(t, err)
	assert.Equal(t, []Wake{{WakeGame, "g", t0}}, utc(due))
}

// utc returns w with times in UTC, to compare with the tests' times.
func utc(w []Wake) []Wake {
	for i := range w {
		w[i].At = w[i].At.UTC()
	}
	return w
}
