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

// extend is what a bot's resume does to a game: the clock of the player
// to move, if one runs, gets down more.
func extend(g *storage.Game, down time.Duration) (bool, error) {
	if err := g.Extend(down); errors.Is(err, game.ErrNotDue) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return true, nil
}

// resume begins a resume at now (BeginResume, minDown, 10 reminders a
// second) and, if one is under way, runs it (Resume) with fn: what a bot
// does when it starts, all at once. It returns how long the bot was down
// and how many games fn changed.
func resume(tb testing.TB, s Store, now time.Time, minDown time.Duration, fn func(*storage.Game, time.Duration) (bool, error)) (time.Duration, int, error) {
	tb.Helper()
	down, under, err := s.BeginResume(tb.Context(), now, minDown, 10)
	if err != nil || !under {
		return down, 0, err
	}
	n, err := s.Resume(tb.Context(), fn)
	return down, n, err
}

func testResume(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	cfg := squareConfig(alice, bob)
	cfg.MoveTime = 72 * time.Hour
	require.NoError(t, s.CreateGame(t.Context(), mustNewGame(t, "c-clock", cfg)))
	mustCreate(t, s, "c-free", bob, carol) // no clock

	t.Run("first start", func(t *testing.T) {
		down, changed, err := resume(t, s, t0, time.Minute, extend)
		require.NoError(t, err)
		assert.Zero(t, down, "a bot that never ran was not down")
		assert.Zero(t, changed)
	})
	t.Run("a short restart changes nothing", func(t *testing.T) {
		down, changed, err := resume(t, s, t0.Add(30*time.Second), time.Minute, func(*storage.Game, time.Duration) (bool, error) {
			t.Error("fn called for an outage under minDown")
			return false, nil
		})
		require.NoError(t, err)
		assert.Equal(t, 30*time.Second, down)
		assert.Zero(t, changed)
	})
	t.Run("an outage is given to every game once", func(t *testing.T) {
		require.NoError(t, s.SetAlive(t.Context(), t0.Add(time.Hour)))
		down, changed, err := resume(t, s, t0.Add(11*time.Hour), time.Minute, extend)
		require.NoError(t, err)
		assert.Equal(t, 10*time.Hour, down)
		assert.Equal(t, 1, changed, "only the game with a clock changed")
		g, err := s.Game(t.Context(), "c-clock")
		require.NoError(t, err)
		assert.True(t, g.Deadline().Equal(t0.Add(82*time.Hour)), "the deadline moved by the outage: %v", g.Deadline())
		require.NotNil(t, g.GivenBack, "marked with the resume")
		assert.True(t, g.GivenBack.At.Equal(t0.Add(11*time.Hour)))
		assert.Equal(t, 10*time.Hour, g.GivenBack.Down)
		due := mustDue(t, s, t0.Add(11*time.Hour))
		require.Len(t, due, 1, "the reminder of the time given back is due work")
		assert.Equal(t, "c-clock", due[0].ChannelID)
		d, ok := g.OutageReminder(t0.Add(11 * time.Hour))
		assert.True(t, ok)
		assert.Equal(t, 10*time.Hour, d)
		free, err := s.Game(t.Context(), "c-free")
		require.NoError(t, err)
		assert.Nil(t, free.GivenBack, "no clock, nothing given, nothing to remind")

		_, err = s.UpdateGame(t.Context(), "c-clock", func(g *storage.Game) error { g.Reminded(); return nil })
		require.NoError(t, err)
		due = mustDue(t, s, t0.Add(50*time.Hour))
		require.Len(t, due, 1)
		assert.True(t, due[0].At.Equal(t0.Add(46*time.Hour)), "the wake index moved too: the first reminder is at half the time, %v", due[0].At)

		down, changed, err = resume(t, s, t0.Add(11*time.Hour+time.Second), time.Minute, extend)
		require.NoError(t, err)
		assert.Equal(t, time.Second, down, "resuming recorded the bot alive")
		assert.Zero(t, changed)
		r, err := s.Resuming(t.Context())
		require.NoError(t, err)
		assert.Nil(t, r, "no resume under way")
	})
	t.Run("a failing fn writes nothing", func(t *testing.T) {
		require.NoError(t, s.SetAlive(t.Context(), t0.Add(20*time.Hour)))
		_, _, err := resume(t, s, t0.Add(30*time.Hour), time.Minute, func(*storage.Game, time.Duration) (bool, error) {
			return false, errors.New("disk says no")
		})
		require.ErrorContains(t, err, "disk says no")
		g, err := s.Game(t.Context(), "c-clock")
		require.NoError(t, err)
		assert.True(t, g.Deadline().Equal(t0.Add(82*time.Hour)), "not given: %v", g.Deadline())
		n, err := s.Resume(t.Context(), extend)
		require.NoError(t, err)
		assert.Equal(t, 1, n, "the resume under way is finished by the next Resume")
		g, err = s.Game(t.Context(), "c-clock")
		require.NoError(t, err)
		assert.True(t, g.Deadline().Equal(t0.Add(92*time.Hour)), "given once: %v", g.Deadline())
	})
	t.Run("fn may not end a game", func(t *testing.T) {
		require.NoError(t, s.SetAlive(t.Context(), t0.Add(40*time.Hour)))
		_, _, err := resume(t, s, t0.Add(50*time.Hour), time.Minute, func(g *storage.Game, _ time.Duration) (bool, error) {
			return true, g.Abandon(t0.Add(50 * time.Hour))
		})
		assert.ErrorIs(t, err, storage.ErrInvalid)
		_, err = s.Game(t.Context(), "c-clock")
		assert.NoError(t, err, "the game is still active")
	})
	t.Run("a negative pace is refused", func(t *testing.T) {
		_, _, err := s.BeginResume(t.Context(), t0.Add(60*time.Hour), time.Minute, -1)
		assert.ErrorIs(t, err, storage.ErrInvalid)
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
	crash := func(g *storage.Game, down time.Duration) (bool, error) {
		if g.ChannelID == fmt.Sprintf("c%04d", storage.ResumeBatch+10) {
			return false, errors.New("crash")
		}
		return true, g.Extend(down)
	}
	_, _, err = resume(t, s, t0.Add(11*time.Hour), time.Minute, crash)
	require.ErrorContains(t, err, "crash")
	first, err := s.Game(t.Context(), "c0000")
	require.NoError(t, err)
	assert.True(t, first.Deadline().Equal(t0.Add(82*time.Hour)), "the first batch is written: %v", first.Deadline())
	cut, err := s.Game(t.Context(), fmt.Sprintf("c%04d", storage.ResumeBatch))
	require.NoError(t, err)
	assert.True(t, cut.Deadline().Equal(t0.Add(72*time.Hour)), "the failed batch is not: %v", cut.Deadline())
	// A move after the bot came back, in a game the resume had not reached:
	// its turn began after the outage, which is not given to it.
	moved := fmt.Sprintf("c%04d", storage.ResumeBatch+15)
	_, err = s.UpdateGame(t.Context(), moved, func(g *storage.Game) error {
		return g.Play(g.ToMove(), g.Ply(), mustCell(t, "D4"), t0.Add(11*time.Hour+30*time.Minute))
	})
	require.NoError(t, err)

	down, changed, err := resume(t, s, t0.Add(12*time.Hour), time.Minute, extend)
	require.NoError(t, err)
	assert.Equal(t, time.Hour, down, "the outage since the interrupted resume started")
	assert.Equal(t, n, changed, "each game once, with what it is owed")
	for i := range n {
		g, err := s.Game(t.Context(), fmt.Sprintf("c%04d", i))
		require.NoError(t, err)
		if g.ChannelID == moved {
			assert.True(t, g.Deadline().Equal(t0.Add(84*time.Hour+30*time.Minute)), "the moved game got the second outage only: %v", g.Deadline())
			continue
		}
		require.True(t, g.Deadline().Equal(t0.Add(83*time.Hour)), "game %d got both outages once: %v", i, g.Deadline())
		require.NotNil(t, g.GivenBack)
		assert.Equal(t, 11*time.Hour, g.GivenBack.Down, "game %d: one reminder says both outages (the first was not sent)", i)
	}
	down, changed, err = resume(t, s, t0.Add(12*time.Hour+time.Second), time.Minute, extend)
	require.NoError(t, err)
	assert.Equal(t, time.Second, down, "the resume recorded the bot alive")
	assert.Zero(t, changed)
}
