package discordtest_test

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

func TestViolations(t *testing.T) {
	tests := []struct {
		name  string
		send  func(s *discordtest.Server, dg *discordgo.Session, ch string) error
		route string // of the violation
		msg   string // part of its message
	}{
		{
			name: "unknown route",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.RequestWithBucketID("GET", discordgo.EndpointChannel(ch)+"/games", nil, "")
				return err
			},
			msg: "no such route",
		},
		{
			name: "outside the API",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.RequestWithBucketID("GET", "https://discord.com/api/v6/gateway", nil, "")
				return err
			},
			msg: "not a Discord API path",
		},
		{
			name: "wrong method",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.RequestWithBucketID("PUT", discordgo.EndpointChannelMessages(ch), map[string]string{"content": "x"}, "")
				return err
			},
			route: "/channels/{channel_id}/messages",
			msg:   "method PUT not allowed (the route has GET, POST)",
		},
		{
			name: "wrong type in the body",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.RequestWithBucketID("POST", discordgo.EndpointChannelMessages(ch), map[string]any{"content": 42}, "")
				return err
			},
			route: "/channels/{channel_id}/messages",
			msg:   "at '/content': got number, want null or string",
		},
		{
			name: "button without style",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.RequestWithBucketID("POST", discordgo.EndpointChannelMessages(ch), map[string]any{"content": "x",
					"components": []any{map[string]any{"type": 1, "components": []any{map[string]any{"type": 2, "custom_id": "a", "label": "A"}}}}}, "")
				return err
			},
			route: "/channels/{channel_id}/messages",
			msg:   "missing property 'style'",
		},
		{
			name: "invalid payload_json of an upload",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: "x", Flags: 1 << 2,
					Embeds: []*discordgo.MessageEmbed{{Title: strings.Repeat("t", 300)}},
					Files:  []*discordgo.File{{Name: "a.png", Reader: bytes.NewReader([]byte("png"))}}})
				return err
			},
			route: "/channels/{channel_id}/messages",
			msg:   "payload_json does not match",
		},
		{
			name: "command name too long",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.ApplicationCommandBulkOverwrite(s.AppID(), "", []*discordgo.ApplicationCommand{{Name: strings.Repeat("k", 33), Description: "d"}})
				return err
			},
			route: "/applications/{application_id}/commands",
			msg:   "maxLength",
		},
		{
			name: "localized command name with a space",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.ApplicationCommandBulkOverwrite(s.AppID(), "", []*discordgo.ApplicationCommand{{Name: "kulami", Description: "d",
					Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "challenge", Description: "d",
						NameLocalizations: map[discordgo.Locale]string{discordgo.French: "lancer un défi"}}}}})
				return err
			},
			route: "/applications/{application_id}/commands",
			msg:   `[0].options[0].name_localizations.fr: "lancer un défi" is not a valid name`,
		},
		{
			name: "option name in upper case",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.ApplicationCommandBulkOverwrite(s.AppID(), "", []*discordgo.ApplicationCommand{{Name: "kulami", Description: "d",
					Options: []*discordgo.ApplicationCommandOption{{Type: discordgo.ApplicationCommandOptionString, Name: "Layout", Description: "d"}}}})
				return err
			},
			route: "/applications/{application_id}/commands",
			msg:   `"Layout" is not a valid name`,
		},
		{
			name: "localization for a locale Discord does not have",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.ApplicationCommandBulkOverwrite(s.AppID(), "", []*discordgo.ApplicationCommand{{Name: "kulami", Description: "d",
					DescriptionLocalizations: &map[discordgo.Locale]string{"es": "Jugar a Kulami"}}})
				return err
			},
			route: "/applications/{application_id}/commands",
			msg:   `description_localizations: "es" is not a Discord locale`,
		},
		{
			name: "two options with the same localized name",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				fr := func(n string) map[discordgo.Locale]string { return map[discordgo.Locale]string{discordgo.French: n} }
				_, err := dg.ApplicationCommandBulkOverwrite(s.AppID(), "", []*discordgo.ApplicationCommand{{Name: "kulami", Description: "d",
					Options: []*discordgo.ApplicationCommandOption{
						{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "rules", Description: "d", NameLocalizations: fr("règles")},
						{Type: discordgo.ApplicationCommandOptionSubCommand, Name: "scoring", Description: "d", NameLocalizations: fr("règles")},
					}}})
				return err
			},
			route: "/applications/{application_id}/commands",
			msg:   `[0].options[1].name_localizations.fr: "règles" is also the name of [0].options[0]`,
		},
		{
			name: "command permissions not a bit set",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.RequestWithBucketID("PUT", discordgo.EndpointApplicationGlobalCommands(s.AppID()),
					[]map[string]any{{"name": "kulami", "description": "d", "default_member_permissions": "manage"}}, "")
				return err
			},
			route: "/applications/{application_id}/commands",
			msg:   "default_member_permissions",
		},
		{
			name: "query parameter out of range",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.ChannelMessages(ch, 500, "", "", "")
				return err
			},
			route: "/channels/{channel_id}/messages",
			msg:   "query parameter limit=\"500\"",
		},
		{
			name: "undeclared query parameter",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.RequestWithBucketID("GET", discordgo.EndpointChannelMessages(ch)+"?limt=5", nil, "")
				return err
			},
			route: "/channels/{channel_id}/messages",
			msg:   "query parameter \"limt\" is not declared",
		},
		{
			name: "path parameter not a snowflake",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.Channel("general")
				return err
			},
			route: "/channels/{channel_id}",
			msg:   "path parameter channel_id=\"general\"",
		},
		{
			name: "wrong token",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				dg.Token = "Bot not-the-token"
				_, err := dg.Channel(ch)
				return err
			},
			route: "/channels/{channel_id}",
			msg:   "Authorization",
		},
		{
			name: "empty message",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.ChannelMessageSendComplex(ch, &discordgo.MessageSend{})
				return err
			},
			route: "/channels/{channel_id}/messages",
			msg:   "empty message",
		},
		{
			name: "content over 2000 characters",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.ChannelMessageSend(ch, strings.Repeat("é", 2001))
				return err
			},
			route: "/channels/{channel_id}/messages",
			msg:   "2000 or fewer",
		},
		{
			name: "thread without type in API v10",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				_, err := dg.RequestWithBucketID("POST", strings.Replace(discordgo.EndpointChannelThreads(ch), "/v9/", "/v10/", 1), map[string]any{"name": "game"}, "")
				return err
			},
			route: "/channels/{channel_id}/threads",
			msg:   "thread type is required",
		},
		{
			name: "second response to an interaction",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				i := s.Command(ch, s.AddUser("alice"), "kulami")
				r := &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource}
				if err := dg.InteractionRespond(i, r); err != nil {
					return fmt.Errorf("first response: %w", err)
				}
				return dg.InteractionRespond(i, r)
			},
			route: "/interactions/{interaction_id}/{interaction_token}/callback",
			msg:   "already acknowledged",
		},
		{
			name: "response type not allowed for the interaction",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				i := s.Command(ch, s.AddUser("alice"), "kulami")
				return dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseUpdateMessage,
					Data: &discordgo.InteractionResponseData{Content: "x"}})
			},
			route: "/interactions/{interaction_id}/{interaction_token}/callback",
			msg:   "response type 7 is not valid for interaction type 2",
		},
		{
			name: "autocomplete result without choices",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				i := s.Autocomplete(ch, s.AddUser("alice"), "kulami", discordtest.Focused(discordtest.StringOption("layout", "")))
				return dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionApplicationCommandAutocompleteResult})
			},
			route: "/interactions/{interaction_id}/{interaction_token}/callback",
			msg:   "missing property 'data'",
		},
		{
			name: "followup before any response",
			send: func(s *discordtest.Server, dg *discordgo.Session, ch string) error {
				i := s.Command(ch, s.AddUser("alice"), "kulami")
				_, err := dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "x"})
				return err
			},
			route: "/webhooks/{webhook_id}/{webhook_token}",
			msg:   "no initial response yet",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := discordtest.New(t, discordtest.CollectViolations())
			dg := s.Session()
			ch := s.AddChannel("games")
			err := tt.send(s, dg, ch.ID)
			assert.Error(t, err, "the fake answers an error")
			v := s.Violations()
			require.Len(t, v, 1, "violations: %v", v)
			assert.Equal(t, tt.route, v[0].Route)
			assert.Contains(t, v[0].Message, tt.msg)
			assert.Contains(t, v[0].String(), v[0].Path)
		})
	}
}

