package bot_test

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// lightImage reports whether the image file of m is drawn for the light
// theme: its top-left corner, the background, is light.
func lightImage(t *testing.T, m *discordtest.Message) bool {
	t.Helper()
	require.NotEmpty(t, m.Files)
	img, err := png.Decode(bytes.NewReader(m.Files[0].Data))
	require.NoError(t, err)
	r, g, b, _ := img.At(1, 1).RGBA()
	return (r+g+b)/3 > 0x8000
}

// TestThemes checks the server's theme of public boards and each
// player's own theme of the boards only they see: a review step follows
// the clicker's theme, else the server's, and a public board the server's
// whatever the players chose. A theme Discord does not offer is refused
// and stores nothing.
func TestThemes(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID

			h.refused(h.command(ch, h.carol, "notify", discordtest.StringOption("theme", "purple")), "Pick the theme from the list")
			h.refused(h.commandWith(asAdmin, ch, h.alice, "settings", discordtest.StringOption("theme", "Light")), "Pick the theme from the list")
			u, err := h.store.UserSettings(t.Context(), h.carol.ID)
			require.NoError(t, err)
			assert.Empty(t, u.Theme, "a refused theme is not stored")
			assert.Contains(t, h.reply(h.command(ch, h.carol, "notify")), "**Theme**: the server's")

			assert.Contains(t, h.reply(h.command(ch, h.bob, "notify", discordtest.StringOption("theme", "light"))), "**Theme**: light")
			board, g := h.open()
			assert.False(t, lightImage(t, board), "public boards keep the server's dark theme")
			h.finishByResigning(g)

			ask := h.command(ch, h.carol, "review")
			rev := messageAfter(t, h.dc, ask, ch, "the review", hasFile("review.png"))
			step := func(u *discordgo.User) *discordtest.Message {
				i := h.click(rev.ID, u, buttons(rev.Components)["▶"])
				m := h.answerMessage(i, hasFile("board.png"))
				require.True(t, m.Ephemeral())
				return m
			}
			assert.True(t, lightImage(t, step(h.bob)), "bob's own theme")
			assert.False(t, lightImage(t, step(h.carol)), "carol has none: the server's")

			assert.Contains(t, h.reply(h.commandWith(asAdmin, ch, h.alice, "settings", discordtest.StringOption("theme", "light"))), "**Theme**: light")
			assert.True(t, lightImage(t, step(h.carol)), "the server's theme, now light")
			h.reply(h.command(ch, h.bob, "notify", discordtest.StringOption("theme", "dark")))
			assert.False(t, lightImage(t, step(h.bob)), "bob's own dark theme over the server's")
			board, _ = h.open()
			assert.True(t, lightImage(t, board), "public boards follow the server's theme")
		})
	}
}
