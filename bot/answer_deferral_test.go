package bot_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/storage"
)

// slowWrites is a store whose next change of a guild's settings or of a
// game, once armed, is done, then held until the test lets it go: the
// handler that made it is slow to answer after it.
type slowWrites struct {
	bot.Store
	settings, games atomic.Bool   // arm the next change of settings, of a game
	done            chan struct{} // receives once per change held, when it is done
	letItGo         chan struct{} // the test sends once per change, to let it go
}

func (s *slowWrites) UpdateGuildSettings(ctx context.Context, guildID string, fn func(*storage.GuildSettings) error) (storage.GuildSettings, error) {
	g, err := s.Store.UpdateGuildSettings(ctx, guildID, fn)
	s.hold(&s.settings)
	return g, err
}

func (s *slowWrites) UpdateGame(ctx context.Context, channel string, fn func(*storage.Game) error) (*storage.Game, error) {
	g, err := s.Store.UpdateGame(ctx, channel, fn)
	s.hold(&s.games)
	return g, err
}

// hold holds a change done if armed, disarming it.
func (s *slowWrites) hold(armed *atomic.Bool) {
	if armed.CompareAndSwap(true, false) {
		s.done <- struct{}{}
		<-s.letItGo
	}
}

// TestSlowEphemeralAnswer: a command whose handler is slow to answer is
// deferred with a public "thinking…" message, and an answer only its user
// is to see (the settings, a refusal) replaces it: the thinking message is
// deleted and the answer follows up, ephemeral. The harness's reply reads
// it there, as the user does. The interaction's time moves only when the
// test says (bot.ManualTimer), so the handler is slow on every machine.
func TestSlowEphemeralAnswer(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		option *discordgo.ApplicationCommandInteractionDataOption
		want   string
	}{
		{"settings", discordtest.StringOption("timeouts", "claim"), "Settings saved."},
		{"refusal", discordtest.StringOption("move_time", "a while"), "Pick a move time from the list."},
	}
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			const answerWithin = 500 * time.Millisecond
			timer := bot.NewManualTimer()
			slow := &slowWrites{done: make(chan struct{}), letItGo: make(chan struct{})}
			h := newHarnessWith(t, mode, func(h *harness) {
				h.answerWithin, h.timer = answerWithin, timer
				h.wrap = func(s *storage.Store) bot.Store { slow.Store = s; return slow }
			})
			// The first interaction of the guild notes its locale, a
			// change of its settings too: before the store holds any.
			h.reply(h.command(h.channel.ID, h.alice, "settings"))
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					i := h.dc.Command(h.channel.ID, h.alice, "kulami", discordtest.Subcommand("settings", tc.option))
					asAdmin(i)
					slow.settings.Store(true)
					sent := sendAsync(h, i)
					<-slow.done
					timer.Advance(answerWithin)
					r := h.dc.WaitResponse(t, i.ID)
					require.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, r.Type, "the bot deferred for the slow handler")
					assert.False(t, r.Ephemeral(), "a command's deferral shows a public thinking message")
					slow.letItGo <- struct{}{}

					a := h.answerTo(i)
					assert.Contains(t, a.text, tc.want)
					assert.True(t, a.ephemeral, "only alice sees the answer")
					thinking, ok := h.dc.Original(i.ID)
					require.True(t, ok)
					assert.True(t, thinking.Deleted, "the public thinking message is gone")
					require.Len(t, h.dc.Followups(i.ID), 1)
					assert.Equal(t, a.text, h.dc.Followups(i.ID)[0].Content, "the answer followed up")
					<-sent
				})
			}
		})
	}
}

// TestSlowAnswerAfterLostDeferral: in gateway mode, the bot's deferral for
// a slow handler reaches Discord, but its answer is lost (the connection
// breaks after the request went out), so the bot cannot know it went
// through. Discord shows the deferral and refuses the handler's answer as
// a second acknowledgement (40060); the bot then delivers the answer as
// after a deferral it saw, and the player sees it: the settings saved, in
// a message only they see instead of the public "thinking…"; a move
// stored, its board retired and the next one posted. It does not apply to
// http mode: there the first response is the HTTP answer itself, written
// once, and no second callback can be refused.
func TestSlowAnswerAfterLostDeferral(t *testing.T) {
	t.Parallel()
	const answerWithin = 500 * time.Millisecond
	timer := bot.NewManualTimer()
	slow := &slowWrites{done: make(chan struct{}), letItGo: make(chan struct{})}
	h := newHarnessWith(t, "gateway", func(h *harness) {
		h.answerWithin, h.timer = answerWithin, timer
		h.wrap = func(s *storage.Store) bot.Store { slow.Store = s; return slow }
	})
	// slowly sends i, whose handler's change armed holds past the time to
	// answer, with the answer to the bot's deferral lost; it returns once
	// the handler is done.
	slowly := func(t *testing.T, i *discordgo.Interaction, armed *atomic.Bool) {
		h.dc.LoseResponses("POST", "/interactions/{interaction_id}/{interaction_token}/callback", discordtest.APIError{}, 1)
		armed.Store(true)
		sent := sendAsync(h, i)
		<-slow.done
		timer.Advance(answerWithin)
		r := h.dc.WaitResponse(t, i.ID)
		require.Contains(t, []discordgo.InteractionResponseType{discordgo.InteractionResponseDeferredChannelMessageWithSource,
			discordgo.InteractionResponseDeferredMessageUpdate}, r.Type, "Discord got the deferral")
		slow.letItGo <- struct{}{}
		<-sent
	}

	t.Run("settings", func(t *testing.T) {
		h.reply(h.command(h.channel.ID, h.alice, "settings")) // notes the guild's locale
		i := h.dc.Command(h.channel.ID, h.alice, "kulami", discordtest.Subcommand("settings", discordtest.StringOption("timeouts", "claim")))
		asAdmin(i)
		slowly(t, i, &slow.settings)

		a := h.answerTo(i)
		assert.Contains(t, a.text, "Settings saved.")
		assert.True(t, a.ephemeral, "only alice sees the answer")
		thinking, ok := h.dc.Original(i.ID)
		require.True(t, ok)
		assert.True(t, thinking.Deleted, "the public thinking message is gone")
		assert.Empty(t, h.dc.Violations())
	})
	t.Run("move", func(t *testing.T) {
		channel, board := h.startGame(slow, "lost")
		g, err := slow.Game(t.Context(), channel)
		require.NoError(t, err)
		toMove, _ := h.players(g)
		i := h.dc.Select(board.ID, toMove, menuOf(board, "D4"), "D4")
		slowly(t, i, &slow.games)

		g, err = slow.Game(t.Context(), channel)
		require.NoError(t, err)
		require.Equal(t, 1, g.Ply(), "the move is stored")
		h.waitBoard(channel, "the new board", func(m *discordtest.Message) bool { return boardPly(m) == 1 })
		h.dc.WaitUntil(t, "the board clicked is retired", func() bool {
			old, ok := h.dc.Message(board.ID)
			return ok && len(old.Components) == 0
		})
		assert.Empty(t, h.dc.Violations())
	})
}
