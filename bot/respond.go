package bot

import (
	"bytes"
	"context"
	"errors"

	"github.com/bwmarrin/discordgo"
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
}

// attachment is a file attached to a message.
type attachment struct {
	name, contentType string
	data              []byte
}

// interaction is one interaction being handled: the request, who sent it
// and how to answer. Not safe for concurrent use.
type interaction struct {
	ctx       context.Context
	s         *discordgo.Session
	i         *discordgo.Interaction
	respond   respondFunc
	responded bool // the first response is sent
	deferred  bool // ...and it was a deferred one ("thinking")
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

var errAlreadyResponded = errors.New("interaction already answered")

func (c *interaction) first(t discordgo.InteractionResponseType, d *discordgo.InteractionResponseData) error {
	if c.responded {
		return errAlreadyResponded
	}
	c.responded = true
	c.deferred = t == discordgo.InteractionResponseDeferredChannelMessageWithSource
	return c.respond(&discordgo.InteractionResponse{Type: t, Data: d})
}

// reply answers with a new message: as the first response, by filling in a
// deferred response, or as a follow-up.
func (c *interaction) reply(m message) error {
	if !c.responded && m.file == nil {
		return c.first(discordgo.InteractionResponseChannelMessageWithSource, m.responseData())
	}
	_, err := c.post(m)
	return err
}

// post answers with m and returns the message it became: by filling in a
// deferred response (deferring first if nothing was answered yet), or as a
// follow-up. Messages with an image go this way: Discord takes no files in
// the HTTP response of an interaction.
func (c *interaction) post(m message) (*discordgo.Message, error) {
	if !c.responded {
		if err := c.deferReply(m.ephemeral); err != nil {
			return nil, err
		}
	}
	if c.deferred {
		return c.editReply(m)
	}
	return c.followup(m)
}

// say answers with a short message only the caller sees.
func (c *interaction) say(text string) error {
	return c.reply(message{content: text, ephemeral: true})
}

// deferReply acknowledges the interaction; the answer follows with editReply.
func (c *interaction) deferReply(ephemeral bool) error {
	d := &discordgo.InteractionResponseData{}
	if ephemeral {
		d.Flags = discordgo.MessageFlagsEphemeral
	}
	return c.first(discordgo.InteractionResponseDeferredChannelMessageWithSource, d)
}

// editReply fills in (or replaces) the first response and returns it.
func (c *interaction) editReply(m message) (*discordgo.Message, error) {
	c.deferred = false
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
	return c.s.InteractionResponseEdit(c.i, e, discordgo.WithContext(c.ctx))
}

// followup sends another message after the first response.
func (c *interaction) followup(m message) (*discordgo.Message, error) {
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
	if m.ephemeral {
		p.Flags = discordgo.MessageFlagsEphemeral
	}
	return c.s.FollowupMessageCreate(c.i, true, p, discordgo.WithContext(c.ctx))
}

// update replaces the message whose component was clicked.
func (c *interaction) update(m message) error {
	return c.first(discordgo.InteractionResponseUpdateMessage, m.responseData())
}

// choices answers an autocomplete.
func (c *interaction) choices(ch []*discordgo.ApplicationCommandOptionChoice) error {
	if ch == nil {
		ch = []*discordgo.ApplicationCommandOptionChoice{}
	}
	return c.first(discordgo.InteractionApplicationCommandAutocompleteResult,
		&discordgo.InteractionResponseData{Choices: ch})
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
	if m.ephemeral {
		d.Flags = discordgo.MessageFlagsEphemeral
	}
	return d
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
