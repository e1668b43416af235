package discordtest

import (
	"encoding/json"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// channel is a guild text channel, a thread or a DM channel.
type channel struct {
	id, guildID, parentID, ownerID, name, topic string
	typ                                         discordgo.ChannelType
	recipient                                   string // the user of a DM channel
	archived, locked, invitable                 bool
	autoArchive                                 int
	archivedAt                                  time.Time
	created                                     time.Time
	lastActive                                  time.Time // the thread's creation or last message, by the fake's clock
	lastMessageID                               string
	sent                                        int // messages ever sent, for threads' total_message_sent
	rateLimit                                   int
	outsiders                                   bool     // a private thread the bot has not joined: it cannot see it
	foreign                                     bool     // a DM, group DM or server channel the bot is not in (AddPrivateChannel, AddForeignChannel)
	noExternalApps                              bool     // a foreign server channel whose members may not use external apps
	recipients                                  []string // the users of a DM or group DM between users (AddPrivateChannel)
}

func (ch *channel) isThread() bool {
	return ch.typ == discordgo.ChannelTypeGuildPublicThread || ch.typ == discordgo.ChannelTypeGuildPrivateThread ||
		ch.typ == discordgo.ChannelTypeGuildNewsThread
}

// AddChannel creates a text channel in the guild.
func (s *Server) AddChannel(name string) *discordgo.Channel {
	ch := &channel{id: s.newID(), guildID: s.guildID, name: name, typ: discordgo.ChannelTypeGuildText, created: s.Now()}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.addChannel(ch)
	return s.channelValue(ch)
}

// AddThread creates a public thread under the text channel parentID, owned by the bot, as if the bot had
// created it earlier.
func (s *Server) AddThread(parentID, name string) *discordgo.Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.channels[parentID]
	if p == nil {
		s.tb.Fatalf("discordtest: AddThread: unknown channel %s", parentID)
	}
	ch := &channel{id: s.newID(), guildID: p.guildID, parentID: p.id, ownerID: s.bot.ID, name: name,
		typ: discordgo.ChannelTypeGuildPublicThread, autoArchive: 1440, created: s.Now()}
	s.addChannel(ch)
	return s.channelValue(ch)
}

// AddPrivateThread creates a private thread under the text channel
// parentID, made by a member: the bot is not in it, so, as on Discord, it
// can post there only after it joins (PUT
// /channels/{id}/thread-members/@me); until then every post is refused
// with 50001 Missing Access.
func (s *Server) AddPrivateThread(parentID, name string) *discordgo.Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.channels[parentID]
	if p == nil {
		s.tb.Fatalf("discordtest: AddPrivateThread: unknown channel %s", parentID)
	}
	ch := &channel{id: s.newID(), guildID: p.guildID, parentID: p.id, ownerID: s.guildID, name: name,
		typ: discordgo.ChannelTypeGuildPrivateThread, autoArchive: 1440, created: s.Now(), outsiders: true}
	s.addChannel(ch)
	return s.channelValue(ch)
}

// SetArchived archives or unarchives a thread, as Discord does after the thread's inactivity period.
func (s *Server) SetArchived(threadID string, archived bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channels[threadID]
	if ch == nil || !ch.isThread() {
		s.tb.Fatalf("discordtest: SetArchived: %s is not a thread", threadID)
	}
	ch.archived = archived
	ch.archivedAt = s.Now()
	ch.lastActive = ch.archivedAt
	s.notify()
}

// DeleteChannel deletes a guild channel or thread, as a moderator may; deleting a channel deletes its
// threads. From then on every request about it is answered 404 Unknown Channel (10003), as Discord
// answers, and is no violation: the bot cannot know. Its messages stay readable with Messages and Message.
func (s *Server) DeleteChannel(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channels[id]
	if ch == nil || ch.guildID == "" {
		s.tb.Fatalf("discordtest: DeleteChannel: %s is not a guild channel or thread", id)
	}
	for _, other := range s.channels {
		if other.id == id || other.parentID == id {
			delete(s.channels, other.id)
			s.deleted[other.id] = true
		}
	}
	s.channelOrder = slices.DeleteFunc(s.channelOrder, func(c string) bool { return s.deleted[c] })
	s.notify()
}

// archiveQuietThreads archives the threads without a message for their auto_archive_duration, as
// Discord does. Call with s.mu held.
func (s *Server) archiveQuietThreads() {
	now := s.Now()
	for _, ch := range s.channels {
		if !ch.isThread() || ch.archived {
			continue
		}
		if at := ch.lastActive.Add(time.Duration(ch.autoArchive) * time.Minute); !now.Before(at) {
			ch.archived, ch.archivedAt = true, at
		}
	}
}

