package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	_ "image/gif"  // attachments' sizes
	_ "image/jpeg" // attachments' sizes
	_ "image/png"  // attachments' sizes
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
)

const (
	flagEphemeral = int64(discordgo.MessageFlagsEphemeral)
	flagLoading   = int64(discordgo.MessageFlagsLoading)
	// flagSilent is SUPPRESS_NOTIFICATIONS (1<<12): the message notifies nobody, its mentions nor a
	// DM's recipient (Discord's "@silent" messages).
	flagSilent = int64(discordgo.MessageFlagsSuppressNotifications)
	maxContent = 2000 // Discord's docs; the OpenAPI description allows 4000 on some routes
)

// attachmentsPath serves the bytes of attachments at the URLs the fake gives them.
const attachmentsPath = "/attachments/"

// message is a stored message.
type message struct {
	id, channelID, authorID string
	typ                     discordgo.MessageType
	content                 string
	embeds, components      json.RawMessage // JSON arrays as the bot sent them
	attachments             []*attachment
	flags                   int64
	tts                     bool
	edited                  time.Time
	edits                   int
	deleted                 bool
	reference               json.RawMessage
	inter                   *interaction // the interaction this message answers, if any
	notified                []string     // the users notified when it was sent
}

type attachment struct {
	id          string
	file        File
	description string
	width       int
	height      int
}

// Message is a message as the fake holds it now, after any edits.
type Message struct {
	*discordgo.Message          // the message as Discord's API would answer it now
	Files              []File   // the bytes of Attachments, in the same order
	Edits              int      // how many times it was edited
	Deleted            bool     // it was deleted (Message still finds it)
	Notified           []string // the IDs of the users its mentions notified when it was sent (see Mention)
}

// Ephemeral reports whether only the invoking user sees the message.
func (m *Message) Ephemeral() bool { return m.Flags&discordgo.MessageFlagsEphemeral != 0 }

// Message returns a message by ID, including deleted and ephemeral ones.
func (s *Server) Message(id string) (*Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.messages[id]
	if m == nil {
		return nil, false
	}
	return s.messageValue(m), true
}

// Messages returns the messages of a channel that are not deleted, in the order they were sent,
// ephemeral ones included (their Flags say so).
func (s *Server) Messages(channelID string) []*Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Message
	for _, m := range s.channelMessages(channelID) {
		out = append(out, s.messageValue(m))
	}
	return out
}

// channelMessages returns the channel's undeleted messages, oldest first. Call with s.mu held.
func (s *Server) channelMessages(channelID string) []*message {
	var out []*message
	for _, m := range s.messages {
		if m.channelID == channelID && !m.deleted {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b *message) int { return compareIDs(a.id, b.id) })
	return out
}

func compareIDs(a, b string) int {
	x, _ := strconv.ParseUint(a, 10, 64)
	y, _ := strconv.ParseUint(b, 10, 64)
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

func (s *Server) messageValue(m *message) *Message {
	var dm discordgo.Message
	mustRoundTrip(s.messageJSON(m), &dm)
	out := &Message{Message: &dm, Edits: m.edits, Deleted: m.deleted, Notified: slices.Clone(m.notified)}
	for _, a := range m.attachments {
		out.Files = append(out.Files, File{Name: a.file.Name, ContentType: a.file.ContentType, Data: slices.Clone(a.file.Data), Description: a.description})
	}
	return out
}

// messageJSON is the message object as Discord's API answers it.
func (s *Server) messageJSON(m *message) map[string]any {
	var edited any
	if !m.edited.IsZero() {
		edited = timestamp(m.edited)
	}
	atts := []any{}
	for _, a := range m.attachments {
		aj := map[string]any{
			"id":           a.id,
			"filename":     a.file.Name,
			"size":         len(a.file.Data),
			"url":          s.attachmentURL(m.channelID, a),
			"proxy_url":    s.attachmentURL(m.channelID, a),
			"content_type": a.file.ContentType,
		}
		if a.width > 0 {
			aj["width"], aj["height"] = a.width, a.height
		}
		if a.description != "" {
			aj["description"] = a.description
		}
		if m.flags&flagEphemeral != 0 {
			aj["ephemeral"] = true
		}
		atts = append(atts, aj)
	}
	j := map[string]any{
		"id":               m.id,
		"channel_id":       m.channelID,
		"author":           userJSON(s.users[m.authorID]),
		"content":          m.content,
		"timestamp":        timestamp(snowflakeTime(m.id)),
		"edited_timestamp": edited,
		"tts":              m.tts,
		"mention_everyone": false,
		"mentions":         []any{},
		"mention_roles":    []any{},
		"attachments":      atts,
		"embeds":           orEmpty(m.embeds),
		"components":       orEmpty(m.components),
		"pinned":           false,
		"type":             m.typ,
		"flags":            m.flags,
	}
	if m.reference != nil {
		j["message_reference"] = m.reference
	}
	if i := m.inter; i != nil {
		j["webhook_id"] = s.appID
		j["application_id"] = s.appID
		meta := map[string]any{
			"id":                             i.id,
			"type":                           i.typ,
			"user":                           userJSON(s.users[i.userID]),
			"authorizing_integration_owners": i.owners(),
		}
		if i.typ == discordgo.InteractionApplicationCommand {
			meta["name"] = i.name
			meta["command_type"] = 1
		}
		if i.messageID != "" {
			meta["interacted_message_id"] = i.messageID
		}
		j["interaction_metadata"] = meta
	}
	if th := s.channels[m.id]; th != nil && th.isThread() {
		j["thread"] = s.channelJSON(th)
	}
	return j
}

func orEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("[]")
	}
	return raw
}

