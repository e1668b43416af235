package bot_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// TestCloseWaitsForCancelledWork: work still in flight when the grace of
// Close is over is cancelled, and Close returns once that work has
// returned, so that the store can be closed after it. Discord holds the
// move's new board, so the move's handler is still waiting for it when
// the grace ends; the grace ends when the test says, and Close waits for
// the cancelled handler however long it takes to return, so that neither
// depends on how fast the machine is.
func TestCloseWaitsForCancelledWork(t *testing.T) {
	t.Parallel()
	h := newManualHarness(t, "http")
	g := h.challengeAndAccept()
	first, _ := h.players(g)
	held := h.dc.Hold("POST", "/channels/{channel_id}/messages", 1) // Discord holds the new board
	t.Cleanup(held.Release)
	sent := sendAsync(h, h.dc.Command(h.channel.ID, first, "kulami", discordtest.Subcommand("move", discordtest.StringOption("cell", "D4"))))
	held.Wait(t) // the move's handler waits for Discord

	graceOver := make(chan time.Time) // the grace, and the wait for cancelled work, end only when the test says
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		h.bot.CloseAfter(time.Second, func(time.Duration) <-chan time.Time { return graceOver })
	}()
	graceOver <- time.Now() // the grace is over: Close cancels the move's handler
	select {
	case <-closed:
	case <-time.After(hung):
		require.FailNow(t, "Close did not return") // only a hung test gets here
	}
	assert.Contains(t, h.logs.String(), "msg=interaction type=ApplicationCommand name=move", "the cancelled handler returned before Close")
	assert.NotContains(t, h.logs.String(), "did not stop when cancelled")
	<-sent
}
