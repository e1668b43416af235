package discordtest_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// deferred is the "thinking…" response.
var deferred = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}

// sendCommand connects a client to s's gateway and sends it a command by a new user in a new channel.
func sendCommand(t *testing.T, s *discordtest.Server) (*discordgo.Interaction, *websocket.Conn) {
	t.Helper()
	ch := s.AddChannel("games")
	i := s.Command(ch.ID, s.AddUser("alice"), "kulami")
	ws := identify(t, s)
	s.SendInteraction(i)
	return i, ws
}

// restCode is the Discord error code of a REST error, or 0.
func restCode(t *testing.T, err error) int {
	t.Helper()
	var rest *discordgo.RESTError
	require.ErrorAs(t, err, &rest)
	require.NotNil(t, rest.Message, "Discord's error body")
	return rest.Message.Code
}

func TestTokenExpiresAfter15Minutes(t *testing.T) {
	tests := []struct {
		name    string
		advance time.Duration
		code    int // 0 for success
	}{
		{"fresh", 0, 0},
		{"just in time", 15*time.Minute - time.Second, 0},
		{"expired", 15*time.Minute + time.Second, discordtest.ErrInvalidWebhookToken.Code},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := discordtest.New(t)
			i, _ := sendCommand(t, s)
			dg := s.Session()
			require.NoError(t, dg.InteractionRespond(i, deferred))
			s.Advance(tc.advance)

			content := "later"
			_, editErr := dg.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &content})
			_, followErr := dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "more"})
			if tc.code == 0 {
				assert.NoError(t, editErr)
				assert.NoError(t, followErr)
				return
			}
			assert.Equal(t, tc.code, restCode(t, editErr), "an edit of @original")
			assert.Equal(t, tc.code, restCode(t, followErr), "a followup")
			var rest *discordgo.RESTError
			require.ErrorAs(t, editErr, &rest)
			assert.Equal(t, http.StatusUnauthorized, rest.Response.StatusCode)
			assert.Empty(t, s.Violations(), "an expired token is no violation: the bot must cope")
			checkAnswers(t, s)
			// The channel still takes the bot's messages.
			_, err := dg.ChannelMessageSend(i.ChannelID, "your move")
			assert.NoError(t, err)
		})
	}
}

func TestWithClockSharesTheBotsClock(t *testing.T) {
	now := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	s := discordtest.New(t, discordtest.WithClock(func() time.Time { return now }))
	assert.Equal(t, now, s.Now())
	s.Advance(time.Hour)
	assert.Equal(t, now.Add(time.Hour), s.Now(), "Advance adds to the given clock")

	i, _ := sendCommand(t, s)
	dg := s.Session()
	require.NoError(t, dg.InteractionRespond(i, deferred))
	now = now.Add(20 * time.Minute) // the bot's clock moves
	_, err := dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "more"})
	assert.Equal(t, discordtest.ErrInvalidWebhookToken.Code, restCode(t, err))
}

func TestCallbackDeadlineByTheFakesClock(t *testing.T) {
	s := discordtest.New(t)
	i, _ := sendCommand(t, s)
	s.Advance(4 * time.Second)
	dg := s.Session()
	err := dg.InteractionRespond(i, deferred)
	assert.Equal(t, discordgo.ErrCodeUnknownInteraction, restCode(t, err))
	assert.Empty(t, s.Violations(), "late only because the test moved the clock: no violation")
	_, ok := s.Response(i.ID)
	assert.False(t, ok)
	_, err = dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "more"})
	assert.Equal(t, discordgo.ErrCodeUnknownWebhook, restCode(t, err), "an unacknowledged interaction has no webhook")
}

// TestCallbackInTimeHeldByDiscord: a callback that reaches Discord in time
// is in time, however long Discord then holds it: the deadline counts to
// its arrival, by either clock.
func TestCallbackInTimeHeldByDiscord(t *testing.T) {
	s := discordtest.New(t)
	i, _ := sendCommand(t, s)
	held := s.Hold("POST", "/interactions/{interaction_id}/{interaction_token}/callback", 1)
	dg := s.Session()
	answered := make(chan error, 1)
	go func() { answered <- dg.InteractionRespond(i, deferred) }()
	held.Wait(t)
	s.Advance(4 * time.Second) // Discord is slow past the deadline
	held.Release()
	require.NoError(t, <-answered)
	assert.Empty(t, s.Violations())
	assert.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, s.WaitResponse(t, i.ID).Type)
}

