package storagetest

import (
	"errors"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mustWakes returns every wake due at the end of time.
func mustWakes(tb testing.TB, s Store) []storage.Wake {
	tb.Helper()
	w, err := s.Due(tb.Context(), time.Unix(1<<40, 0))
	require.NoError(tb, err)
	return w
}

// newClockGame returns a game of squareConfig with moveTime for a move,
// begun at t0 in channel, not yet stored: it wakes at t0+moveTime/2 for
// the first reminder.
func newClockGame(tb testing.TB, channel string, moveTime time.Duration) *storage.Game {
	tb.Helper()
	cfg := squareConfig(alice, bob)
	cfg.MoveTime = moveTime
	return mustNewGame(tb, channel, cfg)
}

// testWakeOfBoardOwed: a game whose board is owed (BoardDue) is due then,
// if that is before its own wake; BoardDue is stored with the game and,
// cleared, gives the game back its own wake.
func testWakeOfBoardOwed(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	g := newClockGame(t, "g", 4*time.Hour) // wakes at t0+2h
	require.NoError(t, s.CreateGame(t.Context(), g))
	idle := mustCreate(t, s, "idle", carol, alice) // no clock, no wake
	require.True(t, idle.Wake().IsZero())

	owe := func(channel string, at time.Time) {
		t.Helper()
		_, err := s.UpdateGame(t.Context(), channel, func(g *storage.Game) error {
			g.BoardDue = at
			return nil
		})
		require.NoError(t, err)
	}
	owe("g", t0.Add(time.Minute))
	owe("idle", t0.Add(3*time.Hour))
	assert.Equal(t, []storage.Wake{
		{Kind: storage.WakeGame, ChannelID: "g", At: t0.Add(time.Minute)},
		{Kind: storage.WakeGame, ChannelID: "idle", At: t0.Add(3 * time.Hour)},
	}, utc(mustWakes(t, s)), "a board owed wakes a game, with or without a clock")
	got, err := s.Game(t.Context(), "g")
	require.NoError(t, err)
	assert.True(t, got.BoardDue.Equal(t0.Add(time.Minute)), "BoardDue is stored")

	owe("g", t0.Add(5*time.Hour))
	owe("idle", time.Time{})
	assert.Equal(t, []storage.Wake{
		{Kind: storage.WakeGame, ChannelID: "g", At: t0.Add(2 * time.Hour)},
	}, utc(mustWakes(t, s)), "the game's own wake when it comes first, or when nothing is owed")
}

// testWakeOfBoardEdit: a game whose board is due for an edit (BoardEdit)
// is due then, if that is before its own wake, with its board noted (the
// note keeps it: PostgreSQL's NoteBoard makes the wake noted_wake) or
// not; BoardEdit is stored with the game and, cleared or moved past its
// own wake, gives the game back its own wake.
func testWakeOfBoardEdit(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	g := newClockGame(t, "g", 4*time.Hour) // wakes at t0+2h
	require.NoError(t, s.CreateGame(t.Context(), g))
	idle := mustCreate(t, s, "idle", carol, alice) // no clock, no wake
	edit := func(channel string, at time.Time) {
		t.Helper()
		_, err := s.UpdateGame(t.Context(), channel, func(g *storage.Game) error {
			g.BoardEdit = at
			return nil
		})
		require.NoError(t, err)
	}
	edit("g", t0.Add(time.Minute))
	edit("idle", t0.Add(3*time.Hour))
	want := []storage.Wake{
		{Kind: storage.WakeGame, ChannelID: "g", At: t0.Add(time.Minute)},
		{Kind: storage.WakeGame, ChannelID: "idle", At: t0.Add(3 * time.Hour)},
	}
	assert.Equal(t, want, utc(mustWakes(t, s)), "a board due for an edit wakes a game, with or without a clock")
	require.NoError(t, s.NoteBoard(t.Context(), "g", g.ID, 0, "m0"))
	require.NoError(t, s.NoteBoard(t.Context(), "idle", idle.ID, 0, "m1"))
	due, err := s.Due(t.Context(), t0.Add(time.Minute))
	require.NoError(t, err)
	assert.Equal(t, want[:1], utc(due), "noted, the board is still due for its edit")
	got, err := s.Game(t.Context(), "g")
	require.NoError(t, err)
	assert.True(t, got.BoardEdit.Equal(t0.Add(time.Minute)), "BoardEdit is stored")
	assert.Equal(t, "m0", got.BoardMessageID)

	edit("g", t0.Add(5*time.Hour))
	edit("idle", time.Time{})
	assert.Equal(t, []storage.Wake{
		{Kind: storage.WakeGame, ChannelID: "g", At: t0.Add(2 * time.Hour)},
	}, utc(mustWakes(t, s)), "the game's own wake when it comes first, or when no edit is due")

	_, err = s.UpdateGame(t.Context(), "g", func(g *storage.Game) error {
		g.BoardEdit = t0.Add(time.Minute)
		return g.Resign(engine.Red, t0)
	})
	require.NoError(t, err)
	assert.Empty(t, mustWakes(t, s), "a game that ended has no board to edit")
}

// testBoardOwedPaidByNote: a board owed by the change that made the ply
// (BoardDue, set in its commit) is paid by the note of a board of that
// ply: the game is read with the board and nothing owed, is no longer due
// then, and wakes at its own wake; a note of another ply pays nothing.
func testBoardOwedPaidByNote(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	g := newClockGame(t, "g", 4*time.Hour) // wakes at t0+2h
	require.NoError(t, s.CreateGame(t.Context(), g))
	owed := t0.Add(time.Minute)
	_, err := s.UpdateGame(t.Context(), "g", func(g *storage.Game) error {
		g.BoardDue = owed
		return nil
	})
	require.NoError(t, err)
	require.ErrorIs(t, s.NoteBoard(t.Context(), "g", g.ID, 1, "m1"), storage.ErrNotFound, "a board of another ply")
	next, ok, err := s.NextWake(t.Context())
	require.NoError(t, err)
	require.True(t, ok)
	assert.True(t, next.Equal(owed), "owed: the game is due then")

	require.NoError(t, s.NoteBoard(t.Context(), "g", g.ID, 0, "m0"))
	got, err := s.Game(t.Context(), "g")
	require.NoError(t, err)
	assert.Equal(t, "m0", got.BoardMessageID)
	assert.True(t, got.BoardDue.IsZero(), "the note paid the board owed")
	due, err := s.Due(t.Context(), owed.Add(time.Hour))
	require.NoError(t, err)
	assert.Empty(t, due, "nothing is due before the game's own wake")
	next, ok, err = s.NextWake(t.Context())
	require.NoError(t, err)
	require.True(t, ok)
	assert.True(t, next.Equal(t0.Add(2*time.Hour)), "the game wakes at its own wake, not %v", next)

	_, err = s.UpdateGame(t.Context(), "g", func(g *storage.Game) error { return nil }) // a write stores the note
	require.NoError(t, err)
	assert.Equal(t, []storage.Wake{{Kind: storage.WakeGame, ChannelID: "g", At: t0.Add(2 * time.Hour)}}, utc(mustWakes(t, s)),
		"written, the game is indexed at its own wake")
}

// testFinalBoardOwed: the final board owed of a finished game (a board
// Discord failed) is stored with the game and makes it due then, as a
// WakeFinal named by its guild and ID, beside the active games' wakes;
// the board posted pays it.
func testFinalBoardOwed(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	f := mustGame(t, s, alice, bob, true, t0)
	g := newClockGame(t, "g", 4*time.Hour) // wakes at t0+2h
	require.NoError(t, s.CreateGame(t.Context(), g))
	assert.ErrorIs(t, s.SetFinalBoard(t.Context(), guild, f.ID+100, "", t0), storage.ErrNotFound)

	owed := t0.Add(time.Minute)
	require.NoError(t, s.SetFinalBoard(t.Context(), guild, f.ID, "", owed))
	assert.Equal(t, []storage.Wake{
		{Kind: storage.WakeFinal, ChannelID: storage.FinishedWake(guild, f.ID), At: owed},
		{Kind: storage.WakeGame, ChannelID: "g", At: t0.Add(2 * time.Hour)},
	}, utc(mustWakes(t, s)), "the final board owed is due then")
	next, ok, err := s.NextWake(t.Context())
	require.NoError(t, err)
	require.True(t, ok)
	assert.True(t, next.Equal(owed))
	got, err := s.FinishedGame(t.Context(), guild, f.ID)
	require.NoError(t, err)
	assert.True(t, got.BoardDue.Equal(owed), "the debt is stored with the game")
	gotGuild, gotID, err := storage.ParseFinishedWake(storage.FinishedWake(guild, f.ID))
	require.NoError(t, err)
	assert.Equal(t, guild, gotGuild)
	assert.Equal(t, f.ID, gotID)

	later := owed.Add(time.Minute)
	require.NoError(t, s.SetFinalBoard(t.Context(), guild, f.ID, "", later)) // failed again
	assert.Equal(t, []storage.Wake{
		{Kind: storage.WakeFinal, ChannelID: storage.FinishedWake(guild, f.ID), At: later},
		{Kind: storage.WakeGame, ChannelID: "g", At: t0.Add(2 * time.Hour)},
	}, utc(mustWakes(t, s)), "owed again, later")

	require.NoError(t, s.SetFinalBoard(t.Context(), guild, f.ID, "final-1", time.Time{}))
	assert.Equal(t, []storage.Wake{{Kind: storage.WakeGame, ChannelID: "g", At: t0.Add(2 * time.Hour)}}, utc(mustWakes(t, s)), "paid")
	got, err = s.FinishedGame(t.Context(), guild, f.ID)
	require.NoError(t, err)
	assert.Equal(t, "final-1", got.BoardMessageID)
	assert.True(t, got.BoardDue.IsZero())
}

func testWakeIndex(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	_, ok, err := s.NextWake(t.Context())
	require.NoError(t, err)
	assert.False(t, ok, "nothing scheduled")

	g := newClockGame(t, "g", 4*time.Hour) // wakes at t0+2h
	require.NoError(t, s.CreateGame(t.Context(), g))
	c := newChallenge("c", carol, bob) // wakes at t0+1h
	require.NoError(t, s.CreateChallenge(t.Context(), c))
	mustCreate(t, s, "idle", carol, alice) // no clock, no wake

	next, ok, err := s.NextWake(t.Context())
	require.NoError(t, err)
	require.True(t, ok)
	assert.True(t, next.Equal(t0.Add(time.Hour)))
	assert.Equal(t, []storage.Wake{
		{Kind: storage.WakeChallenge, ChannelID: "c", At: t0.Add(time.Hour)},
		{Kind: storage.WakeGame, ChannelID: "g", At: t0.Add(2 * time.Hour)},
	}, utc(mustWakes(t, s)))

	due, err := s.Due(t.Context(), t0.Add(time.Hour))
	require.NoError(t, err)
	require.Len(t, due, 1, "a wake at now is due")
	assert.Equal(t, storage.WakeChallenge, due[0].Kind)
	assert.Equal(t, "c", due[0].ChannelID)
	assert.True(t, due[0].At.Equal(t0.Add(time.Hour)))
	due, err = s.Due(t.Context(), t0.Add(time.Hour-1))
	require.NoError(t, err)
	assert.Empty(t, due)

	// Moving a wake leaves no trace of the old one: the first reminder
	// is sent, the next is due with a tenth of the time left.
	_, err = s.UpdateGame(t.Context(), "g", func(g *storage.Game) error { return g.Remind(t0.Add(2 * time.Hour)) })
	require.NoError(t, err)
	_, err = s.UpdateChallenge(t.Context(), "c", func(c *storage.Challenge) error {
		c.Expires = t0.Add(3 * time.Hour) // the challenge wakes when it expires
		return nil
	})
	require.NoError(t, err)
	secondReminder := t0.Add(4*time.Hour - 24*time.Minute)
	assert.Equal(t, []storage.Wake{
		{Kind: storage.WakeChallenge, ChannelID: "c", At: t0.Add(3 * time.Hour)},
		{Kind: storage.WakeGame, ChannelID: "g", At: secondReminder},
	}, utc(mustWakes(t, s)))

	// A failed update keeps the wake as it was.
	boom := errors.New("boom")
	_, err = s.UpdateGame(t.Context(), "g", func(g *storage.Game) error {
		require.NoError(t, g.Remind(t0.Add(4*time.Hour)))
		return boom
	})
	require.ErrorIs(t, err, boom)
	assert.Len(t, mustWakes(t, s), 2)

	// A move starts the opponent's clock: their first reminder.
	_, err = s.UpdateGame(t.Context(), "g", func(g *storage.Game) error { return g.Play(engine.Red, 0, mustCell(t, "D4"), t0.Add(3*time.Hour)) })
	require.NoError(t, err)
	assert.Equal(t, []storage.Wake{
		{Kind: storage.WakeChallenge, ChannelID: "c", At: t0.Add(3 * time.Hour)},
		{Kind: storage.WakeGame, ChannelID: "g", At: t0.Add(5 * time.Hour)},
	}, utc(mustWakes(t, s)))

	// Clearing, finishing and withdrawing remove wakes.
	_, err = s.UpdateChallenge(t.Context(), "c", func(c *storage.Challenge) error {
		c.Expires = time.Time{} // a challenge without expiry never wakes
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []storage.Wake{{Kind: storage.WakeGame, ChannelID: "g", At: t0.Add(5 * time.Hour)}}, utc(mustWakes(t, s)))
	mustFinish(t, s, "g", game.Aborted, engine.Red, t0.Add(4*time.Hour))
	assert.Empty(t, mustWakes(t, s))
	_, ok, err = s.NextWake(t.Context())
	require.NoError(t, err)
	assert.False(t, ok)
}

// TestWakeOfComputer checks that a game wakes game.ComputerGrace after
// the computer's turn began, so that a move lost to a restart is made.
func testWakeOfComputer(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	cfg := squareConfig(alice, easyAI)
	cfg.MoveTime = time.Hour
	require.NoError(t, s.CreateGame(t.Context(), mustNewGame(t, "c", cfg)))
	assert.Equal(t, []storage.Wake{{Kind: storage.WakeGame, ChannelID: "c", At: t0.Add(30 * time.Minute)}}, utc(mustWakes(t, s)), "alice's first reminder")

	mustPlay(t, s, "c", "D4")
	assert.Equal(t, []storage.Wake{{Kind: storage.WakeGame, ChannelID: "c", At: moveTime(0).Add(game.ComputerGrace)}}, utc(mustWakes(t, s)), "the computer's turn")

	mustPlay(t, s, "c", "D7")
	assert.Equal(t, []storage.Wake{{Kind: storage.WakeGame, ChannelID: "c", At: moveTime(1).Add(30 * time.Minute)}}, utc(mustWakes(t, s)), "alice's turn again")
}

func testWakeRemovedWithChallenge(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	c := newChallenge("c", alice, bob)
	require.NoError(t, s.CreateChallenge(t.Context(), c))
	require.NoError(t, s.DeleteChallenge(t.Context(), "c", c.ID))
	assert.Empty(t, mustWakes(t, s))

	c = newChallenge("c", alice, bob)
	require.NoError(t, s.CreateChallenge(t.Context(), c))
	g := newClockGame(t, "c", 20*time.Minute) // not live (game.LiveLimit): it has reminders
	require.NoError(t, s.AcceptChallenge(t.Context(), "c", c.ID, g))
	assert.Equal(t, []storage.Wake{{Kind: storage.WakeGame, ChannelID: "c", At: t0.Add(10 * time.Minute)}}, utc(mustWakes(t, s)))
}

// utc returns w with times in UTC, to compare with the tests' times.
func utc(w []storage.Wake) []storage.Wake {
	for i := range w {
		w[i].At = w[i].At.UTC()
	}
	return w
}
