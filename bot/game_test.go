package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// asAdmin gives the member of an interaction Manage Server.
func asAdmin(i *discordgo.Interaction) { i.Member.Permissions |= discordgo.PermissionManageGuild }

// TestThreadOfLostAcceptance: an acceptance that loses the race for its
// challenge (here to a withdrawal committed just before) opens no thread,
// since the thread is opened only once the acceptance has committed.
func TestThreadOfLostAcceptance(t *testing.T) {
	t.Parallel()
	var withdraw func()
	h := newHarnessWith(t, "gateway", func(h *harness) {
		h.wrap = func(s *storage.Store) bot.Store { return &racingStore{Store: s, beforeAccept: func() { withdraw() }} }
	})
	ch := h.channel.ID
	h.reply(h.commandWith(asAdmin, ch, h.alice, "settings", discordtest.StringOption("threads", "on")))
	msg := h.challengeMessage()
	withdraw = func() {
		c, err := h.store.Challenge(t.Context(), ch)
		if assert.NoError(t, err) {
			assert.NoError(t, h.store.DeleteChallenge(t.Context(), ch, c.ID), "alice withdraws first")
		}
	}
	h.refused(h.click(msg.ID, h.bob, buttons(msg.Components)["Accept"]), "no longer open")
	assert.Zero(t, len(h.dc.RequestsTo("POST", "/channels/{channel_id}/messages/{message_id}/threads")), "no thread was opened")
	for _, c := range h.dc.Channels() {
		assert.NotEqual(t, ch, c.ParentID, "no thread %s is left behind", c.ID)
	}
	_, err := h.store.Game(t.Context(), ch)
	assert.ErrorIs(t, err, storage.ErrNotFound, "no game started")
}

// racingStore is the real store that runs beforeAccept just before each
// AcceptChallenge: a test makes another answer win the race for the
// challenge there.
type racingStore struct {
	*storage.Store
	beforeAccept func()
}

func (s *racingStore) AcceptChallenge(ctx context.Context, channelID string, challengeID uint64, g *storage.Game) error {
	s.beforeAccept()
	return s.Store.AcceptChallenge(ctx, channelID, challengeID, g)
}

func TestThreads(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID
			h.refused(h.command(ch, h.alice, "settings", discordtest.StringOption("threads", "on")), "needs the **Manage Server** permission")
			text := h.reply(h.commandWith(asAdmin, ch, h.alice, "settings", discordtest.StringOption("threads", "on")))
			assert.Contains(t, text, "**Threads**: on")

			msg := h.challengeMessage()
			i := h.click(msg.ID, h.bob, buttons(msg.Components)["Accept"])
			r := h.dc.WaitResponse(t, i.ID)
			g, err := h.store.Game(t.Context(), gameChannel(t, h))
			require.NoError(t, err)
			assert.NotEqual(t, ch, g.ChannelID, "the game is played in a thread")
			assert.Equal(t, ch, g.ParentChannelID)
			assert.Contains(t, r.Content, "<#"+g.ChannelID+">", "the challenge message links to the thread")
			thread, ok := h.dc.Channel(g.ChannelID)
			require.True(t, ok)
			assert.Equal(t, discordgo.ChannelTypeGuildPublicThread, thread.Type)
			assert.Contains(t, thread.Name, "alice")
			assert.Contains(t, thread.Name, "bob")
			h.boardAt(g.ChannelID, 0)

			// Discord archives a quiet thread; the bot's next message brings it back.
			h.dc.SetArchived(g.ChannelID, true)
			first, _ := h.players(g)
			h.command(g.ChannelID, first, "move", discordtest.StringOption("cell", "D4"))
			h.boardAt(g.ChannelID, 1)
			thread, _ = h.dc.Channel(g.ChannelID)
			assert.False(t, thread.ThreadMetadata.Archived, "the thread is open again")
		})
	}
}

// gameChannel returns the channel of the only active game.
func gameChannel(t *testing.T, h *harness) string {
	t.Helper()
	var id string
	require.Eventually(t, func() bool {
		for _, c := range h.dc.Channels() {
			if _, err := h.store.Game(t.Context(), c.ID); err == nil {
				id = c.ID
				return true
			}
		}
		return false
	}, 5e9, 1e6)
	return id
}

func TestThreadsWithoutPermission(t *testing.T) {
	t.Parallel()
	perms := int64(discordtest.DefaultAppPermissions) &^ discordgo.PermissionCreatePublicThreads
	h := newHarness(t, "gateway", discordtest.WithAppPermissions(perms))
	h.commandWith(asAdmin, h.channel.ID, h.alice, "settings", discordtest.StringOption("threads", "on"))
	msg := h.challengeMessage()
	i := h.click(msg.ID, h.bob, buttons(msg.Components)["Accept"])
	assert.Contains(t, h.dc.WaitResponse(t, i.ID).Content, "missing **Create Public Threads** here, so the game is played in this channel")
	h.boardAt(h.channel.ID, 0)
}

