package bot_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/bot/discordtest"
)

// TestDiscordFaultLogged checks that Discord's own failure to post a board
// (an answer 500) is logged with the route and the status, whatever the
// transport the move came by.
func TestDiscordFaultLogged(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, mode)
			ch := h.channel.ID
			g := h.challengeAndAccept()
			first, _ := h.players(g)
			h.dc.Fail("POST", "/channels/{channel_id}/messages", discordtest.ErrServerError, 1)
			h.logs.Take()
			h.reply(h.command(ch, first, "move", discordtest.StringOption("cell", "D4")))
			var line string
			h.dc.WaitUntil(t, "the fault logged", func() bool {
				for _, l := range strings.Split(h.logs.String(), "\n") {
					if strings.Contains(l, "Discord failed a request") {
						line = l
						return true
					}
				}
				return false
			})
			assert.Contains(t, line, `route="POST /channels/{channel_id}/messages"`)
			assert.Contains(t, line, `status="500 Internal Server Error"`)
			assert.Contains(t, line, "channel="+ch)
		})
	}
}
