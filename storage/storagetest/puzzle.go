package storagetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/puzzle"
	"github.com/kulami/kulami/storage"
)

// somePuzzles returns the first n shipped puzzles with the starting
// ratings given in turn (the ratings cycle), so that a test knows which
// is nearest what.
func somePuzzles(tb testing.TB, n int, ratings ...int) []puzzle.JSON {
	tb.Helper()
	ps, err := puzzle.Shipped()
	require.NoError(tb, err)
	require.GreaterOrEqual(tb, len(ps), n)
	out := make([]puzzle.JSON, n)
	for i := range out {
		out[i] = ps[i].ToJSON()
		if len(ratings) > 0 {
			out[i].Rating = ratings[i%len(ratings)]
		}
	}
	return out
}

// mustLoad loads ps into s.
func mustLoad(tb testing.TB, s Store, ps []puzzle.JSON) int {
	tb.Helper()
	n, err := s.LoadPuzzles(tb.Context(), ps)
	require.NoError(tb, err)
	return n
}

// attempt runs a whole attempt of user at the puzzle id: started, one
// move advanced, and finished, solved or not; it returns the outcome.
func attempt(tb testing.TB, s Store, user, name, guild, id, daily string, solved bool, at time.Time) *storage.PuzzleOutcome {
	tb.Helper()
	ctx := tb.Context()
	require.NoError(tb, s.StartPuzzle(ctx, &storage.PuzzleTry{UserID: user, PuzzleID: id, Daily: daily, Started: at}))
	require.NoError(tb, s.AdvancePuzzle(ctx, 0, &storage.PuzzleTry{UserID: user, PuzzleID: id, Daily: daily, Moves: []string{"a1", "b2"}, Started: at}))
	o, err := s.FinishPuzzle(ctx, storage.PuzzleResult{UserID: user, Name: name, GuildID: guild, PuzzleID: id, Step: 2, Solved: solved, At: at})
	require.NoError(tb, err)
	return o
}

// testLoadPuzzles: a set is loaded once; loaded again it changes
// nothing; a puzzle whose content changed takes the new content and
// keeps its rating.
func testLoadPuzzles(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	_, err := s.NextPuzzle(ctx, alice.UserID)
	assert.ErrorIs(t, err, storage.ErrNotFound, "no puzzle stored yet")

	ps := somePuzzles(t, 20)
	assert.Equal(t, 20, mustLoad(t, s, ps))
	assert.Zero(t, mustLoad(t, s, ps), "the same set again loads nothing")
	e, err := s.Puzzle(ctx, ps[3].ID)
	require.NoError(t, err)
	assert.Equal(t, ps[3], e.Puzzle)
	assert.Equal(t, storage.PuzzleHash(ps[3]), e.Hash)
	assert.Equal(t, puzzle.StartRating(ps[3].Rating), e.Rating)

	o := attempt(t, s, alice.UserID, "alice", "g1", ps[3].ID, "", true, t0)
	require.True(t, o.Counted)
	moved, err := s.Puzzle(ctx, ps[3].ID)
	require.NoError(t, err)

	changed := append([]puzzle.JSON(nil), ps...)
	changed[3].Source = "game 7"
	assert.Equal(t, 1, mustLoad(t, s, changed), "one puzzle changed")
	e, err = s.Puzzle(ctx, ps[3].ID)
	require.NoError(t, err)
	assert.Equal(t, "game 7", e.Puzzle.Source)
	assert.Equal(t, moved.Rating, e.Rating, "a new version keeps the rating")
	assert.Equal(t, 1, e.Attempts)

	_, err = s.Puzzle(ctx, "000000000000")
	assert.ErrorIs(t, err, storage.ErrNotFound)
}

// testLoadPuzzlesAtOnce: two loads of one set at once load it once.
func testLoadPuzzlesAtOnce(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ps := somePuzzles(t, 30)
	var wg sync.WaitGroup
	loaded := make([]int, 2)
	for i := range loaded {
		wg.Go(func() {
			n, err := s.LoadPuzzles(t.Context(), ps)
			assert.NoError(t, err)
			loaded[i] = n
		})
	}
	wg.Wait()
	assert.Equal(t, 30, loaded[0]+loaded[1], "every puzzle loaded once: %v", loaded)
}

// testNextPuzzle: the next puzzle is the one nearest the player's rating
// that they never tried; once they tried all, the nearest of all.
func testNextPuzzle(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	ps := somePuzzles(t, 5, 1100, 1400, 1550, 1700, 2000)
	mustLoad(t, s, ps)
	next := func() string {
		t.Helper()
		e, err := s.NextPuzzle(ctx, alice.UserID)
		require.NoError(t, err)
		return e.ID()
	}
	assert.Equal(t, ps[2].ID, next(), "1550 is nearest a new player's 1500")
	seen := map[string]bool{}
	for range ps {
		id := next()
		assert.False(t, seen[id], "puzzle %s again while others remain", id)
		seen[id] = true
		attempt(t, s, alice.UserID, "alice", "g1", id, "", false, t0)
	}
	assert.Len(t, seen, len(ps))
	p, err := s.PuzzleProfile(ctx, alice.UserID)
	require.NoError(t, err)
	e, err := s.NextPuzzle(ctx, alice.UserID)
	require.NoError(t, err, "tried them all: one comes again")
	assert.Less(t, p.Rating.Rating, 1500.0, "five failures")
	assert.Equal(t, ps[0].ID, e.ID(), "the nearest of all to her low rating")

	o := attempt(t, s, alice.UserID, "alice", "g1", e.ID(), "", true, t0)
	assert.False(t, o.Counted, "a puzzle tried again does not count")
	assert.Equal(t, o.Before, o.After)
	assert.Equal(t, 5, o.Profile.Attempts)
}