func TestValidRequestsAreNoViolations(t *testing.T) {
	// The description declares few objects closed: an unknown member passes, as Discord ignores it.
	s := discordtest.New(t, discordtest.CollectViolations())
	dg := s.Session()
	ch := s.AddChannel("games")
	_, err := dg.RequestWithBucketID("POST", discordgo.EndpointChannelMessages(ch.ID), map[string]any{"content": "x", "colour": 5}, "")
	require.NoError(t, err)
	_, err = dg.RequestWithBucketID("GET", strings.Replace(discordgo.EndpointChannelMessages(ch.ID), "/v9/", "/v10/", 1)+"?limit=100", nil, "")
	require.NoError(t, err)
	assert.Empty(t, s.Violations())
}

func TestLateResponse(t *testing.T) {
	s := discordtest.New(t, discordtest.CollectViolations(), discordtest.WithAckDeadline(time.Millisecond))
	ch := s.AddChannel("games")
	i := s.Command(ch.ID, s.AddUser("alice"), "kulami")
	ws := identify(t, s)
	s.SendInteraction(i)
	assert.Contains(t, readText(t, ws), `"t":"INTERACTION_CREATE"`)
	time.Sleep(10 * time.Millisecond) // a slow bot, past the (shortened) deadline
	err := s.Session().InteractionRespond(i, &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredChannelMessageWithSource})
	var rest *discordgo.RESTError
	require.ErrorAs(t, err, &rest)
	assert.Equal(t, discordgo.ErrCodeUnknownInteraction, rest.Message.Code)
	v := s.Violations()
	require.Len(t, v, 1)
	assert.Contains(t, v[0].Message, "Discord allows 1ms")
	_, ok := s.Response(i.ID)
	assert.False(t, ok)
}

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	errors []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func TestViolationFailsTheTest(t *testing.T) {
	rec := &recorder{TB: t}
	s := discordtest.New(rec)
	dg := s.Session()
	_, err := dg.RequestWithBucketID("DELETE", discordgo.EndpointGateway, nil, "")
	require.Error(t, err)
	require.Len(t, rec.errors, 1)
	assert.Equal(t, "discordtest: DELETE /gateway (route /gateway): method DELETE not allowed (the route has GET)", rec.errors[0])
}