func TestThreadRefused(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	h.commandWith(asAdmin, h.channel.ID, h.alice, "settings", discordtest.StringOption("threads", "on"))
	msg := h.challengeMessage()
	h.dc.Fail("POST", "/channels/{channel_id}/messages/{message_id}/threads", discordtest.ErrMissingPermissions, 1)
	i := h.click(msg.ID, h.bob, buttons(msg.Components)["Accept"])
	assert.Contains(t, h.dc.WaitResponse(t, i.ID).Content, "couldn't open a thread")
	h.boardAt(h.channel.ID, 0)
}

func TestAbort(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	ch := h.channel.ID
	g := h.challengeAndAccept()
	first, second := h.players(g)
	for k, cell := range []string{"D4", "A4", "A1", "C1"} {
		user := first
		if k%2 == 1 {
			user = second
		}
		h.command(ch, user, "move", discordtest.StringOption("cell", cell))
		h.boardAt(ch, k+1)
	}
	h.refused(h.command(ch, first, "abort"), "Too late to call it off")
	h.refused(h.command(ch, h.carol, "abort"), "you can watch, but not play")

	h.command(ch, first, "resign")
	require.NoError(t, resignConfirm(h, first))

	g = h.challengeAndAccept()
	first, second = h.players(g)
	h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
	h.boardAt(ch, 1)
	h.command(ch, second, "abort")
	final := h.waitBoard(ch, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "called off") })
	assert.Empty(t, menus(final))
	assert.Contains(t, buttons(final.Components), "Rematch", "even a game called off offers a rematch")
	f, err := h.store.FinishedGame(t.Context(), h.dc.GuildID(), g.ID)
	require.NoError(t, err)
	assert.Equal(t, game.Aborted, f.Result().Ending)
	_, err = h.store.Profile(t.Context(), h.dc.GuildID(), second.ID, storage.Human)
	require.NoError(t, err, "the resigned game counted")
}

// resignConfirm resigns user's game with /kulami resign and its button.
func resignConfirm(h *harness, user *discordgo.User) error {
	i := h.command(h.channel.ID, user, "resign")
	r := h.dc.WaitResponse(h.t, i.ID)
	assert.True(h.t, r.Ephemeral(), "only the player sees the question")
	msg := h.dc.WaitOriginal(h.t, i.ID, func(*discordtest.Message) bool { return true })
	h.click(msg.ID, user, buttons(r.Components)["Yes, resign"])
	h.waitBoard(h.channel.ID, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "resigned") })
	return nil
}

func TestResign(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID
			board, g := h.open()
			first, second := h.players(g)
			assert.NotContains(t, buttons(board.Components), "Resign", "the first board has its menus only")
			h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			board = h.boardAt(ch, 1)

			// The Resign button asks first; "Keep playing" changes nothing.
			i := h.click(board.ID, second, buttons(board.Components)["Resign"])
			r := h.dc.WaitResponse(t, i.ID)
			assert.True(t, r.Ephemeral())
			msg := h.dc.WaitOriginal(t, i.ID, func(*discordtest.Message) bool { return true })
			h.click(msg.ID, second, buttons(r.Components)["Keep playing"])
			_, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err, "still playing")
			h.refused(h.click(board.ID, h.carol, buttons(board.Components)["Resign"]), "you can watch")

			i = h.click(board.ID, second, buttons(board.Components)["Resign"])
			r = h.dc.WaitResponse(t, i.ID)
			msg = h.dc.WaitOriginal(t, i.ID, func(*discordtest.Message) bool { return true })
			h.click(msg.ID, second, buttons(r.Components)["Yes, resign"])
			final := h.waitBoard(ch, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "resigned") })
			assert.Contains(t, final.Content, "<@"+second.ID+"> resigned — <@"+first.ID+"> wins")
			f, err := h.store.FinishedGame(t.Context(), h.dc.GuildID(), g.ID)
			require.NoError(t, err)
			assert.Equal(t, game.Resigned, f.Result().Ending)
			assert.Equal(t, first.ID, f.Player(f.Result().Winner).UserID)
		})
	}
}

