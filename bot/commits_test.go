package bot_test

import (
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/storage"
)

// commits returns how many write transactions the harness's database has
// committed so far, read from the database itself (storage.Store.Commits):
// every write counts, whichever part of the bot made it (moves, challenges,
// settings, and the scheduler's records of being alive and its claims).
func (h *harness) commits() uint64 {
	h.t.Helper()
	n, err := h.store.Commits(h.t.Context())
	require.NoError(h.t, err)
	return n
}

// alive returns when the bot last recorded being alive, as the database
// holds it (zero if never).
func (h *harness) alive() time.Time {
	h.t.Helper()
	var at time.Time
	require.NoError(h.t, h.store.Export(h.t.Context(), func(r storage.Record) error {
		if t, ok := storage.AliveRecords.Of(r); ok {
			at = *t
		}
		return nil
	}))
	return at
}

// thinkTime is how long a player of TestWholeGame thinks before the move
// after ply: 30 to 90 seconds, as in a game played live, and now and then
// a pause of 5 minutes.
func thinkTime(ply int) time.Duration {
	if ply%10 == 9 {
		return 5 * time.Minute
	}
	return 30*time.Second + time.Duration(ply%5)*15*time.Second
}

// startedCommits waits until the scheduler has started (its Resume
// records the bot alive, in a commit) and returns commits then.
func (h *harness) startedCommits() uint64 {
	h.t.Helper()
	require.Eventually(h.t, func() bool { return !h.alive().IsZero() }, hung, time.Millisecond, "the scheduler starts")
	return h.commits()
}

// assertCommitsPerMove checks the commits of a game of moves moves played
// over elapsed on the clock, counted from before, when the game was
// made: one per move (the move, the clock, the result and the ratings;
// none for the board messages nor the scheduler's claims), and the bot's
// records of being alive, at most one per bot.AliveEvery of the clock.
// It also checks that the last record is at most bot.AliveEvery old.
func (h *harness) assertCommitsPerMove(before uint64, moves int, elapsed time.Duration) {
	h.t.Helper()
	made := int64(h.commits() - before)
	alive := made - int64(moves)
	h.t.Logf("%d commits for %d moves over %v: %.2f a move; %d records of the bot alive", made, moves, elapsed, float64(made)/float64(moves), alive)
	assert.GreaterOrEqual(h.t, alive, int64(0), "a commit per move")
	assert.LessOrEqual(h.t, alive, int64(elapsed/bot.AliveEvery), "besides the moves, at most one record of the bot alive per %v of the clock", bot.AliveEvery)
	assert.Eventually(h.t, func() bool { return !h.alive().Before(h.clock.Now().Add(-bot.AliveEvery)) }, hung, time.Millisecond,
		"the record of the bot alive is at most %v old", bot.AliveEvery)
}
