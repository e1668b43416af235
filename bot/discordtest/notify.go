package discordtest

import (
	"encoding/json"
	"regexp"
	"slices"
	"time"

	"github.com/bwmarrin/discordgo"
)

// Why a mention notified nobody: the Why of a Mention.
const (
	// NotNotifiedEdit: Discord notifies nobody of an edit, including the edit of a deferred response
	// (PATCH …/messages/@original) and the followup that replaces its "thinking…" message.
	NotNotifiedEdit = "an edit notifies nobody"
	// NotNotifiedEphemeral: an ephemeral message notifies nobody.
	NotNotifiedEphemeral = "an ephemeral message notifies nobody"
	// NotNotifiedAllowedMentions: the message's allowed_mentions does not allow the user.
	NotNotifiedAllowedMentions = "allowed_mentions does not allow the user"
	// NotNotifiedCannotSee: the user is not a member of the guild, or not the other side of the DM.
	NotNotifiedCannotSee = "the user cannot see the channel"
	// NotNotifiedAuthor: a message does not notify its author.
	NotNotifiedAuthor = "the user is the message's author"
	// NotNotifiedSilent: the message has the flag SUPPRESS_NOTIFICATIONS (1<<12), a silent message.
	NotNotifiedSilent = "a message with SUPPRESS_NOTIFICATIONS notifies nobody"
)

// Mention is a user mentioned (<@id> or <@!id>) in the content of a message when it was sent or
// edited, or the recipient of a new DM of the bot, and whether Discord notified them: a new message (a
// channel message, a type 4 interaction response, a followup) notifies the users its allowed_mentions
// allows (all mentioned users without allowed_mentions; with it, parse "users" or the listed users), and
// a new DM its recipient; an edit, an ephemeral message or a silent one (SUPPRESS_NOTIFICATIONS)
// notifies nobody.
type Mention struct {
	UserID, ChannelID, MessageID string
	Content                      string    // the message's content then
	At                           time.Time // by the fake's clock
	Notified                     bool
	Why                          string // why not notified, one of the NotNotified constants; "" if notified
	// Direct: the user is the recipient of a DM the bot sent, whom a new message there notifies
	// whether or not it mentions them.
	Direct bool
}

// allowedMentions is the allowed_mentions member of a message body.
type allowedMentions struct {
	Parse []string `json:"parse"`
	Users []string `json:"users"`
}

// allows reports whether allowed_mentions lets a mention of userID notify; nil is Discord's default,
// which notifies every mentioned user.
func (a *allowedMentions) allows(userID string) bool {
	return a == nil || slices.Contains(a.Parse, "users") || slices.Contains(a.Users, userID)
}

// parseAllowedMentions reads allowed_mentions, refusing what Discord refuses.
func parseAllowedMentions(raw json.RawMessage) (*allowedMentions, string) {
	if !present(raw) {
		return nil, ""
	}
	var a allowedMentions
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, "allowed_mentions: " + err.Error()
	}
	if slices.Contains(a.Parse, "users") && len(a.Users) > 0 {
		return nil, "allowed_mentions: parse \"users\" and users are mutually exclusive"
	}
	return &a, ""
}

var mentionRE = regexp.MustCompile(`<@!?([0-9]+)>`)

// mentioned returns the IDs of the users a content mentions, once each, in order.
func mentioned(content string) []string {
	var ids []string
	for _, m := range mentionRE.FindAllStringSubmatch(content, -1) {
		if !slices.Contains(ids, m[1]) {
			ids = append(ids, m[1])
		}
	}
	return ids
}

// recordMentions records the mentions of a message just sent (creating) or edited, and the recipient of
// a new DM. Call with s.mu held.
func (s *Server) recordMentions(m *message, allowed *allowedMentions, creating bool) {
	ch := s.channels[m.channelID]
	direct := ""
	if creating && ch != nil && ch.typ == discordgo.ChannelTypeDM && ch.recipient != "" && m.authorID == s.bot.ID {
		direct = ch.recipient
	}
	ids := mentioned(m.content)
	if direct != "" && !slices.Contains(ids, direct) {
		ids = append(ids, direct)
	}
	for _, id := range ids {
		why := ""
		switch {
		case !creating:
			why = NotNotifiedEdit
		case m.flags&flagEphemeral != 0:
			why = NotNotifiedEphemeral
		case m.flags&flagSilent != 0:
			why = NotNotifiedSilent
		case id == m.authorID:
			why = NotNotifiedAuthor
		case id == direct:
		case !s.canSee(ch, id):
			why = NotNotifiedCannotSee
		case !allowed.allows(id):
			why = NotNotifiedAllowedMentions
		}
		if why == "" {
			m.notified = append(m.notified, id)
		}
		s.mentions = append(s.mentions, Mention{UserID: id, ChannelID: m.channelID, MessageID: m.id, Content: m.content,
			At: s.Now(), Notified: why == "", Why: why, Direct: id == direct})
	}
}

// Mentions returns every mention so far, notifying or not, in order.
func (s *Server) Mentions() []Mention {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.mentions)
}

// Notifications returns the mentions that notified a user, in order.
func (s *Server) Notifications(userID string) []Mention {
	return s.notifiedWhere(func(m Mention) bool { return m.UserID == userID })
}

// NotifiedIn returns the mentions that notified someone by a message of a channel, in order.
func (s *Server) NotifiedIn(channelID string) []Mention {
	return s.notifiedWhere(func(m Mention) bool { return m.ChannelID == channelID })
}

func (s *Server) notifiedWhere(keep func(Mention) bool) []Mention {
	var out []Mention
	for _, m := range s.Mentions() {
		if m.Notified && keep(m) {
			out = append(out, m)
		}
	}
	return out
}