// testFinishPuzzle: an attempt moves both ratings the right way, the
// streak, the counts; a step that is not the attempt's is refused.
func testFinishPuzzle(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	ps := somePuzzles(t, 4, 1400)
	mustLoad(t, s, ps)

	assert.ErrorIs(t, s.StartPuzzle(ctx, &storage.PuzzleTry{UserID: alice.UserID, PuzzleID: "000000000000"}), storage.ErrNotFound)
	require.NoError(t, s.StartPuzzle(ctx, &storage.PuzzleTry{UserID: alice.UserID, PuzzleID: ps[0].ID, Started: t0}))
	try, err := s.PuzzleTry(ctx, alice.UserID)
	require.NoError(t, err)
	assert.Equal(t, ps[0].ID, try.PuzzleID)
	assert.Equal(t, 0, try.Step())
	assert.ErrorIs(t, s.AdvancePuzzle(ctx, 2, &storage.PuzzleTry{UserID: alice.UserID, PuzzleID: ps[0].ID}), storage.ErrNotFound, "a stale step")
	assert.ErrorIs(t, s.AdvancePuzzle(ctx, 0, &storage.PuzzleTry{UserID: alice.UserID, PuzzleID: ps[1].ID}), storage.ErrNotFound, "another puzzle")
	_, err = s.FinishPuzzle(ctx, storage.PuzzleResult{UserID: alice.UserID, PuzzleID: ps[0].ID, Step: 1, At: t0})
	assert.ErrorIs(t, err, storage.ErrNotFound, "a stale step")
	_, err = s.FinishPuzzle(ctx, storage.PuzzleResult{UserID: bob.UserID, PuzzleID: ps[0].ID, At: t0})
	assert.ErrorIs(t, err, storage.ErrNotFound, "bob has no attempt under way")

	o, err := s.FinishPuzzle(ctx, storage.PuzzleResult{UserID: alice.UserID, Name: "alice", GuildID: "g1", PuzzleID: ps[0].ID, Solved: true, At: t0})
	require.NoError(t, err)
	assert.True(t, o.Counted)
	assert.Greater(t, o.After.Rating, o.Before.Rating, "solved: up")
	_, err = s.PuzzleTry(ctx, alice.UserID)
	assert.ErrorIs(t, err, storage.ErrNotFound, "the attempt under way ends")
	e, err := s.Puzzle(ctx, ps[0].ID)
	require.NoError(t, err)
	assert.Less(t, e.Rating.Rating, 1400.0, "the puzzle solved goes down")
	assert.Equal(t, 1, e.Solved)

	attempt(t, s, alice.UserID, "alice", "g1", ps[1].ID, "", true, t0)
	o = attempt(t, s, alice.UserID, "alice", "g1", ps[2].ID, "", false, t0)
	assert.Less(t, o.After.Rating, o.Before.Rating, "failed: down")
	e, err = s.Puzzle(ctx, ps[2].ID)
	require.NoError(t, err)
	assert.Greater(t, e.Rating.Rating, 1400.0, "the puzzle failed goes up")
	p, err := s.PuzzleProfile(ctx, alice.UserID)
	require.NoError(t, err)
	assert.Equal(t, storage.PuzzleProfile{UserID: alice.UserID, Name: "alice", Rating: o.After, Attempts: 3, Solved: 2,
		Streak: 0, BestStreak: 2, Guilds: []string{"g1"}}, *p)
	_, err = s.PuzzleAttempt(ctx, alice.UserID, ps[2].ID)
	require.NoError(t, err)
	_, err = s.PuzzleAttempt(ctx, alice.UserID, ps[3].ID)
	assert.ErrorIs(t, err, storage.ErrNotFound)
}

