package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
)

// respondFunc sends the first response to an interaction: over REST in
// gateway mode, as the HTTP response in http mode.
type respondFunc func(*discordgo.InteractionResponse) error

// message is what the bot says: the parts of a Discord message it uses.
type message struct {
	content    string
	embeds     []*discordgo.MessageEmbed
	components []discordgo.MessageComponent
	file       *attachment // an attached file: a board image, a record
	ephemeral  bool
	mentions   []string // user IDs this message may ping; nobody else is pinged
	// silent: the message notifies nobody, its mentions nor a DM's
	// recipient (SUPPRESS_NOTIFICATIONS): a notice in quiet hours (notice.go).
	silent bool
	// choices are the suggestions that answer an autocomplete, instead of
	// a message.
	choices []*discordgo.ApplicationCommandOptionChoice
}

// attachment is a file attached to a message.
type attachment struct {
	name, contentType string
	data              []byte
	description       string // alt text of an image, at most 1024 characters
}

// The routes of the answers to an interaction, as Discord's API reference
// spells them, for the log of their faults (logFault).
const (
	routeCallback       = "POST /interactions/{interaction_id}/{interaction_token}/callback"
	routeEditOriginal   = "PATCH /webhooks/{application_id}/{interaction_token}/messages/@original"
	routeDeleteOriginal = "DELETE /webhooks/{application_id}/{interaction_token}/messages/@original"
	routeFollowup       = "POST /webhooks/{application_id}/{interaction_token}"
)

// interaction is one interaction being handled: the request, who sent it
// and how to answer. Its handler uses it from one goroutine; the timer of
// deferWhenSlow also moves its answer, which is safe for concurrent use.
type interaction struct {
	ctx context.Context // cancelled when the handler returns or the bot closes (see handle)
	s   *discordgo.Session
	i   *discordgo.Interaction
	// recipients are the users of the DM or group DM the interaction
	// comes from, as its channel lists them; nil elsewhere, or if the
	// interaction did not say.
	recipients []string
	respond    respondFunc
	answer     answer
	public     i18n.Lang    // the language of public messages, once publicLang found it
	log        *slog.Logger // Discord's faults in answering go to it
}

// deferWhenSlow makes sure Discord hears from the bot within d (Discord
// fails an interaction that is not answered within 3 seconds): if the
// handler has sent no first response by then, the bot defers for it, and
// the handler's first response is later delivered in a way that fits the
// deferral (see answer.late). Autocomplete cannot be deferred. d is
// counted on timer; stop ends the wait; errors of the deferral go to log.
func (c *interaction) deferWhenSlow(timer Timer, d time.Duration, log *slog.Logger) (stop func()) {
	if c.i.Type == discordgo.InteractionApplicationCommandAutocomplete {
		return func() {}
	}
	stopTimer := timer.AfterFunc(d, func() {
		tried, err := c.answer.deferForSlowness(c)
		switch {
		case err != nil:
			log.Error("could not defer for a slow handler", "interaction", c.i.ID, "err", err)
		case tried:
			log.Warn("handler slow to answer; deferred for it", "interaction", c.i.ID, "name", interactionName(c.i))
		}
	})
	return func() { stopTimer() }
}

// deferType is the deferral that suits an interaction: a component's
// message is usually updated, a command answered with a message.
func deferType(i *discordgo.Interaction) discordgo.InteractionResponseType {
	if i.Type == discordgo.InteractionMessageComponent {
		return discordgo.InteractionResponseDeferredMessageUpdate
	}
	return discordgo.InteractionResponseDeferredChannelMessageWithSource
}

// user returns who caused the interaction, in a guild or a DM.
func (c *interaction) user() *discordgo.User {
	if c.i.Member != nil && c.i.Member.User != nil {
		return c.i.Member.User
	}
	if c.i.User != nil {
		return c.i.User
	}
	return &discordgo.User{}
}

// displayName returns the name the caller shows in the guild.
func (c *interaction) displayName() string {
	if m := c.i.Member; m != nil && m.Nick != "" {
		return m.Nick
	}
	return displayName(c.user())
}

func displayName(u *discordgo.User) string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// responded reports whether the handler has sent its first response.
func (c *interaction) responded() bool { return c.answer.responded() }

// reply answers with a new message: as the first response, by filling in a
// deferred response, or as a follow-up.
func (c *interaction) reply(m message) error { return c.answer.reply(c, m) }

// post answers with m and returns the message it became: by filling in a
// deferred response (deferring first if nothing was answered yet), or as a
// follow-up. Messages with an image go this way: Discord takes no files in
// the HTTP response of an interaction.
func (c *interaction) post(m message) (*discordgo.Message, error) { return c.answer.post(c, m) }

// say answers with a short message only the caller sees.
func (c *interaction) say(text string) error {
	return c.reply(message{content: text, ephemeral: true})
}

// deferReply acknowledges the interaction; the answer follows with editReply.
func (c *interaction) deferReply(ephemeral bool) error {
	return c.answer.first(c, discordgo.InteractionResponseDeferredChannelMessageWithSource, message{ephemeral: ephemeral})
}

