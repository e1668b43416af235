package bot_test

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/storage"
)

// refused checks that i was answered with an ephemeral message containing
// want, and returns the message.
func (h *harness) refused(i *discordgo.Interaction, want ...string) string {
	h.t.Helper()
	a := h.answerTo(i)
	assert.True(h.t, a.ephemeral, "the refusal %q is ephemeral", a.text)
	for _, w := range want {
		assert.Contains(h.t, a.text, w)
	}
	return a.text
}

// TestRefusals checks every way a player can get a command or a click
// wrong: each is answered, only to them, with what is wrong and what to
// do, and nothing changes.
func TestRefusals(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID

			t.Run("no game yet", func(t *testing.T) {
				h.refused(h.command(ch, h.alice, "move", discordtest.StringOption("cell", "D4")), "no game in this channel", "/kulami challenge")
				h.refused(h.command(ch, h.alice, "board"), "no game in this channel")
				h.refused(h.command(ch, h.alice, "resign"), "no game in this channel")
				h.refused(h.command(ch, h.bob, "accept"), "no open challenge")
			})
			t.Run("challenge yourself", func(t *testing.T) {
				h.refused(h.command(ch, h.alice, "challenge", h.userOption(h.alice)), "can't challenge yourself")
			})
			t.Run("in the bot's DM", func(t *testing.T) {
				dm := h.dc.DMChannel(h.alice.ID)
				h.refused(h.command(dm.ID, h.alice, "challenge", h.userOption(h.bob)), "bob is not in this conversation")
				i := h.command(dm.ID, h.alice, "rules")
				assert.NotEmpty(t, h.dc.WaitResponse(t, i.ID).Embeds, "the rules work in DMs")
			})

			board, g := h.open()
			first, second := h.alice, h.bob
			if g.Player(g.ToMove()).UserID == h.bob.ID {
				first, second = h.bob, h.alice
			}
			var menu string
			for id := range menus(board) {
				menu = id
			}

			t.Run("second challenge in the channel", func(t *testing.T) {
				h.refused(h.command(ch, h.carol, "challenge", h.userOption(h.alice)), "already has a game", "thread")
			})
			t.Run("not a player", func(t *testing.T) {
				h.refused(h.pick(board.ID, h.carol, menu, "D4"), "you can watch, but not play")
				h.refused(h.command(ch, h.carol, "move", discordtest.StringOption("cell", "D4")), "you can watch, but not play")
			})
			t.Run("out of turn", func(t *testing.T) {
				h.refused(h.pick(board.ID, second, menu, "D4"), "turn, not yours")
				h.refused(h.command(ch, second, "move", discordtest.StringOption("cell", "D4")), "turn, not yours")
			})
			t.Run("not a hole", func(t *testing.T) {
				for _, cell := range []string{"Z9", "D0", "hello", ""} {
					h.refused(h.command(ch, first, "move", discordtest.StringOption("cell", cell)), "not a hole", "You can play")
				}
			})
			t.Run("off the board", func(t *testing.T) {
				h.refused(h.command(ch, first, "move", discordtest.StringOption("cell", "J10")), "no hole at **J10**")
			})

			h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			h.boardAt(ch, 1)
			illegal := []struct{ cell, rule string }{
				{"D4", "already holds a marble"},
				{"E5", "not in the row or column of the last marble (**D4**)"},
				{"D5", "same panel as the last marble (**D4**)"},
			}
			for _, c := range illegal {
				t.Run("illegal "+c.cell, func(t *testing.T) {
					text := h.refused(h.command(ch, second, "move", discordtest.StringOption("cell", c.cell)), c.rule, "You can play: ")
					assert.Contains(t, text, "A4", "the legal holes are listed")
				})
			}
			h.command(ch, second, "move", discordtest.StringOption("cell", "A4"))
			h.boardAt(ch, 2)
			t.Run("illegal previous panel", func(t *testing.T) {
				h.refused(h.command(ch, first, "move", discordtest.StringOption("cell", "E4")), "panel of the marble before the last (**D4**)")
			})
			t.Run("old board", func(t *testing.T) {
				h.refused(h.pick(board.ID, first, menu, "A1"), "out of date", "https://discord.com/channels/")
			})

			after, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			assert.Equal(t, 2, after.Ply(), "no refused move was played")

			t.Run("board of an ended game", func(t *testing.T) {
				resign := h.command(ch, first, "resign")
				yes := buttons(h.dc.WaitResponse(t, resign.ID).Components)["Yes, resign"]
				h.click(h.dc.WaitOriginal(t, resign.ID, func(*discordtest.Message) bool { return true }).ID, first, yes)
				h.waitBoard(ch, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "resigned") })
				h.refused(h.pick(board.ID, first, menu, "A1"), "game that has ended")
				_, err := h.store.Game(t.Context(), ch)
				assert.ErrorIs(t, err, storage.ErrNotFound)
			})
		})
	}
}
