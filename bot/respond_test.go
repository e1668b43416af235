package bot

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// TestDeferWhenSlow checks every way a handler can answer after the bot
// deferred for it, against the fake Discord: the answer lands where the
// handler meant it, public or only for the user. So it does after a
// deferral that reached Discord although the bot saw it fail (its answer
// lost, or answered 502 and sent again): Discord shows it, and refuses the
// handler's first response as a second acknowledgement.
func TestDeferWhenSlow(t *testing.T) {
	t.Parallel()
	f := newAnswerFixture(t)
	dc := f.dc
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))

	public := message{content: "for everyone"}
	secret := message{content: "only for you", ephemeral: true}
	type outcome struct {
		original        string // the content of the original response now ("" if none)
		originalDeleted bool
		followup        string // the content of the one follow-up ("" if none)
		followupSecret  bool
	}
	cases := []struct {
		name      string
		component bool
		answer    func(c *interaction) error
		want      outcome
	}{
		{"command, a public message", false, func(c *interaction) error { return c.reply(public) },
			outcome{original: "for everyone"}},
		{"command, an ephemeral refusal", false, func(c *interaction) error { return c.reply(secret) },
			outcome{originalDeleted: true, followup: "only for you", followupSecret: true}},
		{"command, its own public deferral", false, func(c *interaction) error {
			_, err := c.post(message{content: "for everyone", file: &attachment{name: "a.txt", contentType: "text/plain", data: []byte("x")}})
			return err
		}, outcome{original: "for everyone"}},
		{"command, its own ephemeral deferral", false, func(c *interaction) error {
			if err := c.deferReply(true); err != nil {
				return err
			}
			_, err := c.post(secret)
			return err
		}, outcome{originalDeleted: true, followup: "only for you", followupSecret: true}},
		{"component, an update of its message", true, func(c *interaction) error { return c.update(public) },
			outcome{original: "for everyone"}},
		{"component, an ephemeral refusal", true, func(c *interaction) error { return c.reply(secret) },
			outcome{original: "the board", followup: "only for you", followupSecret: true}},
		{"component, a new public message", true, func(c *interaction) error {
			_, err := c.post(public)
			return err
		}, outcome{original: "the board", followup: "for everyone"}},
	}
	deferrals := []struct {
		name string
		lost *discordtest.APIError // how Discord's answer to the deferral was lost; nil: it was not
	}{
		{"", nil},
		{"deferral's answer lost, ", &discordtest.APIError{}},
		{"deferral answered 502, ", &discordtest.ErrBadGateway},
	}
	for _, d := range deferrals {
		for _, tc := range cases {
			t.Run(d.name+tc.name, func(t *testing.T) {
				c := f.interaction(t, tc.component)
				i := c.i
				if d.lost != nil {
					dc.LoseResponses("POST", "/interactions/{interaction_id}/{interaction_token}/callback", *d.lost, 1)
				}
				timer := NewManualTimer()
				stop := c.deferWhenSlow(timer, time.Second, quiet)
				timer.Advance(time.Second)
				r := dc.WaitResponse(t, i.ID)
				assert.Equal(t, deferType(i), r.Type, "the bot deferred")

				require.NoError(t, tc.answer(c))
				stop()

				var got outcome
				if m, ok := dc.Original(i.ID); ok {
					got.originalDeleted = m.Deleted
					if !m.Deleted {
						got.original = m.Content
					}
				}
				if f := dc.Followups(i.ID); len(f) > 0 {
					require.Len(t, f, 1)
					got.followup, got.followupSecret = f[0].Content, f[0].Flags&discordgo.MessageFlagsEphemeral != 0
				}
				assert.Equal(t, tc.want, got)
				assert.Empty(t, dc.Violations())
			})
		}
	}

	t.Run("a handler in time", func(t *testing.T) {
		c := f.interaction(t, false)
		i := c.i
		timer := NewManualTimer()
		stop := c.deferWhenSlow(timer, 50*time.Millisecond, quiet)
		require.NoError(t, c.reply(public))
		stop()
		timer.Advance(time.Second)
		assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, dc.WaitResponse(t, i.ID).Type, "no deferral after the answer")
		assert.Empty(t, dc.Violations())
	})
	t.Run("autocomplete is never deferred", func(t *testing.T) {
		i := dc.Autocomplete(f.ch.ID, f.alice, "kulami", discordtest.Subcommand("move", discordtest.Focused(discordtest.StringOption("cell", "A"))))
		c := f.answering(i)
		timer := NewManualTimer()
		stop := c.deferWhenSlow(timer, time.Millisecond, quiet)
		assert.Zero(t, timer.Pending(), "no timer to defer it")
		timer.Advance(time.Second)
		_, answered := dc.Response(i.ID)
		assert.False(t, answered)
		require.NoError(t, c.choices(nil))
		stop()
		assert.Equal(t, discordgo.InteractionApplicationCommandAutocompleteResult, dc.WaitResponse(t, i.ID).Type)
	})
}

// answerFixture is a fake Discord with a channel and a user, and a
// session of the bot on it, for tests of how an interaction is answered.
type answerFixture struct {
	dc    *discordtest.Server
	s     *discordgo.Session
	ch    *discordgo.Channel
	alice *discordgo.User
}

func newAnswerFixture(t *testing.T) answerFixture {
	t.Helper()
	dc := discordtest.New(t)
	s, err := NewSession(dc.Token(), dc.APIURL())
	require.NoError(t, err)
	return answerFixture{dc: dc, s: s, ch: dc.AddChannel("games"), alice: dc.AddUser("alice")}
}

// interaction returns a new interaction of alice, answered over REST: a
// click on a button of a new message of the bot if component, else a
// /kulami board.
func (f answerFixture) interaction(t *testing.T, component bool) *interaction {
	t.Helper()
	if !component {
		return f.answering(f.dc.Command(f.ch.ID, f.alice, "kulami", discordtest.Subcommand("board")))
	}
	board, err := f.s.ChannelMessageSendComplex(f.ch.ID, &discordgo.MessageSend{Content: "the board", Components: []discordgo.MessageComponent{
		discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.Button{Label: "Resign", CustomID: "kulami:resign:1:1:0"}}},
	}})
	require.NoError(t, err)
	return f.answering(f.dc.Button(board.ID, f.alice, "kulami:resign:1:1:0"))
}

// answering returns i as an interaction being handled, answered over REST.
func (f answerFixture) answering(i *discordgo.Interaction) *interaction {
	return &interaction{ctx: context.Background(), s: f.s, i: i, respond: func(r *discordgo.InteractionResponse) error {
		return f.s.InteractionRespond(i, r)
	}, log: slog.New(slog.DiscardHandler)}
}
