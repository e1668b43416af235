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

// slowSettings is a store whose changes of a guild's settings, once
// armed, are done, then held until the test lets them go: the handler
// that made one is slow to answer after it.
type slowSettings struct {
	bot.Store
	armed   atomic.Bool
	done    chan struct{} // receives once per change held, when it is done
	letItGo chan struct{} // the test sends once per change, to let it go
}

func (s *slowSettings) UpdateGuildSettings(ctx context.Context, guildID string, fn func(*storage.GuildSettings) error) (storage.GuildSettings, error) {
	g, err := s.Store.UpdateGuildSettings(ctx, guildID, fn)
	if s.armed.Load() {
		s.done <- struct{}{}
		<-s.letItGo
	}
	return g, err
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
			slow := &slowSettings{done: make(chan struct{}), letItGo: make(chan struct{})}
			h := newHarnessWith(t, mode, func(h *harness) {
				h.answerWithin, h.timer = answerWithin, timer
				h.wrap = func(s *storage.Store) bot.Store { slow.Store = s; return slow }
			})
			// The first interaction of the guild notes its locale, a
			// change of its settings too: before the store holds any.
			h.reply(h.command(h.channel.ID, h.alice, "settings"))
			slow.armed.Store(true)
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					i := h.dc.Command(h.channel.ID, h.alice, "kulami", discordtest.Subcommand("settings", tc.option))
					asAdmin(i)
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
