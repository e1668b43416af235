package bot

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// TestAnswerTransitions checks every transition of an interaction's
// answer, against the fake Discord: from each state, what each event
// makes of it and which Discord calls it makes.
func TestAnswerTransitions(t *testing.T) {
	t.Parallel()
	f := newAnswerFixture(t)
	dc := f.dc

	public := message{content: "for everyone"}
	// reach brings a new answer to a state as the bot does.
	reach := map[answerState]func(c *interaction) error{
		notAnswered: func(*interaction) error { return nil },
		deferredForSlowness: func(c *interaction) error {
			_, err := c.answer.deferForSlowness(c)
			return err
		},
		deferred: func(c *interaction) error { return c.deferReply(false) },
		answered: func(c *interaction) error { return c.reply(public) },
	}
	events := answerEvents()
	const (
		edit     = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
		remove   = "DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original"
		followup = "POST /webhooks/{webhook_id}/{webhook_token}"
	)
	cases := []struct {
		component bool
		from      answerState
		event     string
		want      answerState
		calls     []string
		err       error
	}{
		{false, notAnswered, "slow", deferredForSlowness, []string{callback}, nil},
		{false, deferredForSlowness, "slow", deferredForSlowness, nil, nil},
		{false, deferred, "slow", deferred, nil, nil},
		{false, answered, "slow", answered, nil, nil},

		{false, notAnswered, "reply", answered, []string{callback}, nil},
		{false, notAnswered, "defer", deferred, []string{callback}, nil},
		{false, notAnswered, "post", answered, []string{callback, edit}, nil},
		{true, notAnswered, "update", answered, []string{callback}, nil},

		{false, deferredForSlowness, "reply", answered, []string{edit}, nil},
		{false, deferredForSlowness, "reply ephemeral", answered, []string{remove, followup}, nil},
		{false, deferredForSlowness, "defer", deferred, nil, nil},
		{false, deferredForSlowness, "defer ephemeral", answered, []string{remove}, nil},
		{false, deferredForSlowness, "post", answered, []string{edit}, nil},
		{true, deferredForSlowness, "update", answered, []string{edit}, nil},
		{true, deferredForSlowness, "reply ephemeral", answered, []string{followup}, nil},
		{true, deferredForSlowness, "defer", answered, nil, nil},
		{true, deferredForSlowness, "post", answered, []string{followup}, nil},

		{false, deferred, "reply", answered, []string{edit}, nil},
		{false, deferred, "defer", deferred, nil, errAlreadyResponded},
		{false, answered, "reply", answered, []string{followup}, nil},
		{false, answered, "post", answered, []string{followup}, nil},
		{false, answered, "update", answered, nil, errAlreadyResponded},

		// announce: a new message that notifies, whatever came before.
		{false, notAnswered, "announce", answered, []string{callback, edit}, nil},
		{true, notAnswered, "announce", answered, []string{callback, edit}, nil},
		{false, deferredForSlowness, "announce", answered, []string{remove, followup}, nil},
		{true, deferredForSlowness, "announce", answered, []string{followup}, nil},
		{false, deferred, "announce", answered, []string{remove, followup}, nil},
		{false, answered, "announce", answered, []string{followup}, nil},
	}
	for _, tc := range cases {
		kind := "command"
		if tc.component {
			kind = "component"
		}
		t.Run(kind+", "+tc.from.String()+", "+tc.event, func(t *testing.T) {
			c := f.interaction(t, tc.component)
			require.NoError(t, reach[tc.from](c))
			require.Equal(t, tc.from, c.answer.state)
			before := len(dc.Requests())

			err := events[tc.event](c)

			assert.ErrorIs(t, err, tc.err) // with tc.err nil: no error
			assert.Equal(t, tc.want, c.answer.state)
			assert.Equal(t, tc.calls, calls(dc.Requests()[before:]))
		})
	}
}

// callback is the route of an interaction's first response, as the fake
// records it.
const callback = "POST /interactions/{interaction_id}/{interaction_token}/callback"

