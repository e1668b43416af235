package bot_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/bot/discordtest"
)

// TestCloseWaitsForCancelledWork: work still in flight when the grace of
// Close is over is cancelled, and Close returns once that work has
// returned, so that the store can be closed after it. Discord holds the
// move's new board until the test is over, so the move's handler is still
// waiting for it when the grace ends, however slow the machine.
func TestCloseWaitsForCancelledWork(t *testing.T) {
	t.Parallel()
	h := newManualHarness(t, "http")
	g := h.challengeAndAccept()
	first, _ := h.players(g)
	held := h.dc.Hold("POST", "/channels/{channel_id}/messages", 1) // Discord holds the new board
	t.Cleanup(held.Release)
	sent := sendAsync(h, h.dc.Command(h.channel.ID, first, "kulami", discordtest.Subcommand("move", discordtest.StringOption("cell", "D4"))))
	held.Wait(t)                        // the move's handler waits for Discord
	h.bot.Close(100 * time.Millisecond) // its grace: no time the handler could finish in
	<-sent
	assert.Contains(t, h.logs.String(), "msg=interaction type=ApplicationCommand name=move", "the cancelled handler returned before Close")
}