// DMChannel returns the DM channel between the bot and a user, creating it if need be, as
// POST /users/@me/channels does.
func (s *Server) DMChannel(userID string) *discordgo.Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.users[userID] == nil {
		s.tb.Fatalf("discordtest: DMChannel: unknown user %s", userID)
	}
	return s.channelValue(s.dm(userID))
}

// Channel returns the current state of a channel, thread or DM channel.
func (s *Server) Channel(id string) (*discordgo.Channel, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.archiveQuietThreads()
	ch := s.channels[id]
	if ch == nil {
		return nil, false
	}
	return s.channelValue(ch), true
}

// Channels returns the guild's channels and threads, in creation order.
func (s *Server) Channels() []*discordgo.Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.archiveQuietThreads()
	var out []*discordgo.Channel
	for _, id := range s.channelOrder {
		if ch := s.channels[id]; ch.guildID != "" {
			out = append(out, s.channelValue(ch))
		}
	}
	return out
}

func (s *Server) addChannel(ch *channel) {
	ch.lastActive = ch.created
	s.channels[ch.id] = ch
	s.channelOrder = append(s.channelOrder, ch.id)
	s.notify()
}

// dm returns the DM channel with a user, creating it. Call with s.mu held.
func (s *Server) dm(userID string) *channel {
	if id, ok := s.dms[userID]; ok {
		return s.channels[id]
	}
	ch := &channel{id: s.newID(), typ: discordgo.ChannelTypeDM, recipient: userID, created: s.Now()}
	s.dms[userID] = ch.id
	s.addChannel(ch)
	return ch
}

// channelValue converts a channel to discordgo's type through its JSON, as a client would see it.
func (s *Server) channelValue(ch *channel) *discordgo.Channel {
	var out discordgo.Channel
	mustRoundTrip(s.channelJSON(ch), &out)
	return &out
}

// channelJSON is the channel object as Discord's API answers it.
func (s *Server) channelJSON(ch *channel) map[string]any {
	var last any
	if ch.lastMessageID != "" {
		last = ch.lastMessageID
	}
	j := map[string]any{
		"id":              ch.id,
		"type":            ch.typ,
		"last_message_id": last,
		"flags":           0,
	}
	switch {
	case len(ch.recipients) > 0:
		var rs []any
		for _, id := range ch.recipients {
			rs = append(rs, userJSON(s.users[id]))
		}
		j["recipients"] = rs
		if ch.typ == discordgo.ChannelTypeGroupDM {
			j["owner_id"], j["name"], j["icon"] = ch.ownerID, nil, nil
		}
	case ch.typ == discordgo.ChannelTypeDM:
		j["recipients"] = []any{userJSON(s.users[ch.recipient])}
	case ch.isThread():
		count := 0
		for _, m := range s.messages {
			if m.channelID == ch.id && !m.deleted && m.flags&flagEphemeral == 0 {
				count++
			}
		}
		j["guild_id"] = ch.guildID
		j["parent_id"] = ch.parentID
		j["owner_id"] = ch.ownerID
		j["name"] = ch.name
		j["rate_limit_per_user"] = ch.rateLimit
		j["message_count"] = count
		j["member_count"] = 1
		j["total_message_sent"] = ch.sent
		j["last_pin_timestamp"] = nil
		meta := map[string]any{
			"archived":              ch.archived,
			"auto_archive_duration": ch.autoArchive,
			"archive_timestamp":     timestamp(ch.archivedAtOrCreated()),
			"locked":                ch.locked,
			"create_timestamp":      timestamp(ch.created),
		}
		if ch.typ == discordgo.ChannelTypeGuildPrivateThread {
			meta["invitable"] = ch.invitable
		}
		j["thread_metadata"] = meta
	default:
		var topic any
		if ch.topic != "" {
			topic = ch.topic
		}
		j["guild_id"] = ch.guildID
		j["name"] = ch.name
		j["parent_id"] = nil
		j["position"] = 0
		j["permission_overwrites"] = []any{}
		j["topic"] = topic
		j["nsfw"] = false
		j["rate_limit_per_user"] = ch.rateLimit
		j["last_pin_timestamp"] = nil
	}
	return j
}

func (ch *channel) archivedAtOrCreated() time.Time {
	if ch.archivedAt.IsZero() {
		return ch.created
	}
	return ch.archivedAt
}