// editReply fills in (or replaces) the first response and returns it.
func (c *interaction) editReply(m message) (_ *discordgo.Message, err error) {
	defer func() { logFault(c.log, routeEditOriginal, c.i.ChannelID, err) }()
	e := &discordgo.WebhookEdit{
		Content:         &m.content,
		Embeds:          &m.embeds,
		Components:      &m.components,
		AllowedMentions: m.allowedMentions(),
		Files:           m.files(),
	}
	if e.Embeds == nil || *e.Embeds == nil {
		e.Embeds = &[]*discordgo.MessageEmbed{}
	}
	if *e.Components == nil {
		e.Components = &[]discordgo.MessageComponent{}
	}
	uri := discordgo.EndpointWebhookMessage(c.i.AppID, c.i.Token, "@original")
	if m.file != nil {
		payload := struct {
			*discordgo.WebhookEdit
			Attachments []attachmentRef `json:"attachments"`
		}{e, m.attachmentRefs()}
		return sendWithFile(c.ctx, c.s, http.MethodPatch, uri, uri, payload, m)
	}
	// discordgo puts every edit of a webhook message without a file in one
	// rate-limit bucket, held for the whole round trip, so under load the
	// answers of unrelated interactions queued behind each other. Discord
	// limits interaction webhooks per token: the bucket is the message's
	// own URL, as discordgo already does for edits with a file.
	body, err := c.s.RequestWithBucketID(http.MethodPatch, uri, e, uri, discordgo.WithContext(c.ctx))
	if err != nil {
		return nil, err
	}
	var msg discordgo.Message
	if err := json.Unmarshal(body, &msg); err != nil {
		return nil, fmt.Errorf("read the edited message: %w", err)
	}
	return &msg, nil
}

// deleteReply deletes the first response.
func (c *interaction) deleteReply() (err error) {
	defer func() { logFault(c.log, routeDeleteOriginal, c.i.ChannelID, err) }()
	return c.s.InteractionResponseDelete(c.i, discordgo.WithContext(c.ctx))
}

// followup sends another message after the first response.
func (c *interaction) followup(m message) (_ *discordgo.Message, err error) {
	defer func() { logFault(c.log, routeFollowup, c.i.ChannelID, err) }()
	p := &discordgo.WebhookParams{
		Content:         m.content,
		Embeds:          m.embeds,
		Components:      m.components,
		AllowedMentions: m.allowedMentions(),
		Files:           m.files(),
	}
	if p.Components == nil {
		p.Components = []discordgo.MessageComponent{}
	}
	p.Flags = m.flags()
	if m.file != nil {
		payload := struct {
			*discordgo.WebhookParams
			Attachments []attachmentRef `json:"attachments"`
		}{p, m.attachmentRefs()}
		return sendWithFile(c.ctx, c.s, http.MethodPost, discordgo.EndpointWebhookToken(c.i.AppID, c.i.Token)+"?wait=true",
			discordgo.EndpointWebhookToken("", ""), payload, m)
	}
	return c.s.FollowupMessageCreate(c.i, true, p, discordgo.WithContext(c.ctx))
}

// update replaces the message whose component was clicked.
func (c *interaction) update(m message) error {
	return c.answer.first(c, discordgo.InteractionResponseUpdateMessage, m)
}

// updateWithFile replaces the message whose component was clicked with
// m, which has a file: Discord takes no file in the response of an
// interaction, so the bot defers the update (unless the handler did) and
// edits the message.
func (c *interaction) updateWithFile(m message) error {
	if !c.responded() {
		if err := c.answer.first(c, discordgo.InteractionResponseDeferredMessageUpdate, message{}); err != nil {
			return err
		}
	}
	_, err := c.editReply(m)
	return err
}

// choices answers an autocomplete.
func (c *interaction) choices(ch []*discordgo.ApplicationCommandOptionChoice) error {
	if ch == nil {
		ch = []*discordgo.ApplicationCommandOptionChoice{}
	}
	return c.answer.first(c, discordgo.InteractionApplicationCommandAutocompleteResult, message{choices: ch})
}

// firstResponse is m as the first response of type t to an interaction.
func (m message) firstResponse(t discordgo.InteractionResponseType) *discordgo.InteractionResponse {
	d := m.responseData()
	switch t {
	case discordgo.InteractionResponseDeferredChannelMessageWithSource:
		d = &discordgo.InteractionResponseData{Flags: d.Flags}
	case discordgo.InteractionApplicationCommandAutocompleteResult:
		d = &discordgo.InteractionResponseData{Choices: m.choices}
	}
	return &discordgo.InteractionResponse{Type: t, Data: d}
}

func (m message) responseData() *discordgo.InteractionResponseData {
	d := &discordgo.InteractionResponseData{
		Content:         m.content,
		Embeds:          m.embeds,
		Components:      m.components,
		AllowedMentions: m.allowedMentions(),
	}
	if d.Embeds == nil {
		d.Embeds = []*discordgo.MessageEmbed{}
	}
	if d.Components == nil {
		d.Components = []discordgo.MessageComponent{}
	}
	d.Flags = m.flags()
	return d
}

// flags are m's message flags: ephemeral, silent.
func (m message) flags() discordgo.MessageFlags {
	var f discordgo.MessageFlags
	if m.ephemeral {
		f |= discordgo.MessageFlagsEphemeral
	}
	if m.silent {
		f |= discordgo.MessageFlagsSuppressNotifications
	}
	return f
}

func (m message) allowedMentions() *discordgo.MessageAllowedMentions {
	return &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: m.mentions}
}

func (m message) files() []*discordgo.File {
	if m.file == nil {
		return nil
	}
	return []*discordgo.File{{Name: m.file.name, ContentType: m.file.contentType, Reader: bytes.NewReader(m.file.data)}}
}
