package bot_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// privately waits for an answer to i, only for its user, that contains
// want: the first response, the message it became or a follow-up.
func (h *harness) privately(i *discordgo.Interaction, want string) {
	h.t.Helper()
	h.dc.WaitUntil(h.t, fmt.Sprintf("a private answer %q", want), func() bool {
		if r, ok := h.dc.Response(i.ID); ok && r.Ephemeral() && strings.Contains(r.Content, want) {
			return true
		}
		if m, ok := h.dc.Original(i.ID); ok && m.Ephemeral() && strings.Contains(m.Content, want) {
			return true
		}
		for _, m := range h.dc.Followups(i.ID) {
			if m.Ephemeral() && strings.Contains(m.Content, want) {
				return true
			}
		}
		return false
	})
}

// gifsOf returns the messages of ms with the replay of game id.
func gifsOf(ms []*discordtest.Message, id uint64) []*discordtest.Message {
	var out []*discordtest.Message
	for _, m := range ms {
		if hasFile(fmt.Sprintf("kulami-%d.gif", id))(m) {
			out = append(out, m)
		}
	}
	return out
}

// gifsDrawn is how many replays the bot's runner has drawn.
func (h *harness) gifsDrawn() uint64 { return h.jobsStarted("gif") }

// jobsStarted is how many jobs of class the bot's runner has started.
func (h *harness) jobsStarted(class string) uint64 {
	for _, s := range h.bot.JobStats() {
		if s.Class == class {
			return s.Started
		}
	}
	return 0
}

// TestReplayGIFOnce: quick clicks on Replay (GIF) by several people post
// one replay, drawn once; the other clickers are told, only them, where it
// is. An hour later a click posts the replay kept again, without drawing
// it again.
func TestReplayGIFOnce(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID
			g := h.challengeAndAccept()
			final := h.finishByResigning(g)
			replay := buttons(final.Components)["Replay (GIF)"]
			require.NotEmpty(t, replay)

			var clicks []*discordgo.Interaction
			for _, u := range []*discordgo.User{h.carol, h.alice, h.carol} {
				i := h.dc.Button(final.ID, u, replay)
				h.send(i)
				clicks = append(clicks, i)
			}
			var posted *discordtest.Message
			h.dc.WaitUntil(t, "the replay posted", func() bool {
				gifs := gifsOf(h.dc.Messages(ch), g.ID)
				if len(gifs) > 0 {
					posted = gifs[0]
				}
				return posted != nil
			})
			link := "https://discord.com/channels/" + h.dc.GuildID() + "/" + ch + "/" + posted.ID
			var told int
			for _, i := range clicks {
				m, ok := h.dc.Original(i.ID)
				if ok && m.ID == posted.ID {
					continue
				}
				h.privately(i, fmt.Sprintf("The replay of game #%d was just posted: %s", g.ID, link))
				told++
			}
			assert.Equal(t, 2, told, "the other clicks are told where it is")
			assert.Len(t, gifsOf(h.dc.Messages(ch), g.ID), 1, "one replay posted")
			require.Len(t, posted.Files, 1)
			assert.Regexp(t, fmt.Sprintf(`^Animation of game #%d, (alice \(red\) against bob|bob \(red\) against alice) \(black\), move by move\.$`, g.ID), posted.Files[0].Description, "alt text")
			assert.Equal(t, uint64(1), h.gifsDrawn(), "drawn once")

			h.clock.Advance(time.Hour)
			later := h.click(final.ID, h.bob, replay)
			again := h.dc.WaitOriginal(t, later.ID, hasFile(fmt.Sprintf("kulami-%d.gif", g.ID)))
			assert.False(t, again.Ephemeral(), "posted again for everyone, the first having scrolled away")
			assert.Equal(t, posted.Files[0].Data, again.Files[0].Data)
			assert.Equal(t, uint64(1), h.gifsDrawn(), "the replay kept is posted, not drawn again")
		})
	}
}

// TestRequestCooldown: a user who had a replay posted, or a review made,
// waits requestCooldown before the next: the answer, only for them, says
// when they may ask again.
func TestRequestCooldown(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	ch := h.channel.ID
	g1 := h.challengeAndAccept()
	first := h.finishByResigning(g1)
	g2 := h.challengeAndAccept()
	second := h.finishByResigning(g2)

	h.dc.WaitOriginal(t, h.click(first.ID, h.carol, buttons(first.Components)["Replay (GIF)"]).ID, hasFile(fmt.Sprintf("kulami-%d.gif", g1.ID)))
	soon := h.click(second.ID, h.carol, buttons(second.Components)["Replay (GIF)"])
	h.privately(soon, "You asked for a replay a moment ago; you may ask for the next one <t:")
	h.privately(h.click(second.ID, h.carol, buttons(second.Components)["Replay (GIF)"]), "you may ask for the next one")

	ask := h.command(ch, h.carol, "review")
	messageAfter(t, h.dc, ask, ch, "the review", hasFile("review.png"))
	h.refused(h.command(ch, h.carol, "review", discordtest.IntegerOption("game", int64(g1.ID))), "You asked for a review a moment ago; you may ask for the next one <t:")

	h.clock.Advance(30 * time.Second)
	late := h.click(second.ID, h.carol, buttons(second.Components)["Replay (GIF)"])
	m := h.dc.WaitOriginal(t, late.ID, hasFile(fmt.Sprintf("kulami-%d.gif", g2.ID)))
	assert.False(t, m.Ephemeral(), "after the cooldown the replay is posted")
}