// userJSON is the user object as Discord's API answers it.
func userJSON(u *discordgo.User) map[string]any {
	var global any
	if u.GlobalName != "" {
		global = u.GlobalName
	}
	j := map[string]any{
		"id":            u.ID,
		"username":      u.Username,
		"avatar":        nil,
		"discriminator": "0",
		"public_flags":  0,
		"flags":         0,
		"global_name":   global,
		"primary_guild": nil,
	}
	if u.Bot {
		j["bot"] = true
	}
	return j
}

// memberJSON is the guild member object as Discord's API answers it.
func memberJSON(m *member) map[string]any {
	return map[string]any{
		"user":                         userJSON(m.user),
		"avatar":                       nil,
		"banner":                       nil,
		"communication_disabled_until": nil,
		"flags":                        0,
		"joined_at":                    timestamp(m.joined),
		"nick":                         nil,
		"pending":                      false,
		"premium_since":                nil,
		"roles":                        []any{},
		"mute":                         false,
		"deaf":                         false,
	}
}

func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000+00:00") }

// mustRoundTrip converts a JSON-shaped value to a Go type through its JSON encoding.
func mustRoundTrip(in, out any) {
	b, err := json.Marshal(in)
	if err == nil {
		err = json.Unmarshal(b, out)
	}
	if err != nil {
		panic("discordtest: " + err.Error())
	}
}

// channelEndpoints are the operations on channels, threads, users and members.
var channelEndpoints = []endpoint{
	{"PUT /channels/{channel_id}/thread-members/@me", (*Server).joinThread},
	{"GET /channels/{channel_id}", (*Server).getChannel},
	{"PATCH /channels/{channel_id}", (*Server).modifyChannel},
	{"POST /channels/{channel_id}/threads", (*Server).startThread},
	{"POST /channels/{channel_id}/messages/{message_id}/threads", (*Server).startThreadFromMessage},
	{"POST /users/@me/channels", (*Server).createDM},
	{"GET /users/@me", (*Server).getCurrentUser},
	{"GET /users/{user_id}", (*Server).getUser},
	{"GET /guilds/{guild_id}/members/{user_id}", (*Server).getGuildMember},
}

// joinThread adds the bot to a thread.
func (s *Server) joinThread(c *call) reply {
	ch := s.channels[c.params["channel_id"]]
	switch {
	case ch == nil:
		return fail(ErrUnknownChannel)
	case !ch.isThread():
		return fail(ErrMissingAccess)
	}
	ch.outsiders = false
	return noContent()
}

// getChannel answers a channel or thread.
func (s *Server) getChannel(c *call) reply {
	ch := s.channels[c.params["channel_id"]]
	if ch == nil {
		return fail(ErrUnknownChannel)
	}
	return jsonOK(s.channelJSON(ch))
}

// modifyChannel changes the settings of a channel or thread.
func (s *Server) modifyChannel(c *call) reply {
	ch := s.channels[c.params["channel_id"]]
	if ch == nil {
		return fail(ErrUnknownChannel)
	}
	var b struct {
		Name                *string `json:"name"`
		Topic               *string `json:"topic"`
		Archived            *bool   `json:"archived"`
		Locked              *bool   `json:"locked"`
		Invitable           *bool   `json:"invitable"`
		AutoArchiveDuration *int    `json:"auto_archive_duration"`
		RateLimitPerUser    *int    `json:"rate_limit_per_user"`
	}
	if err := json.Unmarshal(c.body, &b); err != nil {
		return fail(errInvalidBody)
	}
	if b.Name != nil {
		ch.name = *b.Name
	}
	if b.Topic != nil {
		ch.topic = *b.Topic
	}
	if b.Archived != nil && *b.Archived != ch.archived {
		ch.archived = *b.Archived
		ch.archivedAt = s.Now()
		ch.lastActive = ch.archivedAt
	}
	if b.Locked != nil {
		ch.locked = *b.Locked
	}
	if b.Invitable != nil {
		ch.invitable = *b.Invitable
	}
	if b.AutoArchiveDuration != nil {
		ch.autoArchive = *b.AutoArchiveDuration
	}
	if b.RateLimitPerUser != nil {
		ch.rateLimit = *b.RateLimitPerUser
	}
	return jsonOK(s.channelJSON(ch))
}

