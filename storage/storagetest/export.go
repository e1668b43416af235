package storagetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/puzzle"
	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Fill stores one record of every kind in s, for tests that copy stores: active games (one with a
// clock and a noted board), a challenge, finished games with ratings and
// history on both ladders, a review, settings, a vacation under way, the
// time alive and the records of the puzzles (fillPuzzles).
func Fill(tb testing.TB, s Store) {
	tb.Helper()
	cfg := squareConfig(alice, bob)
	cfg.MoveTime = 4 * time.Hour
	g := mustNewGame(tb, "clock", cfg)
	require.NoError(tb, s.CreateGame(tb.Context(), g))
	mustPlay(tb, s, "clock", "D4")
	require.NoError(tb, s.NoteBoard(tb.Context(), "clock", g.ID, 1, "board-1"))
	mustCreate(tb, s, "ai", carol, easyAI)
	require.NoError(tb, s.CreateChallenge(tb.Context(), newChallenge("chal", carol, bob)))
	f := mustGame(tb, s, alice, carol, true, t0.Add(time.Hour))
	mustGame(tb, s, bob, hardAI, false, t0.Add(2*time.Hour))
	mustCreate(tb, s, "aborted", bob, carol)
	mustFinish(tb, s, "aborted", game.Aborted, engine.Red, t0.Add(3*time.Hour))
	require.NoError(tb, s.SaveReview(tb.Context(), guild, f.ID, []byte(`{"version":1,"moves":[]}`)))
	_, err := s.UpdateGuildSettings(tb.Context(), guild, func(g *storage.GuildSettings) error {
		g.Threads, g.MoveTime = true, 24*time.Hour
		return nil
	})
	require.NoError(tb, err)
	_, err = s.UpdateUserSettings(tb.Context(), alice.UserID, func(u *storage.UserSettings) error {
		u.DMReminders = true
		return nil
	})
	require.NoError(tb, err)
	_, _, err = s.UpdateVacation(tb.Context(), carol.UserID, func(v *storage.Vacation, games []*storage.Game) error {
		v.Vacation = game.NewVacation(t0, game.VacationCap)
		if err := v.Start(t0.Add(time.Hour), game.VacationCap); err != nil {
			return err
		}
		for _, g := range games {
			c, err := g.Seat(carol.UserID)
			if err != nil {
				return err
			}
			if err := g.Away(c, t0.Add(time.Hour)); err != nil {
				return err
			}
		}
		return nil
	})
	require.NoError(tb, err)
	require.NoError(tb, s.SetAlive(tb.Context(), t0.Add(4*time.Hour)))
	fillPuzzles(tb, s)
}

// fillPuzzles stores the records of the puzzles: a set of three, the
// daily puzzle solved by one player who is on a guild's puzzle
// leaderboard, another's attempt that failed, an attempt under way, and
// the daily post in a guild.
func fillPuzzles(tb testing.TB, s Store) {
	tb.Helper()
	ctx := tb.Context()
	mustLoad(tb, s, somePuzzles(tb, 3, 1400))
	day := puzzle.Day(t0)
	d, err := s.DailyPuzzle(ctx, day)
	require.NoError(tb, err)
	attempt(tb, s, alice.UserID, alice.Name, guild, d.PuzzleID, day, true, t0.Add(time.Hour))
	attempt(tb, s, bob.UserID, bob.Name, "", d.PuzzleID, day, false, t0.Add(2*time.Hour))
	next, err := s.NextPuzzle(ctx, alice.UserID)
	require.NoError(tb, err)
	require.NoError(tb, s.StartPuzzle(ctx, &storage.PuzzleTry{UserID: alice.UserID, PuzzleID: next.ID(), Moves: []string{"a1"}, Started: t0.Add(3 * time.Hour)}))
	ok, err := s.ClaimDailyPost(ctx, guild, day, "puzzles")
	require.NoError(tb, err)
	require.True(tb, ok)
	require.NoError(tb, s.NoteDailyPost(ctx, guild, day, "daily-1"))
}

// testExportImport copies a store with every kind of record into a new
// one: Compare finds every record equal, and the copy works on as the
// original would (IDs go on after the copied ones, the wake index and the
// noted board came along).
func testExportImport(t *testing.T, open Open) {
	src := open(t, storage.Options{})
	Fill(t, src)
	dst := open(t, storage.Options{})
	n, err := dst.Import(t.Context(), src.Export)
	require.NoError(t, err)
	want := map[string]int{
		"game": 2, "challenge": 1, "finished game": 3, "history entry": 6, "profile": 4,
		"guild settings": 1, "user settings": 1, "vacation": 3, "review": 1, "alive": 1, "sequence": 2, // every player's bank opened by their first game
		"season profile": 4,
		"puzzle":         3, "puzzle set": 1, "puzzle profile": 2, "puzzle attempt": 2, "puzzle under way": 1,
		"daily puzzle": 1, "daily post": 1,
	}
	assert.Equal(t, want, n)

	got, err := storage.Compare(t.Context(), src, dst)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	g, err := dst.Game(t.Context(), "clock")
	require.NoError(t, err)
	assert.Equal(t, "board-1", g.BoardMessageID)
	wakes, err := dst.Due(t.Context(), t0.Add(24*time.Hour))
	require.NoError(t, err)
	srcWakes, err := src.Due(t.Context(), t0.Add(24*time.Hour))
	require.NoError(t, err)
	assert.Len(t, wakes, 2, "the clocked game and the challenge")
	assert.Equal(t, utc(srcWakes), utc(wakes))
	next := mustCreate(t, dst, "new", alice, bob)
	assert.Equal(t, uint64(6), next.ID, "IDs go on after the copied ones")
	lb, total, err := dst.Leaderboard(t.Context(), guild, storage.Human, 0, 10)
	require.NoError(t, err)
	assert.Equal(t, 2, total)
	assert.Equal(t, carol.UserID, lb[0].UserID)
	checkPuzzlesCopied(t, dst)

	// A changed record is found.
	_, err = dst.UpdateGame(t.Context(), "clock", func(g *storage.Game) error { return play(g, mustCell(t, "D7")) })
	require.NoError(t, err)
	_, err = storage.Compare(t.Context(), src, dst)
	assert.ErrorContains(t, err, `the game "clock" differs`)
	_, err = storage.Compare(t.Context(), src, open(t, storage.Options{}))
	assert.ErrorContains(t, err, "only in the first store")
}

// checkPuzzlesCopied checks that the puzzles of fillPuzzles work on in
// the copy s: the set is not loaded again, the puzzle leaderboard and the
// attempt under way came along, an attempt that ended keeps its puzzle
// from the player, and the daily post went out.
func checkPuzzlesCopied(t *testing.T, s Store) {
	ctx := t.Context()
	assert.Zero(t, mustLoad(t, s, somePuzzles(t, 3, 1400)), "the set is loaded already")
	day := puzzle.Day(t0)
	d, err := s.DailyPuzzle(ctx, day)
	require.NoError(t, err)
	assert.Equal(t, 1, d.Solved)
	lb, total, err := s.PuzzleLeaderboard(ctx, guild, nil, false, 10)
	require.NoError(t, err)
	assert.Equal(t, 1, total)
	require.Len(t, lb, 1)
	assert.Equal(t, alice.UserID, lb[0].UserID)
	_, total, err = s.PuzzleLeaderboard(ctx, "", nil, false, 10)
	require.NoError(t, err)
	assert.Equal(t, 1, total, "bob, everywhere")
	try, err := s.PuzzleTry(ctx, alice.UserID)
	require.NoError(t, err)
	assert.Equal(t, []string{"a1"}, try.Moves)
	next, err := s.NextPuzzle(ctx, bob.UserID)
	require.NoError(t, err)
	assert.NotEqual(t, d.PuzzleID, next.ID(), "bob tried the daily")
	p, err := s.DailyPost(ctx, guild, day)
	require.NoError(t, err)
	assert.Equal(t, "daily-1", p.MessageID)
	ok, err := s.ClaimDailyPost(ctx, guild, day, "puzzles")
	require.NoError(t, err)
	assert.False(t, ok, "posted before the copy")
}

// testImportRefusesNonEmpty: Import writes only into an empty store, and
// a refused import writes nothing.
func testImportRefusesNonEmpty(t *testing.T, open Open) {
	src := open(t, storage.Options{})
	Fill(t, src)
	dst := open(t, storage.Options{})
	mustCreate(t, dst, "mine", carol, alice)
	_, err := dst.Import(t.Context(), src.Export)
	assert.ErrorIs(t, err, storage.ErrInvalid)
	assert.ErrorContains(t, err, `the store is not empty (it holds the game "mine"); import into a new one`)
	assert.Equal(t, map[string]int{"game": 1, "sequence": 1, "vacation": 2}, counts(t, dst), "the game and its players' banks")
}

// testImportRefusesEmptyRecord: a Record made by no kind is refused, and
// nothing of the import is written.
func testImportRefusesEmptyRecord(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	_, err := s.Import(t.Context(), func(_ context.Context, fn func(storage.Record) error) error {
		if err := fn(storage.UserSettingsRecords.Record(&storage.UserSettingsEntry{UserID: "1"})); err != nil {
			return err
		}
		return fn(storage.Record{})
	})
	assert.ErrorIs(t, err, storage.ErrInvalid)
	assert.ErrorContains(t, err, "an empty record")
	assert.Empty(t, counts(t, s))
}

// testNoteBoard: a noted board is seen by the next read and kept by the
// next write; a note of a board that is not the game's current one is
// refused.
func testNoteBoard(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	g := mustCreate(t, s, "c", alice, bob)
	mustPlay(t, s, "c", "D4", "D7")
	finished := mustCreate(t, s, "done", carol, bob)
	mustFinish(t, s, "done", game.Aborted, engine.Red, t0)

	tests := []struct {
		name    string
		channel string
		id      uint64
		ply     int
		msg     string
	}{
		{"another game", "c", finished.ID, 2, "game 2 at ply 2"},
		{"an earlier ply", "c", g.ID, 1, "game 1 at ply 1"},
		{"a later ply", "c", g.ID, 3, "game 1 at ply 3"},
		{"a finished game", "done", finished.ID, 0, "channel done"},
		{"no game", "nowhere", 1, 0, "channel nowhere"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.NoteBoard(t.Context(), tt.channel, tt.id, tt.ply, "m")
			assert.ErrorIs(t, err, storage.ErrNotFound)
			assert.ErrorContains(t, err, tt.msg)
		})
	}
	assert.Empty(t, mustBoard(t, s, "c"), "nothing was noted")

	require.NoError(t, s.NoteBoard(t.Context(), "c", g.ID, 2, "m2"))
	assert.Equal(t, "m2", mustBoard(t, s, "c"))
	var seen string
	moved, err := s.UpdateGame(t.Context(), "c", func(g *storage.Game) error {
		seen = g.BoardMessageID
		return play(g, mustCell(t, "F7"))
	})
	require.NoError(t, err)
	assert.Equal(t, "m2", seen, "the update function sees the note")
	assert.Equal(t, "m2", moved.BoardMessageID, "the previous board, until the new one is noted")
	assert.ErrorIs(t, s.NoteBoard(t.Context(), "c", g.ID, 2, "late"), storage.ErrNotFound, "the board of ply 2 is out of date")
	assert.Equal(t, "m2", mustBoard(t, s, "c"))
}