func TestRedelivery(t *testing.T) {
	t.Run("gateway", func(t *testing.T) {
		s := discordtest.New(t)
		i, ws := sendCommand(t, s)
		assert.Contains(t, readText(t, ws), `"t":"INTERACTION_CREATE"`)
		dg := s.Session()
		require.NoError(t, dg.InteractionRespond(i, deferred))

		s.SendInteraction(i)
		again := readText(t, ws)
		assert.Contains(t, again, `"t":"INTERACTION_CREATE"`)
		assert.Contains(t, again, `"id":"`+i.ID+`"`, "the same interaction")
		err := dg.InteractionRespond(i, deferred)
		assert.Equal(t, discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged, restCode(t, err))
		assert.Empty(t, s.Violations(), "the bot cannot know it answered a redelivered interaction")
		assert.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, s.WaitResponse(t, i.ID).Type)
	})
	t.Run("replayed after a resume", func(t *testing.T) {
		s := discordtest.New(t)
		ch := s.AddChannel("games")
		dg, _ := openSession(t, s)
		got := make(chan *discordgo.Interaction, 2)
		dg.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) { got <- ic.Interaction })
		resumed := make(chan struct{}, 1)
		dg.AddHandler(func(*discordgo.Session, *discordgo.Resumed) { resumed <- struct{}{} })
		s.ReplayOnResume(1)

		i := s.Command(ch.ID, s.AddUser("alice"), "kulami")
		s.SendInteraction(i)
		first := receive(t, got, "the interaction")
		require.NoError(t, dg.InteractionRespond(first, deferred))
		s.Reconnect()
		again := receive(t, got, "the interaction again, after the resume")
		receive(t, resumed, "RESUMED")
		assert.Equal(t, i.ID, again.ID)
		err := dg.InteractionRespond(again, deferred)
		assert.Equal(t, discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged, restCode(t, err))
		assert.Empty(t, s.Violations(), "the bot cannot know it answered a replayed interaction")
	})
	t.Run("deadline from the first delivery", func(t *testing.T) {
		s := discordtest.New(t)
		i, _ := sendCommand(t, s)
		s.Advance(4 * time.Second)
		s.SendInteraction(i)
		err := s.Session().InteractionRespond(i, deferred)
		assert.Equal(t, discordgo.ErrCodeUnknownInteraction, restCode(t, err))
	})
	t.Run("http", func(t *testing.T) {
		s := discordtest.New(t)
		ch := s.AddChannel("games")
		var seen []string
		url := endpoint(t, s.PublicKey(), func(w http.ResponseWriter, i *discordgo.Interaction) {
			seen = append(seen, i.ID)
			answerJSON(deferred)(w, i)
		})
		i := s.Command(ch.ID, s.AddUser("alice"), "kulami")
		for range 2 {
			resp, err := s.PostInteraction(url, i)
			require.NoError(t, err)
			require.NoError(t, resp.Body.Close())
		}
		assert.Equal(t, []string{i.ID, i.ID}, seen, "delivered twice")
		assert.Empty(t, s.Violations(), "the second answer is refused, but the bot could not know")
		assert.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, s.WaitResponse(t, i.ID).Type)
	})
}

func TestRejectCallbacks(t *testing.T) {
	t.Run("gateway", func(t *testing.T) {
		s := discordtest.New(t)
		ch := s.AddChannel("games")
		alice := s.AddUser("alice")
		identify(t, s)
		dg := s.Session()
		s.RejectCallbacks(1)

		i := s.Command(ch.ID, alice, "kulami")
		s.SendInteraction(i)
		err := dg.InteractionRespond(i, deferred)
		assert.Equal(t, discordgo.ErrCodeUnknownInteraction, restCode(t, err))
		_, err = dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "board"})
		assert.Equal(t, discordgo.ErrCodeUnknownWebhook, restCode(t, err))
		_, err = dg.ChannelMessageSend(ch.ID, "board")
		assert.NoError(t, err, "the bot token still reaches the channel")
		_, ok := s.Response(i.ID)
		assert.False(t, ok)

		next := s.Command(ch.ID, alice, "kulami")
		s.SendInteraction(next)
		assert.NoError(t, dg.InteractionRespond(next, deferred), "only one callback was rejected")
		assert.Empty(t, s.Violations())
		checkAnswers(t, s)
	})
	t.Run("http", func(t *testing.T) {
		s := discordtest.New(t)
		ch := s.AddChannel("games")
		url := endpoint(t, s.PublicKey(), answerJSON(deferred))
		s.RejectCallbacks(0)
		for range 2 {
			i := s.Command(ch.ID, s.AddUser("alice"), "kulami")
			resp, err := s.PostInteraction(url, i)
			require.NoError(t, err)
			require.NoError(t, resp.Body.Close())
			_, ok := s.Response(i.ID)
			assert.False(t, ok, "the answer was dropped")
		}
		s.ClearFailures()
		i := s.Command(ch.ID, s.AddUser("bob"), "kulami")
		resp, err := s.PostInteraction(url, i)
		require.NoError(t, err)
		require.NoError(t, resp.Body.Close())
		_, ok := s.Response(i.ID)
		assert.True(t, ok, "ClearFailures ends the rejections")
		assert.Empty(t, s.Violations())
	})
}

func TestLoseResponses(t *testing.T) {
	const callback = "/interactions/{interaction_id}/{interaction_token}/callback"
	answer := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseChannelMessageWithSource, Data: &discordgo.InteractionResponseData{Content: "hi"}}
	cases := []struct {
		name string
		err  discordtest.APIError
		code int // of the error the bot gets; 0 for one without Discord's body
	}{
		{"connection broken", discordtest.APIError{}, 0},
		// discordgo sends a request answered 502 again: Discord refuses the repeat.
		{"502, sent again", discordtest.ErrBadGateway, discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := discordtest.New(t)
			i, _ := sendCommand(t, s)
			s.LoseResponses("POST", callback, tc.err, 1)
			dg := s.Session()

			err := dg.InteractionRespond(i, deferred)
			require.Error(t, err, "the bot never got Discord's answer")
			var rest *discordgo.RESTError
			if tc.code == 0 {
				assert.False(t, errors.As(err, &rest), "no answer from Discord: %v", err)
			} else {
				assert.Equal(t, tc.code, restCode(t, err))
			}
			assert.Equal(t, discordgo.InteractionResponseDeferredChannelMessageWithSource, s.WaitResponse(t, i.ID).Type, "Discord took the deferral")

			err = dg.InteractionRespond(i, answer)
			assert.Equal(t, discordgo.ErrCodeInteractionHasAlreadyBeenAcknowledged, restCode(t, err))
			assert.Empty(t, s.Violations(), "the bot could not know its deferral went through")
			assert.NoError(t, dg.InteractionRespond(s.Command(i.ChannelID, s.AddUser("bob"), "kulami"), deferred),
				"only one answer was lost")
		})
	}
}