func (s *Server) attachmentURL(channelID string, a *attachment) string {
	return s.srv.URL + attachmentsPath + channelID + "/" + a.id + "/" + a.file.Name
}

// serveAttachment answers GET /attachments/{channel}/{attachment}/{filename} with the file's bytes.
func (s *Server) serveAttachment(w http.ResponseWriter, r *http.Request) {
	parts := strings.Split(strings.TrimPrefix(r.URL.Path, attachmentsPath), "/")
	s.mu.Lock()
	var found *attachment
	if len(parts) == 3 {
		for _, m := range s.messages {
			for _, a := range m.attachments {
				if m.channelID == parts[0] && a.id == parts[1] && a.file.Name == parts[2] {
					found = a
				}
			}
		}
	}
	s.mu.Unlock()
	if found == nil {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", found.file.ContentType)
	_, _ = w.Write(found.file.Data)
}

// messageFields are the members of a message-creating or -editing body that the fake keeps. Each is
// raw JSON so that an absent member (nil) differs from null.
type messageFields struct {
	Content          json.RawMessage `json:"content"`
	Embeds           json.RawMessage `json:"embeds"`
	Components       json.RawMessage `json:"components"`
	Attachments      json.RawMessage `json:"attachments"`
	Flags            json.RawMessage `json:"flags"`
	TTS              json.RawMessage `json:"tts"`
	MessageReference json.RawMessage `json:"message_reference"`
	StickerIDs       json.RawMessage `json:"sticker_ids"`
	Poll             json.RawMessage `json:"poll"`
	AllowedMentions  json.RawMessage `json:"allowed_mentions"`
}

// attachmentRef is an item of a body's "attachments": an existing attachment to keep, or the index of a
// new file with its description.
type attachmentRef struct {
	ID          string `json:"id"`
	Description string `json:"description"`
}

func present(raw json.RawMessage) bool { return raw != nil && string(raw) != "null" }

// apply sets a message's members from a body and its uploaded files; creating says whether the message
// is new. It returns the refusal Discord would answer, if any.
func (s *Server) apply(m *message, body []byte, files []File, creating bool) (APIError, string, bool) {
	var f messageFields
	if len(body) > 0 {
		if err := json.Unmarshal(body, &f); err != nil {
			return errInvalidBody, fmt.Sprintf("body: %v", err), false
		}
	}
	if f.Content != nil {
		var content string
		if present(f.Content) {
			if err := json.Unmarshal(f.Content, &content); err != nil {
				return errInvalidBody, fmt.Sprintf("content: %v", err), false
			}
		}
		if n := utf8.RuneCountInString(content); n > maxContent {
			return errInvalidBody, fmt.Sprintf("content: must be %d or fewer in length (is %d)", maxContent, n), false
		}
		m.content = content
	}
	if f.Embeds != nil {
		m.embeds = orEmpty(f.Embeds)
	}
	if f.Components != nil {
		m.components = normaliseComponents(orEmpty(f.Components))
	}
	if present(f.Flags) {
		var flags int64
		if err := json.Unmarshal(f.Flags, &flags); err != nil {
			return errInvalidBody, fmt.Sprintf("flags: %v", err), false
		}
		// An edit cannot make a message public, nor a new answer that Discord forces ephemeral (postMessage).
		m.flags = flags | m.flags&flagEphemeral
	}
	allowed, why := parseAllowedMentions(f.AllowedMentions)
	if why != "" {
		return errInvalidBody, why, false
	}
	if present(f.TTS) {
		_ = json.Unmarshal(f.TTS, &m.tts)
	}
	if creating && present(f.MessageReference) {
		m.reference = f.MessageReference
		m.typ = discordgo.MessageTypeReply
	}
	// Attachments: with "attachments", keep only the listed existing ones; new files are added.
	var described []attachmentRef
	if present(f.Attachments) {
		if err := json.Unmarshal(f.Attachments, &described); err != nil {
			return errInvalidBody, fmt.Sprintf("attachments: %v", err), false
		}
		var kept []*attachment
		for _, a := range m.attachments {
			if slices.ContainsFunc(described, func(d attachmentRef) bool { return d.ID == a.id }) {
				kept = append(kept, a)
			}
		}
		m.attachments = kept
	}
	for i, file := range files {
		a := &attachment{id: s.newID(), file: file}
		if a.file.ContentType == "" {
			a.file.ContentType = "application/octet-stream"
		}
		for _, d := range described {
			if d.ID == strconv.Itoa(i) {
				a.description = d.Description
			}
		}
		if cfg, _, err := image.DecodeConfig(bytes.NewReader(file.Data)); err == nil {
			a.width, a.height = cfg.Width, cfg.Height
		}
		m.attachments = append(m.attachments, a)
	}
	if m.content == "" && len(orEmpty(m.embeds)) <= 2 && len(orEmpty(m.components)) <= 2 && len(m.attachments) == 0 &&
		!present(f.StickerIDs) && !present(f.Poll) && m.flags&flagLoading == 0 {
		return errEmptyMessage, "cannot send an empty message (no content, embeds, components, files, stickers or poll)", false
	}
	if !creating {
		m.edited = s.Now()
		m.edits++
	}
	if creating || f.Content != nil {
		s.recordMentions(m, allowed, creating)
	}
	return APIError{}, "", true
}

// refuse records a violation for a request Discord would refuse and answers Discord's error.
func (s *Server) refuse(c *call, e APIError, why string) reply {
	s.violate(c.method, c.path, c.route, why)
	return fail(e)
}

// postMessage creates a message in a channel from a body; the caller checks permissions.
func (s *Server) postMessage(ch *channel, author string, c *call, inter *interaction) (*message, reply, bool) {
	m := &message{id: s.newID(), channelID: ch.id, authorID: author, inter: inter}
	if inter != nil && inter.typ == discordgo.InteractionApplicationCommand {
		m.typ = discordgo.MessageTypeChatInputCommand
	}
	if inter != nil && inter.ephemeralOnly {
		m.flags = flagEphemeral
	}
	if e, why, ok := s.apply(m, c.body, c.files, true); !ok {
		return nil, s.refuse(c, e, why), false
	}
	s.store(ch, m)
	return m, reply{}, true
}

// store adds a new message to its channel. Call with s.mu held.
func (s *Server) store(ch *channel, m *message) {
	s.messages[m.id] = m
	if m.flags&flagEphemeral != 0 {
		return
	}
	ch.lastMessageID = m.id
	ch.sent++
	if ch.isThread() {
		ch.lastActive = s.Now()
		// Sending to an archived thread unarchives it; canSend refused a locked one without Manage Threads.
		ch.archived = false
	}
}

// canSend checks the bot's permission to post in a channel.
func (s *Server) canSend(ch *channel, withFiles bool) (APIError, bool) {
	if ch.guildID == "" {
		if ch.typ == discordgo.ChannelTypeDM && !s.reachable(ch.recipient) {
			return ErrCannotSendToUser, false
		}
		return APIError{}, true
	}
	p := s.cfg.appPermissions
	need := int64(discordgo.PermissionViewChannel | discordgo.PermissionSendMessages)
	if ch.isThread() {
		need = discordgo.PermissionViewChannel | discordgo.PermissionSendMessagesInThreads
		if ch.outsiders {
			return ErrMissingAccess, false // a private thread the bot has not joined
		}
		if ch.locked && p&discordgo.PermissionManageThreads == 0 {
			return ErrMissingPermissions, false
		}
	}
	if withFiles {
		need |= discordgo.PermissionAttachFiles
	}
	if p&discordgo.PermissionViewChannel == 0 {
		return ErrMissingAccess, false
	}
	if p&need != need {
		return ErrMissingPermissions, false
	}
	return APIError{}, true
}

// visible finds a message of a channel that the channel routes can see (not deleted, not ephemeral).
func (s *Server) visible(c *call) (*message, APIError, bool) {
	if s.channels[c.params["channel_id"]] == nil {
		return nil, ErrUnknownChannel, false
	}
	m := s.messages[c.params["message_id"]]
	if m == nil || m.deleted || m.channelID != c.params["channel_id"] || m.flags&flagEphemeral != 0 {
		return nil, ErrUnknownMessage, false
	}
	return m, APIError{}, true
}

// messageEndpoints are the operations on the messages of channels.
var messageEndpoints = []endpoint{
	{"POST /channels/{channel_id}/messages", (*Server).createMessage},
	{"GET /channels/{channel_id}/messages", (*Server).getChannelMessages},
	{"GET /channels/{channel_id}/messages/{message_id}", (*Server).getChannelMessage},
	{"PATCH /channels/{channel_id}/messages/{message_id}", (*Server).editMessage},
	{"DELETE /channels/{channel_id}/messages/{message_id}", (*Server).deleteMessage},
}

// createMessage posts a message of the bot.
func (s *Server) createMessage(c *call) reply {
	ch := s.channels[c.params["channel_id"]]
	if ch == nil {
		return fail(ErrUnknownChannel)
	}
	if e, ok := s.canSend(ch, len(c.files) > 0); !ok {
		return fail(e)
	}
	m, rep, ok := s.postMessage(ch, s.bot.ID, c, nil)
	if !ok {
		return rep
	}
	return jsonOK(s.messageJSON(m))
}

// getChannelMessages answers a page of a channel's messages, by before, after or around.
func (s *Server) getChannelMessages(c *call) reply {
	if s.channels[c.params["channel_id"]] == nil {
		return fail(ErrUnknownChannel)
	}
	limit := 50
	if v := c.query.Get("limit"); v != "" {
		limit, _ = strconv.Atoi(v)
	}
	var all []*message
	for _, m := range s.channelMessages(c.params["channel_id"]) {
		if m.flags&flagEphemeral == 0 {
			all = append(all, m)
		}
	}
	before, after, around := c.query.Get("before"), c.query.Get("after"), c.query.Get("around")
	var picked []*message
	switch {
	case after != "":
		for _, m := range all {
			if compareIDs(m.id, after) > 0 && len(picked) < limit {
				picked = append(picked, m)
			}
		}
	case around != "":
		i, _ := slices.BinarySearchFunc(all, around, func(m *message, id string) int { return compareIDs(m.id, id) })
		lo := max(0, i-limit/2)
		picked = all[lo:min(len(all), lo+limit)]
	default:
		for j := len(all) - 1; j >= 0 && len(picked) < limit; j-- {
			if before == "" || compareIDs(all[j].id, before) < 0 {
				picked = append([]*message{all[j]}, picked...)
			}
		}
	}
	out := []any{}
	for j := len(picked) - 1; j >= 0; j-- { // newest first, as Discord answers
		out = append(out, s.messageJSON(picked[j]))
	}
	return jsonOK(out)
}

// getChannelMessage answers a message.
func (s *Server) getChannelMessage(c *call) reply {
	m, e, found := s.visible(c)
	if !found {
		return fail(e)
	}
	return jsonOK(s.messageJSON(m))
}

// editMessage edits a message of the bot.
func (s *Server) editMessage(c *call) reply {
	m, e, found := s.visible(c)
	if !found {
		return fail(e)
	}
	if m.authorID != s.bot.ID {
		return fail(errNotAuthor)
	}
	if len(c.files) > 0 && s.cfg.appPermissions&discordgo.PermissionAttachFiles == 0 {
		return fail(ErrMissingPermissions)
	}
	if e, why, ok := s.apply(m, c.body, c.files, false); !ok {
		return s.refuse(c, e, why)
	}
	return jsonOK(s.messageJSON(m))
}

// deleteMessage deletes a message: the bot's own, or any with Manage Messages.
func (s *Server) deleteMessage(c *call) reply {
	m, e, found := s.visible(c)
	if !found {
		return fail(e)
	}
	if m.authorID != s.bot.ID && s.cfg.appPermissions&discordgo.PermissionManageMessages == 0 {
		return fail(ErrMissingPermissions)
	}
	m.deleted = true
	return noContent()
}