// mustBoard returns the BoardMessageID of the active game of channel.
func mustBoard(tb testing.TB, s Store, channel string) string {
	tb.Helper()
	g, err := s.Game(tb.Context(), channel)
	require.NoError(tb, err)
	return g.BoardMessageID
}

// testImportInBatches: an import of more records than one batch holds
// writes them all, and the copy compares equal.
func testImportInBatches(t *testing.T, open Open) {
	src := open(t, storage.Options{})
	const n = 2*storage.ImportBatch + 1
	_, err := src.Import(t.Context(), func(_ context.Context, fn func(storage.Record) error) error {
		for i := range n {
			if err := fn(storage.UserSettingsRecords.Record(&storage.UserSettingsEntry{UserID: fmt.Sprint(1000 + i), Settings: storage.UserSettings{DMReminders: i%2 == 0}})); err != nil {
				return err
			}
		}
		return nil
	})
	require.NoError(t, err)
	dst := open(t, storage.Options{})
	copied, err := dst.Import(t.Context(), src.Export)
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"user settings": n}, copied)
	compared, err := storage.Compare(t.Context(), src, dst)
	require.NoError(t, err)
	assert.Equal(t, copied, compared)
	u, err := dst.UserSettings(t.Context(), fmt.Sprint(1000+n-1))
	require.NoError(t, err)
	assert.True(t, u.DMReminders, "the last record, of the last batch")
}

// CopyAcross copies a store with every kind of record (Fill) from one
// backend into another and back, as kulamibot migrate does: each copy
// compares equal to the original, and the copy made by the other backend
// works on as the original would (checkPuzzlesCopied).
func CopyAcross(t *testing.T, from, into Open) {
	src := from(t, storage.Options{})
	Fill(t, src)
	there := into(t, storage.Options{})
	copied, err := there.Import(t.Context(), src.Export)
	require.NoError(t, err)
	compared, err := storage.Compare(t.Context(), src, there)
	require.NoError(t, err)
	assert.Equal(t, copied, compared)
	checkPuzzlesCopied(t, there)

	back := from(t, storage.Options{})
	_, err = back.Import(t.Context(), there.Export)
	require.NoError(t, err)
	_, err = storage.Compare(t.Context(), there, back)
	assert.NoError(t, err, "the way back changes nothing")
}
