package discordtest

import (
	"encoding/json"
	"fmt"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// interaction is an interaction the fake built or was given, with what the bot answered to it.
type interaction struct {
	id, token                  string
	typ                        discordgo.InteractionType
	channelID, guildID, userID string
	name                       string       // the command's name
	messageID                  string       // the message of a component (or of a modal opened from one)
	sent                       time.Time    // first delivered, by the fake's clock; zero if never delivered
	sentReal                   time.Time    // first delivered, by the system clock
	deliveries                 atomic.Int32 // how many times it was delivered to the bot; a resume's replay adds to it
	dead                       bool         // never acknowledged in time: its callback and webhook are refused
	httpPending                bool         // posted over HTTP; the fake has not yet read the answer
	resp                       *Response
	respLost                   bool // the bot never got the fake's answer to its callback (LoseResponses)
	originalID                 string
	followups                  []string
	userInstall                bool   // only a user install authorised it: at most 5 follow-ups
	installer                  string // the user whose install authorised it, if a user install did
	ephemeralOnly              bool   // Discord forces its answers ephemeral (no Use External Apps)
}

// owners is the interaction's authorizing_integration_owners: the app is installed to the guild, and
// Discord sends "0" for the bot's DMs.
func (i *interaction) owners() map[string]string {
	if i.guildID != "" {
		return map[string]string{"0": i.guildID}
	}
	return map[string]string{"0": "0"}
}

// Response is the initial response of the bot to an interaction: by callback or, in HTTP mode, as the
// HTTP response. Later edits of the message it created are in Original.
type Response struct {
	InteractionID string
	Type          discordgo.InteractionResponseType
	Content       string
	Flags         discordgo.MessageFlags
	Embeds        []*discordgo.MessageEmbed
	Components    []discordgo.MessageComponent
	Choices       []*discordgo.ApplicationCommandOptionChoice // autocomplete results
	CustomID      string                                      // of a modal
	Title         string                                      // of a modal
	Files         []File
	Body          json.RawMessage // the interaction response as sent: the JSON body, or payload_json
	HTTP          bool            // sent as the HTTP response to PostInteraction, not by callback
}

// Ephemeral reports whether the response asked for a message only the invoking user sees.
func (r *Response) Ephemeral() bool { return r.Flags&discordgo.MessageFlagsEphemeral != 0 }

// decodeResponse reads an interaction response body.
func decodeResponse(body []byte, files []File) (*Response, error) {
	var raw struct {
		Type discordgo.InteractionResponseType `json:"type"`
		Data *struct {
			Content    string                                      `json:"content"`
			Flags      discordgo.MessageFlags                      `json:"flags"`
			Embeds     []*discordgo.MessageEmbed                   `json:"embeds"`
			Components []json.RawMessage                           `json:"components"`
			Choices    []*discordgo.ApplicationCommandOptionChoice `json:"choices"`
			CustomID   string                                      `json:"custom_id"`
			Title      string                                      `json:"title"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &raw); err != nil {
		return nil, err
	}
	r := &Response{Type: raw.Type, Files: files, Body: slices.Clone(body)}
	if d := raw.Data; d != nil {
		r.Content, r.Flags, r.Embeds, r.Choices, r.CustomID, r.Title = d.Content, d.Flags, d.Embeds, d.Choices, d.CustomID, d.Title
		for _, c := range d.Components {
			mc, err := discordgo.MessageComponentFromJSON(c)
			if err != nil {
				return nil, err
			}
			r.Components = append(r.Components, mc)
		}
	}
	return r, nil
}

// Response returns the bot's initial response to an interaction, if it has responded.
func (s *Server) Response(interactionID string) (*Response, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.interactions[interactionID]
	if i == nil || i.resp == nil {
		return nil, false
	}
	r := *i.resp
	return &r, true
}

// WaitResponse waits for the bot's initial response to an interaction and fails the test if none comes
// within the timeout.
func (s *Server) WaitResponse(tb testing.TB, interactionID string) *Response {
	tb.Helper()
	var r *Response
	s.WaitUntil(tb, "the response to interaction "+interactionID, func() bool {
		var ok bool
		r, ok = s.Response(interactionID)
		return ok
	})
	return r
}

// Original returns the message of an interaction's response as it is now (after edits of @original):
// the message a type 4 or 5 response created, or the component's message for types 6 and 7. As on
// Discord, the first followup after a type 5 response replaces its "thinking…" message, keeping its
// visibility; that followup is then the original too.
func (s *Server) Original(interactionID string) (*Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.interactions[interactionID]
	if i == nil || s.messages[i.originalID] == nil {
		return nil, false
	}
	return s.messageValue(s.messages[i.originalID]), true
}

// WaitOriginal waits until the message of an interaction's response satisfies cond (e.g. a deferred
// response was edited to its final content), fails the test after the timeout, and returns the message.
func (s *Server) WaitOriginal(tb testing.TB, interactionID string, cond func(*Message) bool) *Message {
	tb.Helper()
	var m *Message
	s.WaitUntil(tb, "the original response of interaction "+interactionID+" to satisfy the condition", func() bool {
		var ok bool
		m, ok = s.Original(interactionID)
		return ok && cond(m)
	})
	return m
}

// Followups returns the followup messages of an interaction, in order, as they are now.
func (s *Server) Followups(interactionID string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.interactions[interactionID]
	if i == nil {
		return nil
	}
	var out []*Message
	for _, id := range i.followups {
		out = append(out, s.messageValue(s.messages[id]))
	}
	return out
}

// register records an interaction so that the bot can respond to it. Call with s.mu held.
func (s *Server) register(di *discordgo.Interaction) *interaction {
	i := s.interactions[di.ID]
	if i == nil {
		i = &interaction{id: di.ID}
		s.interactions[di.ID] = i
	}
	delete(s.byToken, i.token)
	i.token, i.typ, i.channelID, i.guildID = di.Token, di.Type, di.ChannelID, di.GuildID
	s.byToken[i.token] = i
	switch {
	case di.Member != nil && di.Member.User != nil:
		i.userID = di.Member.User.ID
	case di.User != nil:
		i.userID = di.User.ID
	}
	if di.Message != nil {
		i.messageID = di.Message.ID
	}
	i.userInstall, i.ephemeralOnly = userInstallOnly(di), forcedEphemeral(di, s.channels[di.ChannelID])
	i.installer = di.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationUserInstall]
	if d, ok := di.Data.(discordgo.ApplicationCommandInteractionData); ok {
		i.name = d.Name
	}
	return i
}

// deliver registers an interaction that is being delivered to the bot and counts the delivery; its
// deadlines run from the first. Call with s.mu held.
func (s *Server) deliver(di *discordgo.Interaction) *interaction {
	i := s.register(di)
	if i.deliveries.Load() == 0 {
		i.sent, i.sentReal = s.Now(), time.Now()
	}
	i.deliveries.Add(1)
	return i
}

// RejectCallbacks makes the fake refuse the next times initial responses to interactions (times <= 0:
// every one until ClearFailures) as Discord refuses one that came too late: a callback is answered 404
// Unknown interaction (10062), and in HTTP mode the bot's answer is dropped. The user then sees "This
// interaction failed", and the interaction's webhook (followups, @original) answers 404 Unknown Webhook
// from then on. None of this is a violation: it is what a slow network does to a healthy bot.
func (s *Server) RejectCallbacks(times int) {
	if times <= 0 {
		times = -1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rejections = times
}

// takeRejection reports whether to reject this initial response, counting it. Call with s.mu held.
func (s *Server) takeRejection() bool {
	if s.rejections == 0 {
		return false
	}
	if s.rejections > 0 {
		s.rejections--
	}
	return true
}

// allowedResponses lists the response types Discord accepts for each interaction type.
var allowedResponses = map[discordgo.InteractionType][]discordgo.InteractionResponseType{
	discordgo.InteractionPing: {discordgo.InteractionResponsePong},
	discordgo.InteractionApplicationCommand: {discordgo.InteractionResponseChannelMessageWithSource,
		discordgo.InteractionResponseDeferredChannelMessageWithSource, discordgo.InteractionResponseModal},
	discordgo.InteractionMessageComponent: {discordgo.InteractionResponseChannelMessageWithSource,
		discordgo.InteractionResponseDeferredChannelMessageWithSource, discordgo.InteractionResponseDeferredMessageUpdate,
		discordgo.InteractionResponseUpdateMessage, discordgo.InteractionResponseModal},
	discordgo.InteractionApplicationCommandAutocomplete: {discordgo.InteractionApplicationCommandAutocompleteResult},
	discordgo.InteractionModalSubmit: {discordgo.InteractionResponseChannelMessageWithSource,
		discordgo.InteractionResponseDeferredChannelMessageWithSource, discordgo.InteractionResponseDeferredMessageUpdate,
		discordgo.InteractionResponseUpdateMessage},
}

// respond applies the initial response to an interaction. c carries the response (body and files) and
// names the request for violations. Call with s.mu held.
func (s *Server) respond(i *interaction, c *call, viaHTTP bool) reply {
	switch {
	case i.resp != nil && (i.deliveries.Load() > 1 || i.respLost):
		return fail(ErrAlreadyAcknowledged) // delivered twice, or its answer lost: the bot cannot know it answered
	case i.resp != nil:
		return s.refuse(c, ErrAlreadyAcknowledged, fmt.Sprintf("interaction %s was already acknowledged (response type %d)", i.id, i.resp.Type))
	case i.dead:
		return fail(ErrUnknownInteraction)
	}
	if late := c.arrived.Sub(i.sentReal); !viaHTTP && !i.sent.IsZero() && late > s.cfg.ackDeadline {
		i.dead = true
		return s.refuse(c, ErrUnknownInteraction, fmt.Sprintf("initial response to interaction %s came %v after it was sent; Discord allows %v", i.id, late.Round(time.Millisecond), s.cfg.ackDeadline))
	}
	// Late by the fake's clock only: the test moved time on (Advance), the bot was not slow.
	if late := c.arrivedNow.Sub(i.sent); !viaHTTP && !i.sent.IsZero() && late > s.cfg.ackDeadline {
		i.dead = true
		return fail(ErrUnknownInteraction)
	}
	if s.takeRejection() {
		i.dead = true
		return fail(ErrUnknownInteraction)
	}
	r, err := decodeResponse(c.body, c.files)
	if err != nil {
		return s.refuse(c, errInvalidBody, fmt.Sprintf("interaction response: %v", err))
	}
	r.InteractionID, r.HTTP = i.id, viaHTTP
	if !slices.Contains(allowedResponses[i.typ], r.Type) {
		return s.refuse(c, errInvalidBody, fmt.Sprintf("response type %d is not valid for interaction type %d", r.Type, i.typ))
	}
	var data struct {
		Data json.RawMessage `json:"data"`
	}
	_ = json.Unmarshal(c.body, &data)
	ch := s.channels[i.channelID]
	switch r.Type {
	case discordgo.InteractionResponseChannelMessageWithSource, discordgo.InteractionResponseDeferredChannelMessageWithSource:
		if ch == nil && s.deleted[i.channelID] {
			return fail(ErrUnknownChannel)
		}
		if ch == nil {
			return s.refuse(c, ErrUnknownChannel, fmt.Sprintf("interaction %s is in unknown channel %q", i.id, i.channelID))
		}
		m := &message{id: s.newID(), channelID: ch.id, authorID: s.bot.ID, inter: i}
		if i.typ == discordgo.InteractionApplicationCommand {
			m.typ = discordgo.MessageTypeChatInputCommand
		}
		if i.ephemeralOnly {
			m.flags = flagEphemeral
			r.Flags |= discordgo.MessageFlagsEphemeral
		}
		if r.Type == discordgo.InteractionResponseDeferredChannelMessageWithSource {
			m.flags |= flagLoading | int64(r.Flags)&flagEphemeral
		} else if e, why, ok := s.apply(m, data.Data, c.files, true); !ok {
			return s.refuse(c, e, why)
		}
		s.store(ch, m)
		i.originalID = m.id
	case discordgo.InteractionResponseDeferredMessageUpdate, discordgo.InteractionResponseUpdateMessage:
		m := s.messages[i.messageID]
		if m == nil || m.deleted {
			return s.refuse(c, ErrUnknownMessage, fmt.Sprintf("response type %d needs the component's message, but interaction %s has none", r.Type, i.id))
		}
		if r.Type == discordgo.InteractionResponseUpdateMessage {
			if e, why, ok := s.apply(m, data.Data, c.files, false); !ok {
				return s.refuse(c, e, why)
			}
		}
		i.originalID = m.id
	}
	i.resp, i.respLost = r, c.lost
	return noContent()
}

// webhook finds the interaction of a /webhooks/{webhook_id}/{webhook_token} request. Call with s.mu held.
func (s *Server) webhook(c *call) (*interaction, reply, bool) {
	i := s.byToken[c.params["webhook_token"]]
	if c.params["webhook_id"] != s.appID || i == nil || i.dead {
		return nil, fail(errUnknownWebhook), false
	}
	if !i.sent.IsZero() && s.Now().Sub(i.sent) > tokenLifetime {
		return nil, fail(ErrInvalidWebhookToken), false
	}
	if i.resp == nil {
		return nil, s.refuse(c, errUnknownWebhook, fmt.Sprintf("interaction %s has no initial response yet; its webhook works only after one", i.id)), false
	}
	return i, reply{}, true
}

// webhookMessage finds the message of a webhook message route: @original or one of the followups.
func (s *Server) webhookMessage(c *call) (*message, reply, bool) {
	i, rep, ok := s.webhook(c)
	if !ok {
		return nil, rep, false
	}
	id, given := c.params["message_id"]
	if !given {
		id = i.originalID
	} else if id != i.originalID && !slices.Contains(i.followups, id) {
		return nil, fail(ErrUnknownMessage), false
	}
	m := s.messages[id]
	if m == nil || m.deleted {
		return nil, fail(ErrUnknownMessage), false
	}
	return m, reply{}, true
}

// interactionEndpoints are the operations on interactions: the initial response, then the webhook
// messages (the original response and follow-ups) by the interaction's token.
var interactionEndpoints = []endpoint{
	{"POST /interactions/{interaction_id}/{interaction_token}/callback", (*Server).createInteractionResponse},
	{"GET /webhooks/{webhook_id}/{webhook_token}/messages/@original", (*Server).getWebhookMessage},
	{"PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original", (*Server).editWebhookMessage},
	{"DELETE /webhooks/{webhook_id}/{webhook_token}/messages/@original", (*Server).deleteWebhookMessage},
	{"GET /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", (*Server).getWebhookMessage},
	{"PATCH /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", (*Server).editWebhookMessage},
	{"DELETE /webhooks/{webhook_id}/{webhook_token}/messages/{message_id}", (*Server).deleteWebhookMessage},
	{"POST /webhooks/{webhook_id}/{webhook_token}", (*Server).executeWebhook},
}

// createInteractionResponse takes the initial response to an interaction over REST.
func (s *Server) createInteractionResponse(c *call) reply {
	i := s.interactions[c.params["interaction_id"]]
	if i == nil || i.token != c.params["interaction_token"] {
		return fail(ErrUnknownInteraction)
	}
	return s.respond(i, c, false)
}

// getWebhookMessage answers the original response or a follow-up of an interaction.
func (s *Server) getWebhookMessage(c *call) reply {
	m, rep, ok := s.webhookMessage(c)
	if !ok {
		return rep
	}
	return jsonOK(s.messageJSON(m))
}

// editWebhookMessage edits the original response or a follow-up of an interaction; an edit fills in
// a deferred response.
func (s *Server) editWebhookMessage(c *call) reply {
	m, rep, ok := s.webhookMessage(c)
	if !ok {
		return rep
	}
	if e, why, ok := s.apply(m, c.body, c.files, false); !ok {
		return s.refuse(c, e, why)
	}
	m.flags &^= flagLoading
	return jsonOK(s.messageJSON(m))
}

// deleteWebhookMessage deletes the original response or a follow-up of an interaction.
func (s *Server) deleteWebhookMessage(c *call) reply {
	m, rep, ok := s.webhookMessage(c)
	if !ok {
		return rep
	}
	m.deleted = true
	return noContent()
}

// executeWebhook sends a follow-up of an interaction.
func (s *Server) executeWebhook(c *call) reply {
	i, rep, ok := s.webhook(c)
	if !ok {
		return rep
	}
	chID := i.channelID
	if t := c.query.Get("thread_id"); t != "" {
		chID = t
	}
	ch := s.channels[chID]
	if ch == nil {
		return fail(ErrUnknownChannel)
	}
	if i.userInstall && len(i.followups) >= maxUserInstallFollowups {
		return s.refuse(c, ErrMaxFollowups, fmt.Sprintf("interaction %s, authorised only by a user install, already has %d follow-ups; Discord allows %d", i.id, len(i.followups), maxUserInstallFollowups))
	}
	// The first followup of a deferred response replaces its "thinking…" message, which keeps
	// the visibility the deferral chose.
	if o := s.messages[i.originalID]; o != nil && !o.deleted && o.flags&flagLoading != 0 && chID == i.channelID {
		body := c.body
		if v, err := decodeAny(body); err == nil {
			if obj, isObj := v.(map[string]any); isObj {
				delete(obj, "flags")
				body = mustJSON(obj)
			}
		}
		if e, why, ok := s.apply(o, body, c.files, false); !ok {
			return s.refuse(c, e, why)
		}
		o.flags &^= flagLoading
		i.followups = append(i.followups, o.id)
		if c.query.Get("wait") != "true" {
			return noContent()
		}
		return jsonOK(s.messageJSON(o))
	}
	m, rep, ok := s.postMessage(ch, s.bot.ID, c, i)
	if !ok {
		return rep
	}
	i.followups = append(i.followups, m.id)
	if c.query.Get("wait") != "true" {
		return noContent()
	}
	return jsonOK(s.messageJSON(m))
}
