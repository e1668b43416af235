package bot_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// TestRedeliveredInteraction: an interaction Discord delivers twice (after
// a gateway resume, a retry) is acted on once: one move, one board, and no
// refusal for the second copy.
func TestRedeliveredInteraction(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID
			g := h.challengeAndAccept()
			first, _ := h.players(g)
			i := h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			h.boardAt(ch, 1)
			boards := len(boardsOf(h.dc.Messages(ch)))

			h.send(i) // the same interaction again
			h.command(ch, first, "board")
			h.waitBoard(ch, "the board shown again", func(m *discordtest.Message) bool { return len(boardsOf(h.dc.Messages(ch))) == boards+1 })

			g, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			assert.Equal(t, 1, g.Ply(), "the move was made once")
			assert.Empty(t, h.dc.Followups(i.ID), "nothing more was said about it")
			assert.NotContains(t, h.logs.String(), "interaction failed")
			assert.True(t, strings.Contains(h.logs.String(), "interaction delivered again"), "the bot noticed")
		})
	}
}

// boardsOf returns the board messages of ms.
func boardsOf(ms []*discordtest.Message) []*discordtest.Message {
	var out []*discordtest.Message
	for _, m := range ms {
		if hasBoard(m) {
			out = append(out, m)
		}
	}
	return out
}
