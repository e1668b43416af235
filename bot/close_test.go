package bot_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/bot/discordtest"
)

// TestCloseWaitsForCancelledWork: work still in flight when the grace of
// Close is over is cancelled, and Close returns once that work has
// returned, so that the store can be closed after it.
func TestCloseWaitsForCancelledWork(t *testing.T) {
	t.Parallel()
	h := newManualHarness(t, "http")
	g := h.challengeAndAccept()
	first, _ := h.players(g)
	h.dc.Delay("POST", "/channels/{channel_id}/messages", 3*time.Second, 1) // Discord holds the new board
	h.command(h.channel.ID, first, "move", discordtest.StringOption("cell", "D4"))
	h.bot.Close(100 * time.Millisecond) // the move's handler waits for Discord
	assert.Contains(t, h.logs.String(), "msg=interaction type=ApplicationCommand name=move", "the cancelled handler returned before Close")
}