// testPuzzleLeaderboard: a guild's puzzle leaderboard ranks its players
// (and only those who did puzzles there) by rating, paged by marks.
func testPuzzleLeaderboard(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	ps := somePuzzles(t, 6, 1400)
	mustLoad(t, s, ps)
	players := []string{"101", "102", "103", "104", "105"}
	for i, u := range players {
		// Player i solves i puzzles of the six and fails the next.
		for j := range i {
			attempt(t, s, u, "p"+u, "g1", ps[j].ID, "", true, t0)
		}
		attempt(t, s, u, "p"+u, "g1", ps[i].ID, "", false, t0)
	}
	attempt(t, s, "999", "elsewhere", "g2", ps[0].ID, "", true, t0)
	attempt(t, s, "105", "p105", "g2", ps[5].ID, "", true, t0)

	top, total, err := s.PuzzleLeaderboard(ctx, "g1", nil, false, 2)
	require.NoError(t, err)
	assert.Equal(t, 5, total)
	require.Len(t, top, 2)
	assert.Equal(t, "105", top[0].UserID, "the most solved first")
	assert.Equal(t, "104", top[1].UserID)
	mark := storage.MarkOfPuzzles(&top[1])
	page, _, err := s.PuzzleLeaderboard(ctx, "g1", &mark, false, 10)
	require.NoError(t, err)
	var ids []string
	for _, p := range page {
		ids = append(ids, p.UserID)
	}
	assert.Equal(t, []string{"103", "102", "101"}, ids)
	last := storage.MarkOfPuzzles(&page[0])
	back, _, err := s.PuzzleLeaderboard(ctx, "g1", &last, true, 1)
	require.NoError(t, err)
	require.Len(t, back, 1)
	assert.Equal(t, "104", back[0].UserID, "the page before")

	g2, total, err := s.PuzzleLeaderboard(ctx, "g2", nil, false, 10)
	require.NoError(t, err)
	assert.Equal(t, 2, total, "g2 shows its own players only")
	require.Len(t, g2, 2)
	assert.Equal(t, "105", g2[0].UserID, "with their rating from everywhere")
	assert.Equal(t, 6, g2[0].Attempts)

	gone := storage.Mark{Player: "777"}
	_, _, err = s.PuzzleLeaderboard(ctx, "g1", &gone, false, 10)
	assert.ErrorIs(t, err, storage.ErrNotFound)
	_, _, err = s.PuzzleLeaderboard(ctx, "g1", nil, false, 0)
	assert.ErrorIs(t, err, storage.ErrInvalid)
}

// testDailyPuzzle: the daily puzzle of a day is one of the middle band,
// the same at every call; its solvers are counted, the first three
// named; its post in a guild is claimed once, even by claims at once.
func testDailyPuzzle(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	day := puzzle.Day(t0)
	_, err := s.DailyPuzzle(ctx, day)
	assert.ErrorIs(t, err, storage.ErrNotFound, "no puzzle in the band")
	ps := somePuzzles(t, 12, 1100, 1400, 2000)
	mustLoad(t, s, ps)
	d, err := s.DailyPuzzle(ctx, day)
	require.NoError(t, err)
	e, err := s.Puzzle(ctx, d.PuzzleID)
	require.NoError(t, err)
	assert.True(t, puzzle.InDailyBand(e.Puzzle.Rating), "rated %d", e.Puzzle.Rating)
	again, err := s.DailyPuzzle(ctx, day)
	require.NoError(t, err)
	assert.Equal(t, d, again)

	for i, u := range []string{"101", "102", "103", "104"} {
		o := attempt(t, s, u, "p"+u, "g1", d.PuzzleID, day, i != 1, t0)
		if i != 1 {
			require.NotNil(t, o.Daily)
		}
	}
	d, err = s.DailyPuzzle(ctx, day)
	require.NoError(t, err)
	assert.Equal(t, 3, d.Solved)
	assert.Equal(t, []storage.PuzzleSolver{{UserID: "101", Name: "p101"}, {UserID: "103", Name: "p103"}, {UserID: "104", Name: "p104"}}, d.First)

	_, err = s.DailyPost(ctx, "g1", day)
	assert.ErrorIs(t, err, storage.ErrNotFound)
	won := granted(t, 4, func(i int) (bool, error) { return s.ClaimDailyPost(ctx, "g1", day, fmt.Sprint("40", i)) })
	assert.Equal(t, 1, won, "one claim of the day's post")
	require.NoError(t, s.NoteDailyPost(ctx, "g1", day, "555"))
	p, err := s.DailyPost(ctx, "g1", day)
	require.NoError(t, err)
	assert.Equal(t, "555", p.MessageID)
	ok, err := s.ClaimDailyPost(ctx, "g1", puzzle.Day(t0.Add(24*time.Hour)), "401")
	require.NoError(t, err)
	assert.True(t, ok, "the next day is another post")
	assert.ErrorIs(t, s.NoteDailyPost(ctx, "g2", day, "1"), storage.ErrNotFound)
	_, err = s.ClaimDailyPost(ctx, "g1", day, "")
	assert.ErrorIs(t, err, storage.ErrInvalid)

	_, err = s.UpdateGuildSettings(ctx, "g3", func(g *storage.GuildSettings) error { g.PuzzleChannel = "401"; return nil })
	require.NoError(t, err)
	chans, err := s.PuzzleChannels(ctx)
	require.NoError(t, err)
	require.Len(t, chans, 1)
	assert.Equal(t, "g3", chans[0].GuildID)
	_, err = s.UpdateGuildSettings(ctx, "g3", func(g *storage.GuildSettings) error { g.PuzzleChannel = "bad\x00"; return nil })
	assert.ErrorIs(t, err, storage.ErrInvalid)
}
