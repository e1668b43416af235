package storagetest

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testResume(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	cfg := squareConfig(alice, bob)
	cfg.MoveTime = 72 * time.Hour
	require.NoError(t, s.CreateGame(t.Context(), mustNewGame(t, "c-clock", cfg)))
	mustCreate(t, s, "c-free", bob, carol) // no clock
	extend := func(g *storage.Game, down time.Duration) (bool, error) {
		if err := g.Extend(down); errors.Is(err, game.ErrNotDue) {
			return false, nil
		} else if err != nil {
			return false, err
		}
		return true, nil
	}

	t.Run("first start", func(t *testing.T) {
		down, changed, err := s.Resume(t.Context(), t0, time.Minute, extend)
		require.NoError(t, err)
		assert.Zero(t, down, "a bot that never ran was not down")
		assert.Empty(t, changed)
	})
	t.Run("a short restart changes nothing", func(t *testing.T) {
		down, changed, err := s.Resume(t.Context(), t0.Add(30*time.Second), time.Minute, func(*storage.Game, time.Duration) (bool, error) {
			t.Error("fn called for an outage under minDown")
			return false, nil
		})
		require.NoError(t, err)
		assert.Equal(t, 30*time.Second, down)
		assert.Empty(t, changed)
	})
	t.Run("an outage is given to every game once", func(t *testing.T) {
		require.NoError(t, s.SetAlive(t.Context(), t0.Add(time.Hour)))
		down, changed, err := s.Resume(t.Context(), t0.Add(11*time.Hour), time.Minute, extend)
		require.NoError(t, err)
		assert.Equal(t, 10*time.Hour, down)
		require.Len(t, changed, 1, "only the game with a clock changed")
		assert.Equal(t, "c-clock", changed[0].ChannelID)
		g, err := s.Game(t.Context(), "c-clock")
		require.NoError(t, err)
		assert.True(t, g.Deadline().Equal(t0.Add(82*time.Hour)), "the deadline moved by the outage: %v", g.Deadline())
		due := mustDue(t, s, t0.Add(50*time.Hour))
		require.Len(t, due, 1)
		assert.Equal(t, "c-clock", due[0].ChannelID)
		assert.True(t, due[0].At.Equal(t0.Add(46*time.Hour)), "the wake index moved too: the first reminder is at half the time, %v", due[0].At)

		down, changed, err = s.Resume(t.Context(), t0.Add(11*time.Hour+time.Second), time.Minute, extend)
		require.NoError(t, err)
		assert.Equal(t, time.Second, down, "resuming recorded the bot alive")
		assert.Empty(t, changed)
	})
	t.Run("a failing fn writes nothing", func(t *testing.T) {
		require.NoError(t, s.SetAlive(t.Context(), t0.Add(20*time.Hour)))
		_, _, err := s.Resume(t.Context(), t0.Add(30*time.Hour), time.Minute, func(*storage.Game, time.Duration) (bool, error) {
			return false, errors.New("disk says no")
		})
		require.ErrorContains(t, err, "disk says no")
		down, _, err := s.Resume(t.Context(), t0.Add(30*time.Hour), time.Hour, func(*storage.Game, time.Duration) (bool, error) { return false, nil })
		require.NoError(t, err)
		assert.Equal(t, 10*time.Hour, down, "the failed resume did not record the bot alive")
	})
	t.Run("fn may not end a game", func(t *testing.T) {
		require.NoError(t, s.SetAlive(t.Context(), t0.Add(40*time.Hour)))
		_, _, err := s.Resume(t.Context(), t0.Add(50*time.Hour), time.Minute, func(g *storage.Game, _ time.Duration) (bool, error) {
			return true, g.Abandon(t0.Add(50 * time.Hour))
		})
		assert.ErrorIs(t, err, storage.ErrInvalid)
		_, err = s.Game(t.Context(), "c-clock")
		assert.NoError(t, err, "the game is still active")
	})
}

// mustDue returns what is due at now.
func mustDue(tb testing.TB, s Store, now time.Time) []storage.Wake {
	tb.Helper()
	w, err := s.Due(tb.Context(), now)
	require.NoError(tb, err)
	return w
}

// testResumeInBatches: Resume changes the games in batches; one that
// fails leaves the batches before it written, and the next Resume
// finishes the interrupted outage before its own, so that every game gets
// each outage once, however the resume was cut.
func testResumeInBatches(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	const n = 2*storage.ResumeBatch + 3
	_, err := s.Import(t.Context(), func(_ context.Context, fn func(storage.Record) error) error {
		for i := range n {
			cfg := squareConfig(alice, bob)
			cfg.MoveTime = 72 * time.Hour
			g := mustNewGame(t, fmt.Sprintf("c%04d", i), cfg)
			g.ID = uint64(i + 1)
			if err := fn(storage.GameRecords.Record(g)); err != nil {
				return err
			}
		}
		return fn(storage.AliveRecords.Record(&[]time.Time{t0.Add(time.Hour)}[0]))
	})
	require.NoError(t, err)
	extend := func(g *storage.Game, down time.Duration) (bool, error) {
		if g.ChannelID == fmt.Sprintf("c%04d", storage.ResumeBatch+10) && down == 10*time.Hour {
			return false, errors.New("crash")
		}
		return true, g.Extend(down)
	}
	_, _, err = s.Resume(t.Context(), t0.Add(11*time.Hour), time.Minute, extend)
	require.ErrorContains(t, err, "crash")
	first, err := s.Game(t.Context(), "c0000")
	require.NoError(t, err)
	assert.True(t, first.Deadline().Equal(t0.Add(82*time.Hour)), "the first batch is written: %v", first.Deadline())
	cut, err := s.Game(t.Context(), fmt.Sprintf("c%04d", storage.ResumeBatch))
	require.NoError(t, err)
	assert.True(t, cut.Deadline().Equal(t0.Add(72*time.Hour)), "the failed batch is not: %v", cut.Deadline())
	// A move after the bot came back, in a game the resume had not reached:
	// its turn began after the outage, which is not given to it.
	moved := fmt.Sprintf("c%04d", storage.ResumeBatch+50)
	_, err = s.UpdateGame(t.Context(), moved, func(g *storage.Game) error {
		return g.Play(g.ToMove(), g.Ply(), mustCell(t, "D4"), t0.Add(11*time.Hour+30*time.Minute))
	})
	require.NoError(t, err)

	down, changed, err := s.Resume(t.Context(), t0.Add(12*time.Hour), time.Minute, func(g *storage.Game, down time.Duration) (bool, error) {
		return true, g.Extend(down)
	})
	require.NoError(t, err)
	assert.Equal(t, time.Hour, down, "the outage since the interrupted resume started")
	assert.Len(t, changed, n, "each game once, as it is now")
	for i := range n {
		g, err := s.Game(t.Context(), fmt.Sprintf("c%04d", i))
		require.NoError(t, err)
		if g.ChannelID == moved {
			assert.True(t, g.Deadline().Equal(t0.Add(84*time.Hour+30*time.Minute)), "the moved game got the second outage only: %v", g.Deadline())
			continue
		}
		require.True(t, g.Deadline().Equal(t0.Add(83*time.Hour)), "game %d got both outages once: %v", i, g.Deadline())
	}
	down, changed, err = s.Resume(t.Context(), t0.Add(12*time.Hour+time.Second), time.Minute, extend)
	require.NoError(t, err)
	assert.Equal(t, time.Second, down, "the resume recorded the bot alive")
	assert.Empty(t, changed)
}