// answerEvents are what may happen to an answer, by name.
func answerEvents() map[string]func(c *interaction) error {
	public := message{content: "for everyone"}
	secret := message{content: "only for you", ephemeral: true}
	board := message{content: "your move", file: &attachment{name: "board.png", contentType: "image/png", data: []byte("png")}}
	return map[string]func(c *interaction) error{
		"slow": func(c *interaction) error {
			_, err := c.answer.deferForSlowness(c)
			return err
		},
		"reply":           func(c *interaction) error { return c.reply(public) },
		"reply ephemeral": func(c *interaction) error { return c.reply(secret) },
		"defer":           func(c *interaction) error { return c.deferReply(false) },
		"defer ephemeral": func(c *interaction) error { return c.deferReply(true) },
		"post": func(c *interaction) error {
			_, err := c.post(public)
			return err
		},
		"update": func(c *interaction) error { return c.update(public) },
		"announce": func(c *interaction) error {
			_, err := c.answer.announce(c, board)
			return err
		},
	}
}

// calls names the requests reqs by method and route.
func calls(reqs []discordtest.Request) []string {
	var out []string
	for _, r := range reqs {
		out = append(out, r.Method+" "+r.Route)
	}
	return out
}

// TestAnswerAfterLostCallback: a callback that Discord took although the
// bot saw it fail (the fake lost its answer, or answered 502, which
// discordgo sends again and Discord refuses as a repeat) leaves the answer
// as if it went through, or makes the next first response refused with
// 40060 tell it: the answer then goes on as after a callback the bot saw
// go through, with the same calls after the refused one, the same state,
// no error and no violation. A deferral for slowness whose answer was
// lost leaves the answer not answered, for the bot cannot know Discord
// got it.
func TestAnswerAfterLostCallback(t *testing.T) {
	t.Parallel()
	f := newAnswerFixture(t)
	dc := f.dc
	events := answerEvents()
	cases := []struct {
		name    string
		slow    bool                 // the bot defers for the handler first, and that callback is lost
		lost    discordtest.APIError // how
		refused []string             // the calls refused with 40060 before the event's own
	}{
		{"deferral's answer lost", true, discordtest.APIError{}, []string{callback}},
		{"deferral answered 502", true, discordtest.ErrBadGateway, nil},
		{"first response answered 502", false, discordtest.ErrBadGateway, []string{callback}},
	}
	// run makes event of a new interaction, after a deferral for slowness
	// if slow, the answer to the first callback lost as lost says (nil:
	// not lost), and returns the calls the event made and the state it
	// left.
	run := func(t *testing.T, component, slow bool, lost *discordtest.APIError, event string) ([]string, answerState) {
		t.Helper()
		c := f.interaction(t, component)
		if lost != nil {
			dc.LoseResponses("POST", "/interactions/{interaction_id}/{interaction_token}/callback", *lost, 1)
		}
		if slow {
			want := deferredForSlowness
			if lost != nil && lost.Status == 0 {
				want = notAnswered
			}
			_, err := c.answer.deferForSlowness(c)
			require.Equal(t, want == notAnswered, err != nil, "deferral error: %v", err)
			require.Equal(t, want, c.answer.state)
		}
		before := len(dc.Requests())
		require.NoError(t, events[event](c))
		return calls(dc.Requests()[before:]), c.answer.state
	}
	for _, tc := range cases {
		for _, component := range []bool{false, true} {
			kind := "command"
			if component {
				kind = "component"
			}
			for _, event := range []string{"reply", "reply ephemeral", "defer", "defer ephemeral", "post", "update", "announce"} {
				if event == "update" && !component {
					continue // a command has no message to update
				}
				t.Run(tc.name+", "+kind+", "+event, func(t *testing.T) {
					wantCalls, wantState := run(t, component, tc.slow, nil, event)
					gotCalls, gotState := run(t, component, tc.slow, &tc.lost, event)
					assert.Equal(t, slices.Concat(tc.refused, wantCalls), gotCalls)
					assert.Equal(t, wantState, gotState)
					assert.Empty(t, dc.Violations())
				})
			}
		}
	}
}

func TestAnswerStateString(t *testing.T) {
	t.Parallel()
	for s, want := range map[answerState]string{
		notAnswered:         "not answered",
		deferredForSlowness: "deferred for slowness",
		deferred:            "deferred",
		answered:            "answered",
		answered + 1:        "answerState(4)",
	} {
		assert.Equal(t, want, s.String())
	}
}
