package storage

import (
	"errors"
	"fmt"
	"testing"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/rating"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// mustBoard returns the BoardMessageID of the active game of channel as
// Game reads it.
func mustBoard(tb testing.TB, s *Store, channel string) string {
	tb.Helper()
	g, err := s.Game(tb.Context(), channel)
	require.NoError(tb, err)
	return g.BoardMessageID
}

// storedBoard returns the BoardMessageID of the active game of channel as
// the file holds it, without the notes in memory.
func storedBoard(tb testing.TB, s *Store, channel string) string {
	tb.Helper()
	var r *gameRecord
	require.NoError(tb, s.db.View(func(tx *bolt.Tx) error {
		var err error
		r, err = get[gameRecord](tx.Bucket(bucketGames), []byte(channel), "game")
		return err
	}))
	return r.BoardMessageID
}

func TestNoteBoardIsSeenAndWrittenWithTheNextWrite(t *testing.T) {
	s := mustOpen(t, Options{})
	g := mustCreate(t, s, "c", alice, bob)
	commits := commitCount(t, s)

	require.NoError(t, s.NoteBoard(t.Context(), "c", g.ID, 0, "m0"))
	assert.Equal(t, "m0", mustBoard(t, s, "c"), "Game sees the note")
	assert.Empty(t, storedBoard(t, s, "c"), "the note is not written yet")
	assert.Equal(t, commits, commitCount(t, s), "NoteBoard commits nothing")

	// A write that fails leaves the note in place.
	boom := errors.New("boom")
	_, err := s.UpdateGame(t.Context(), "c", func(g *Game) error {
		assert.Equal(t, "m0", g.BoardMessageID, "the update function sees the note")
		return boom
	})
	require.ErrorIs(t, err, boom)
	assert.Equal(t, "m0", mustBoard(t, s, "c"))

	// The next write, a move, stores it: the game at ply 1 names the
	// board of ply 0, the previous board, until the new one is noted.
	var seen string
	g, err = s.UpdateGame(t.Context(), "c", func(g *Game) error {
		seen = g.BoardMessageID
		return play(g, mustCell(t, "D4"))
	})
	require.NoError(t, err)
	assert.Equal(t, "m0", seen, "the update function sees the note")
	assert.Equal(t, "m0", g.BoardMessageID)
	assert.Equal(t, "m0", storedBoard(t, s, "c"), "the note is written with the move")
	assert.Empty(t, s.boards.m, "a written note is forgotten")

	require.NoError(t, s.NoteBoard(t.Context(), "c", g.ID, 1, "m1"))
	require.NoError(t, s.NoteBoard(t.Context(), "c", g.ID, 1, "m1b"))
	assert.Equal(t, "m1b", mustBoard(t, s, "c"), "a later note replaces an earlier one")
	assert.Equal(t, "m0", storedBoard(t, s, "c"))
}

// TestNoteBoardOutOfDate checks that a move makes the note of an older
// board out of date: NoteBoard refuses that board, and a note that a move
// overtook (a move can commit between NoteBoard's check and its note) is
// never shown nor written.
func TestNoteBoardOutOfDate(t *testing.T) {
	s := mustOpen(t, Options{})
	g := mustCreate(t, s, "c", alice, bob)
	require.NoError(t, s.NoteBoard(t.Context(), "c", g.ID, 0, "m0"))
	mustPlay(t, s, "c", "D4")

	assert.ErrorIs(t, s.NoteBoard(t.Context(), "c", g.ID, 0, "late"), ErrNotFound, "the board of ply 0 is out of date")
	assert.Equal(t, "m0", mustBoard(t, s, "c"))

	// A note of ply 0 that the move to ply 1 overtook: NoteBoard checked
	// the game at ply 0, then the move committed, then the note was made.
	s.boards.note("c", boardNote{gameID: g.ID, ply: 0, messageID: "overtaken"})
	assert.Equal(t, "m0", mustBoard(t, s, "c"), "an overtaken note is not shown")
	mustPlay(t, s, "c", "D7")
	assert.Equal(t, "m0", storedBoard(t, s, "c"), "an overtaken note is not written")
	assert.Empty(t, s.boards.m, "a write drops an overtaken note")

	// The same for a note of another game of the channel.
	s.boards.note("c", boardNote{gameID: g.ID + 1, ply: 2, messageID: "other game"})
	assert.Equal(t, "m0", mustBoard(t, s, "c"))
	mustPlay(t, s, "c", "F7")
	assert.Equal(t, "m0", storedBoard(t, s, "c"))
}

// TestNoteBoardLostOnReopen documents NoteBoard's bargain: a note that no
// write stored is lost when the store is closed (a restart); one that a
// write stored is kept.
func TestNoteBoardLostOnReopen(t *testing.T) {
	s := mustOpen(t, Options{})
	path := s.Path()
	g := mustCreate(t, s, "kept", alice, bob)
	lost := mustCreate(t, s, "lost", carol, bob)
	require.NoError(t, s.NoteBoard(t.Context(), "kept", g.ID, 0, "m-kept"))
	require.NoError(t, s.NoteBoard(t.Context(), "lost", lost.ID, 0, "m-lost"))
	_, err := s.UpdateGame(t.Context(), "kept", func(g *Game) error {
		g.Rename(engine.Red, "Alice") // any write stores the note
		return nil
	})
	require.NoError(t, err)
	require.NoError(t, s.Close())

	s = mustOpenPath(t, path, Options{})
	assert.Equal(t, "m-kept", mustBoard(t, s, "kept"))
	assert.Empty(t, mustBoard(t, s, "lost"), "the note was never written")
}

// commitCount returns the number of write transactions committed to the
// file of s so far (Store.Commits).
func commitCount(tb testing.TB, s *Store) int {
	tb.Helper()
	n, err := s.Commits(tb.Context())
	require.NoError(tb, err)
	return int(n)
}

// TestOneCommitPerMove plays whole games as the bot does, reading the
// game, moving through UpdateGame and noting the new board with
// NoteBoard, and counts the write transactions: exactly one per move,
// the last move (which also finishes, rates and indexes the game)
// included.
func TestOneCommitPerMove(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			s := mustOpen(t, Options{})
			g := mustCreate(t, s, "c", alice, bob)
			r := engine.NewRand(seed)
			before, moves := commitCount(t, s), 0
			for {
				read, err := s.Game(t.Context(), "c")
				require.NoError(t, err)
				cell := randomMove(t, read.Game, &r)
				c, err := read.Seat(read.Player(read.ToMove()).UserID)
				require.NoError(t, err)
				moved, err := s.UpdateGame(t.Context(), "c", func(g *Game) error { return g.Play(c, read.Ply(), cell, moveTime(g.Ply())) })
				require.NoError(t, err)
				moves++
				if moved.Over() {
					break
				}
				require.NoError(t, s.NoteBoard(t.Context(), "c", moved.ID, moved.Ply(), fmt.Sprintf("m%d", moved.Ply())))
			}
			assert.Equal(t, moves, commitCount(t, s)-before, "commits for %d moves", moves)
			f, err := s.FinishedGame(t.Context(), guild, g.ID)
			require.NoError(t, err)
			assert.Equal(t, moves, f.Ply())
			assert.Equal(t, fmt.Sprintf("m%d", moves-1), f.BoardMessageID, "the last note rode on the last move")
			_, inSeason, err := s.SeasonLeaderboard(t.Context(), guild, rating.SeasonOf(f.Result().At), Human, 0, 10)
			require.NoError(t, err)
			assert.Equal(t, 2, inSeason, "the last move's one commit also counted the game in its season")
		})
	}
}
