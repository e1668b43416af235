package bot_test

import (
	"bytes"
	"image"
	"image/gif"
	"image/png"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// orange reports whether the image file of m (a PNG, or each frame of a
// GIF) shows the colour-blind marbles' orange (#E69F00), which nothing
// drawn with the standard marbles comes near.
func orange(t *testing.T, m *discordtest.Message) bool {
	t.Helper()
	require.NotEmpty(t, m.Files)
	var frames []image.Image
	if g, err := gif.DecodeAll(bytes.NewReader(m.Files[0].Data)); err == nil {
		for _, f := range g.Image {
			frames = append(frames, f)
		}
	} else {
		im, err := png.Decode(bytes.NewReader(m.Files[0].Data))
		require.NoError(t, err)
		frames = append(frames, im)
	}
	near := func(v uint32, want int) bool { d := int(v>>8) - want; return d >= -10 && d <= 10 }
	for _, im := range frames {
		b := im.Bounds()
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, a := im.At(x, y).RGBA()
				if a == 0xffff && near(r, 0xe6) && near(g, 0x9f) && bl>>8 < 40 {
					return true
				}
			}
		}
	}
	return false
}

// TestMarbles checks the server's marbles on public images (boards, the
// review's chart, the replay) and each player's own on the images only
// they see (review steps): the clicker's, else the server's. A set
// Discord does not offer is refused and stores nothing.
func TestMarbles(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID
			setGuild := func(v string) string {
				return h.reply(h.commandWith(asAdmin, ch, h.alice, "settings", discordtest.StringOption("marbles", v)))
			}

			h.refused(h.command(ch, h.carol, "notify", discordtest.StringOption("marbles", "purple")), "Pick the marbles from the list")
			h.refused(h.commandWith(asAdmin, ch, h.alice, "settings", discordtest.StringOption("marbles", "Colour-blind")), "Pick the marbles from the list")
			u, err := h.store.UserSettings(t.Context(), h.carol.ID)
			require.NoError(t, err)
			assert.Empty(t, u.Marbles, "a refused set is not stored")
			assert.Contains(t, h.reply(h.command(ch, h.carol, "notify")), "**Marbles**: the server's")
			assert.Contains(t, h.reply(h.commandWith(asAdmin, ch, h.alice, "settings")), "**Marbles**: standard")

			assert.Contains(t, h.reply(h.command(ch, h.bob, "notify", discordtest.StringOption("marbles", "colour-blind"))), "**Marbles**: colour-blind")
			board, g := h.open()
			assert.False(t, orange(t, board), "public boards keep the server's standard marbles")
			final := h.finishByResigning(g)

			ask := h.command(ch, h.carol, "review")
			rev := messageAfter(t, h.dc, ask, ch, "the review", hasFile("review.png"))
			assert.False(t, orange(t, rev), "the review's chart in the server's colours")
			step := func(u *discordgo.User) *discordtest.Message {
				i := h.click(rev.ID, u, buttons(rev.Components)["▶"])
				m := h.dc.WaitOriginal(t, i.ID, hasFile("board.png"))
				require.True(t, m.Ephemeral())
				return m
			}
			assert.True(t, orange(t, step(h.bob)), "bob's own colour-blind marbles")
			assert.False(t, orange(t, step(h.carol)), "carol has none: the server's")

			assert.Contains(t, setGuild("colour-blind"), "**Marbles**: colour-blind")
			assert.True(t, orange(t, step(h.carol)), "the server's marbles, now colour-blind")
			assert.Contains(t, h.reply(h.command(ch, h.bob, "notify", discordtest.StringOption("marbles", "standard"))), "**Marbles**: standard")
			assert.False(t, orange(t, step(h.bob)), "bob's own standard marbles over the server's")

			again := h.command(ch, h.carol, "review")
			chart := messageAfter(t, h.dc, again, ch, "the review again", hasFile("review.png"))
			assert.True(t, orange(t, chart), "the chart in the server's colours, now colour-blind")
			h.click(final.ID, h.carol, buttons(final.Components)["Replay (GIF)"])
			var replay *discordtest.Message
			h.dc.WaitUntil(t, "the replay posted", func() bool {
				gifs := gifsOf(h.dc.Messages(ch), g.ID)
				if len(gifs) > 0 {
					replay = gifs[0]
				}
				return replay != nil
			})
			assert.True(t, orange(t, replay), "the replay with the server's marbles")

			board, _ = h.open()
			assert.True(t, orange(t, board), "public boards follow the server's marbles")
		})
	}
}
