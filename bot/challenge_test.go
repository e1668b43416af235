package bot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/challenge"
	"github.com/kulami/kulami/storage"
)

// challengeMessage sends alice's challenge to bob and returns its message.
func (h *harness) challengeMessage(opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordtest.Message {
	h.t.Helper()
	m, _ := h.challengeWithResponse(opts...)
	return m
}

// challengeWithResponse is challengeMessage that also returns the response
// to the command.
func (h *harness) challengeWithResponse(opts ...*discordgo.ApplicationCommandInteractionDataOption) (*discordtest.Message, *discordtest.Response) {
	h.t.Helper()
	opts = append([]*discordgo.ApplicationCommandInteractionDataOption{h.userOption(h.bob)}, opts...)
	i := h.command(h.channel.ID, h.alice, "challenge", opts...)
	m := messageAfter(h.t, h.dc, i, h.channel.ID, "the challenge", hasButton("Accept"))
	// The bot learns the message's ID just after posting it.
	require.Eventually(h.t, func() bool {
		c, err := h.games().Challenge(h.t.Context(), h.channel.ID)
		return err == nil && c.MessageID == m.ID
	}, hung, time.Millisecond, "the challenge knows its message")
	return m, h.dc.WaitResponse(h.t, i.ID)
}

func TestChallenge(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID

			t.Run("the message", func(t *testing.T) {
				msg, resp := h.challengeWithResponse(
					discordtest.StringOption("layout", "irregular"), discordtest.StringOption("rules", "lines"),
					discordtest.StringOption("first", "them"), discordtest.StringOption("move_time", "1d"))
				assert.Contains(t, msg.Content, "<@"+h.bob.ID+">", "the opponent is mentioned")
				assert.Contains(t, msg.Content, "an irregular board")
				assert.Contains(t, msg.Content, "lines")
				assert.Contains(t, msg.Content, "1 day")
				assert.Contains(t, msg.Content, "expires <t:")
				assert.Equal(t, []string{h.bob.ID}, msg.Notified, "the challenge is a new message that notifies the opponent, and only them")
				assert.True(t, resp.Ephemeral(), "the challenger's command is answered for them alone")
				assert.Contains(t, resp.Content, "Challenge sent to bob")
				b := buttons(msg.Components)
				assert.Contains(t, b, "Accept")
				assert.Contains(t, b, "Decline")
				assert.Contains(t, b, "Withdraw")

				c, err := h.store.Challenge(t.Context(), ch)
				require.NoError(t, err)
				assert.Equal(t, msg.ID, c.MessageID, "the challenge knows its message")
				assert.Equal(t, challenge.FirstOpponent, c.First)
				assert.Equal(t, 24*time.Hour, c.MoveTime)

				t.Run("only bob answers", func(t *testing.T) {
					h.refused(h.click(msg.ID, h.carol, b["Accept"]), "This challenge is for bob")
					h.refused(h.click(msg.ID, h.alice, b["Accept"]), "can't accept your own challenge")
					h.refused(h.click(msg.ID, h.carol, b["Decline"]), "Only bob can decline")
					h.refused(h.click(msg.ID, h.bob, b["Withdraw"]), "Only alice")
					h.refused(h.command(ch, h.carol, "challenge", h.userOption(h.bob)), "already an open challenge")
				})
				t.Run("accept", func(t *testing.T) {
					i := h.click(msg.ID, h.bob, b["Accept"])
					r := h.dc.WaitResponse(t, i.ID)
					assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type)
					assert.Contains(t, r.Content, "bob accepted alice's challenge")
					assert.Empty(t, r.Components, "the buttons are gone")
					h.boardAt(ch, 0)
					g, err := h.store.Game(t.Context(), ch)
					require.NoError(t, err)
					assert.Equal(t, h.bob.ID, g.Player(engine.Red).UserID, "first: them — bob moves first, as red")
					assert.Equal(t, engine.Lines, g.Rules())
					l := g.Layout()
					assert.False(t, l.IsSquare() && l.Equal(engine.Square()))
					h.refused(h.click(msg.ID, h.bob, b["Accept"]), "no longer open")
				})
			})
		})
	}
}

