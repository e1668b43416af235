package bot

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAnswerTransitions checks every transition of an interaction's
// answer, against the fake Discord: from each state, what each event
// makes of it and which Discord calls it makes.
func TestAnswerTransitions(t *testing.T) {
	t.Parallel()
	f := newAnswerFixture(t)
	dc := f.dc

	public := message{content: "for everyone"}
	secret := message{content: "only for you", ephemeral: true}
	board := message{content: "your move", file: &attachment{name: "board.png", contentType: "image/png", data: []byte("png")}}
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
	events := map[string]func(c *interaction) error{
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
	const (
		callback = "POST /interactions/{interaction_id}/{interaction_token}/callback"
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
			var calls []string
			for _, r := range dc.Requests()[before:] {
				calls = append(calls, r.Method+" "+r.Route)
			}
			assert.Equal(t, tc.calls, calls)
		})
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