func TestDrawOffer(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	ch := h.channel.ID
	g := h.challengeAndAccept()
	first, second := h.players(g)

	offer := h.command(ch, first, "draw")
	r := h.dc.WaitResponse(t, offer.ID)
	assert.True(t, r.Ephemeral(), "the offer is confirmed to the player alone")
	msg := messageAfter(t, h.dc, offer, ch, "the draw offer", hasButton("Accept draw"))
	assert.Contains(t, msg.Content, "<@"+second.ID+">, "+first.Username+" offers you a draw")
	assert.Equal(t, []string{second.ID}, msg.Notified, "the offer notifies the opponent")
	b := buttons(msg.Components)
	h.refused(h.command(ch, first, "draw"), "already offered")
	h.refused(h.click(msg.ID, first, b["Accept draw"]), "You made this offer")
	h.refused(h.click(msg.ID, h.carol, b["Accept draw"]), "you can watch")

	// A move lets the offer lapse.
	h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
	h.boardAt(ch, 1)
	h.refused(h.click(msg.ID, second, b["Accept draw"]), "lapsed")

	offer = h.command(ch, second, "draw")
	msg = messageAfter(t, h.dc, offer, ch, "the draw offer", hasButton("Accept draw"))
	i := h.click(msg.ID, first, buttons(msg.Components)["Decline"])
	assert.Contains(t, h.dc.WaitResponse(t, i.ID).Content, "turned down")
	_, err := h.store.Game(t.Context(), ch)
	require.NoError(t, err)

	offer = h.command(ch, second, "draw")
	msg = messageAfter(t, h.dc, offer, ch, "the draw offer", hasButton("Accept draw"))
	h.click(msg.ID, first, buttons(msg.Components)["Accept draw"])
	h.waitBoard(ch, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Drawn by agreement") })
	f, err := h.store.FinishedGame(t.Context(), h.dc.GuildID(), g.ID)
	require.NoError(t, err)
	assert.Equal(t, game.DrawAgreed, f.Result().Ending)
	assert.True(t, f.Result().Draw)
}

func TestAutocomplete(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	ch := h.channel.ID
	ask := func(user *discordgo.User, typed string) []*discordgo.ApplicationCommandOptionChoice {
		t.Helper()
		i := h.dc.Autocomplete(ch, user, "kulami", discordtest.Subcommand("move", discordtest.Focused(discordtest.StringOption("cell", typed))))
		h.send(i)
		r := h.dc.WaitResponse(t, i.ID)
		assert.Equal(t, discordgo.InteractionApplicationCommandAutocompleteResult, r.Type)
		return r.Choices
	}
	names := func(cs []*discordgo.ApplicationCommandOptionChoice) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Name)
		}
		return out
	}
	assert.Equal(t, []string{"No game in this channel: start one with /kulami challenge"}, names(ask(h.alice, "")))

	g := h.challengeAndAccept()
	first, second := h.players(g)
	assert.Len(t, ask(first, ""), 25, "at most 25 of the 64 first holes")
	assert.Equal(t, []string{"D1", "D2", "D3", "D4", "D5", "D6", "D7", "D8"}, names(ask(first, "d")), "filtered by what was typed, any case")
	assert.Contains(t, names(ask(second, "")), "It's "+first.Username+"'s turn, not yours. You'll be pinged when it's your move.")

	h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
	h.boardAt(ch, 1)
	assert.Equal(t, []string{"D1", "D2", "D3", "A4", "B4", "C4", "F4", "G4", "H4", "D6", "D7", "D8"}, names(ask(second, "")), "the legal holes after D4")
}

func TestRestartMidGame(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID
			g := h.challengeAndAccept()
			first, second := h.players(g)
			h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			board := h.boardAt(ch, 1)

			h.restart()
			var menu string
			for id := range menus(board) {
				menu = id
			}
			h.pick(board.ID, second, menu, "A4")
			h.boardAt(ch, 2)
			g, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			assert.Equal(t, 2, g.Ply(), "the board from before the restart still plays")
		})
	}
}

// TestSlowDiscord accepts a challenge while Discord is slow to open the
// game's thread (it holds the request): the bot defers when its time to
// answer is over, then the challenge message is updated and the board
// posted as when Discord is quick; by button and by command, in both
// modes. The interaction's time moves only when the test says
// (bot.ManualTimer).
func TestSlowDiscord(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			for _, how := range []string{"button", "command"} {
				t.Run(how, func(t *testing.T) {
					const answerWithin = 200 * time.Millisecond
					timer := bot.NewManualTimer()
					h := newHarnessWith(t, mode, func(h *harness) {
						h.answerWithin = answerWithin
						h.timer = timer
					})
					ch := h.channel.ID
					h.commandWith(asAdmin, ch, h.alice, "settings", discordtest.StringOption("threads", "on"))
					msg := h.challengeMessage()
					held := h.dc.Hold("POST", "/channels/{channel_id}/messages/{message_id}/threads", 1)

					i := h.dc.Command(ch, h.bob, "kulami", discordtest.Subcommand("accept"))
					if how == "button" {
						i = h.dc.Button(msg.ID, h.bob, buttons(msg.Components)["Accept"])
					}
					timer.WaitPending(t, 0)
					sent := sendAsync(h, i)
					held.Wait(t) // the handler waits for the thread
					timer.Advance(answerWithin)
					r := h.dc.WaitResponse(t, i.ID)
					held.Release()
					<-sent
					if how == "button" {
						assert.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, r.Type)
					} else {
						assert.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, r.Type)
						assert.False(t, r.Ephemeral())
						h.dc.WaitOriginal(t, i.ID, func(m *discordtest.Message) bool { return strings.Contains(m.Content, "accepted") })
					}
					var challenge *discordtest.Message
					h.dc.WaitUntil(t, "the challenge message says it was accepted", func() bool {
						challenge, _ = h.dc.Message(msg.ID)
						return strings.Contains(challenge.Content, "accepted")
					})
					assert.Empty(t, challenge.Components, "the challenge's buttons are gone")
					g, err := h.store.Game(t.Context(), gameChannel(t, h))
					require.NoError(t, err)
					assert.NotEqual(t, ch, g.ChannelID, "the game is played in its thread")
					h.boardAt(g.ChannelID, 0)
					assert.Empty(t, h.dc.Violations())
				})
			}
		})
	}
}