func TestChallengeDeclineAndWithdraw(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			msg := h.challengeMessage()
			i := h.click(msg.ID, h.bob, buttons(msg.Components)["Decline"])
			assert.Contains(t, h.dc.WaitResponse(t, i.ID).Content, "bob declined alice's challenge")
			_, err := h.store.Challenge(t.Context(), h.channel.ID)
			assert.ErrorIs(t, err, storage.ErrNotFound)

			msg = h.challengeMessage()
			i = h.click(msg.ID, h.alice, buttons(msg.Components)["Withdraw"])
			assert.Contains(t, h.dc.WaitResponse(t, i.ID).Content, "alice withdrew the challenge")
			_, err = h.store.Challenge(t.Context(), h.channel.ID)
			assert.ErrorIs(t, err, storage.ErrNotFound)

			msg = h.challengeMessage()
			i = h.command(h.channel.ID, h.bob, "decline")
			assert.Contains(t, h.reply(i), "bob declined")
			h.dc.WaitUntil(t, "the challenge message to lose its buttons", func() bool {
				m, _ := h.dc.Message(msg.ID)
				return len(m.Components) == 0 && strings.Contains(m.Content, "declined")
			})

			msg = h.challengeMessage()
			h.command(h.channel.ID, h.bob, "accept")
			h.boardAt(h.channel.ID, 0)
			m, _ := h.dc.Message(msg.ID)
			assert.Empty(t, m.Components, "accepting by command closes the challenge message too")
		})
	}
}

func TestMissingPermissions(t *testing.T) {
	t.Parallel()
	perms := int64(discordtest.DefaultAppPermissions) &^ (discordgo.PermissionAttachFiles | discordgo.PermissionEmbedLinks)
	h := newHarness(t, "gateway", discordtest.WithAppPermissions(perms))
	h.refused(h.command(h.channel.ID, h.alice, "challenge", h.userOption(h.bob)), "missing the permissions **Attach Files**, **Embed Links**")
	h.refused(h.command(h.channel.ID, h.alice, "play"), "Attach Files")
	_, err := h.store.Challenge(t.Context(), h.channel.ID)
	assert.ErrorIs(t, err, storage.ErrNotFound, "nothing was started")
}

// TestPermissionsInAThread: in a thread, Discord asks for Send Messages in
// Threads, not Send Messages, so that is what the bot checks there.
func TestPermissionsInAThread(t *testing.T) {
	t.Parallel()
	all := int64(discordtest.DefaultAppPermissions)
	for _, tt := range []struct {
		name    string
		perms   int64
		refusal string // "" if the challenge is made
	}{
		{"without Send Messages", all &^ discordgo.PermissionSendMessages, ""},
		{"without Send Messages in Threads", all &^ discordgo.PermissionSendMessagesInThreads, "missing the permission **Send Messages in Threads**"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, "gateway", discordtest.WithAppPermissions(tt.perms))
			thread := h.dc.AddThread(h.channel.ID, "kulami").ID
			i := h.command(thread, h.alice, "challenge", h.userOption(h.bob))
			if tt.refusal != "" {
				h.refused(i, tt.refusal)
				_, err := h.store.Challenge(t.Context(), thread)
				assert.ErrorIs(t, err, storage.ErrNotFound, "nothing was started")
				return
			}
			m := messageAfter(t, h.dc, i, thread, "the challenge in the thread", hasButton("Accept"))
			assert.Equal(t, []string{h.bob.ID}, m.Notified)
		})
	}
}

// TestPrivateThread: the bot joins a private thread before it starts a game
// there, since it may post in one only as a member.
func TestPrivateThread(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	thread := h.dc.AddPrivateThread(h.channel.ID, "secret").ID
	i := h.command(thread, h.alice, "challenge", h.userOption(h.bob))
	m := messageAfter(t, h.dc, i, thread, "the challenge in the private thread", hasButton("Accept"))
	assert.Equal(t, []string{h.bob.ID}, m.Notified)
}
