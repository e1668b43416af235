package bot

import (
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// fixedClock is a clock stopped at one time, for code that only reads it.
type fixedClock time.Time

func (c fixedClock) Now() time.Time                         { return time.Time(c) }
func (c fixedClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// TestOweOutlivesTheInteraction: a board Discord failed is owed even when
// the interaction's time for the database has run out by then, as it has
// after a post that hung until the bot's client gave up (20 s, beyond
// storeWork): owe's commit outlives the interaction, its storage
// deadlines included. The load test's Discord hangs found it: every board
// that hung was never owed, so never posted, and its game stalled.
func TestOweOutlivesTheInteraction(t *testing.T) {
	store, err := storage.Open(filepath.Join(t.TempDir(), "kulami.db"), storage.Options{})
	require.NoError(t, err)
	defer store.Close()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	players := [2]game.Player{{UserID: "100", Name: "alice"}, {UserID: "200", Name: "bob"}}
	gg, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Full, Players: players}, now)
	require.NoError(t, err)
	require.NoError(t, store.CreateGame(t.Context(), &storage.Game{GuildID: "1", ChannelID: "c1", Game: gg}))
	g, err := store.Game(t.Context(), "c1")
	require.NoError(t, err)

	tb := &table{store: deadlineStore{interactionStore: store}, clock: fixedClock(now), log: slog.New(slog.DiscardHandler), wake: make(wakeup, 1)}
	for _, heard := range []bool{false, true} {
		c := &interaction{}
		if heard {
			c.answer.state = answered
		}
		// Both the interaction's storage deadlines (before and after
		// Discord heard from the bot) are past.
		timer := NewManualTimer()
		ctx, stop := withStoreDeadlines(t.Context(), c, timer, time.Second)
		timer.Advance(time.Minute)
		defer stop()
		require.NoError(t, tb.owe(ctx, g), "heard %v", heard)
		owed, err := store.Game(t.Context(), "c1")
		require.NoError(t, err)
		assert.Equal(t, now.Add(repairAfter), owed.BoardDue.UTC(), "the board is owed (heard %v)", heard)
	}
}