// startThread starts a thread without a message.
func (s *Server) startThread(c *call) reply {
	parent := s.channels[c.params["channel_id"]]
	if parent == nil || parent.guildID == "" || parent.isThread() {
		return fail(ErrUnknownChannel)
	}
	var b struct {
		Name                string `json:"name"`
		Type                *int   `json:"type"`
		AutoArchiveDuration *int   `json:"auto_archive_duration"`
		Invitable           *bool  `json:"invitable"`
		RateLimitPerUser    *int   `json:"rate_limit_per_user"`
	}
	if err := json.Unmarshal(c.body, &b); err != nil {
		return fail(errInvalidBody)
	}
	typ := discordgo.ChannelTypeGuildPrivateThread // API v9's default, per Discord's docs
	if b.Type != nil {
		typ = discordgo.ChannelType(*b.Type)
	} else if c.version != "9" {
		s.violate(c.method, c.path, c.route, "thread type is required in API v10 (Discord's docs; v9 defaults to a private thread)")
		return fail(errInvalidBody)
	}
	need := int64(discordgo.PermissionCreatePublicThreads)
	if typ == discordgo.ChannelTypeGuildPrivateThread {
		need = discordgo.PermissionCreatePrivateThreads
	}
	if s.cfg.appPermissions&need == 0 {
		return fail(ErrMissingPermissions)
	}
	ch := &channel{id: s.newID(), guildID: parent.guildID, parentID: parent.id, ownerID: s.bot.ID, name: b.Name,
		typ: typ, autoArchive: 4320, invitable: true, created: s.Now()}
	applyThreadOptions(ch, b.AutoArchiveDuration, b.Invitable, b.RateLimitPerUser)
	s.addChannel(ch)
	return created(s.channelJSON(ch))
}

// startThreadFromMessage starts a public thread from a message.
func (s *Server) startThreadFromMessage(c *call) reply {
	parent := s.channels[c.params["channel_id"]]
	if parent == nil || parent.guildID == "" || parent.isThread() {
		return fail(ErrUnknownChannel)
	}
	m := s.messages[c.params["message_id"]]
	if m == nil || m.deleted || m.channelID != parent.id {
		return fail(ErrUnknownMessage)
	}
	if s.channels[m.id] != nil {
		return fail(errThreadExists)
	}
	if s.cfg.appPermissions&discordgo.PermissionCreatePublicThreads == 0 {
		return fail(ErrMissingPermissions)
	}
	var b struct {
		Name                string `json:"name"`
		AutoArchiveDuration *int   `json:"auto_archive_duration"`
		RateLimitPerUser    *int   `json:"rate_limit_per_user"`
	}
	if err := json.Unmarshal(c.body, &b); err != nil {
		return fail(errInvalidBody)
	}
	// A thread started from a message has the message's ID.
	ch := &channel{id: m.id, guildID: parent.guildID, parentID: parent.id, ownerID: s.bot.ID, name: b.Name,
		typ: discordgo.ChannelTypeGuildPublicThread, autoArchive: 4320, created: s.Now()}
	applyThreadOptions(ch, b.AutoArchiveDuration, nil, b.RateLimitPerUser)
	s.addChannel(ch)
	return created(s.channelJSON(ch))
}

// createDM opens (or finds) the DM channel with a user.
func (s *Server) createDM(c *call) reply {
	var b struct {
		RecipientID string `json:"recipient_id"`
	}
	if err := json.Unmarshal(c.body, &b); err != nil || s.users[b.RecipientID] == nil {
		return fail(APIError{Status: 400, Code: 50033, Message: "Invalid Recipient(s)"})
	}
	return jsonOK(s.channelJSON(s.dm(b.RecipientID)))
}

// getCurrentUser answers the bot user, or the user whose Bearer token the request carries.
func (s *Server) getCurrentUser(c *call) reply {
	u := s.bot
	if c.user != "" {
		u = s.users[c.user]
	}
	j := userJSON(u)
	j["mfa_enabled"] = false
	j["locale"] = "en-US"
	j["verified"] = true
	return jsonOK(j)
}

// getUser answers a user.
func (s *Server) getUser(c *call) reply {
	u := s.users[c.params["user_id"]]
	if u == nil {
		return fail(errUnknownUser)
	}
	return jsonOK(userJSON(u))
}

// getGuildMember answers a member of the guild.
func (s *Server) getGuildMember(c *call) reply {
	if c.params["guild_id"] != s.guildID {
		return fail(errUnknownGuild)
	}
	m := s.members[c.params["user_id"]]
	if m == nil {
		return fail(errUnknownMember)
	}
	return jsonOK(memberJSON(m))
}

func applyThreadOptions(ch *channel, archive *int, invitable *bool, rate *int) {
	if archive != nil {
		ch.autoArchive = *archive
	}
	if invitable != nil {
		ch.invitable = *invitable
	}
	if rate != nil {
		ch.rateLimit = *rate
	}
}
