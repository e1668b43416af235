package discordtest

import (
	"slices"

	"github.com/bwmarrin/discordgo"
)

// Places the bot is not in. A user may install the app to their account (integration type 1); its
// commands then work in any DM, group DM and server, where the bot is no member: it may answer the
// interactions there, but it cannot post, edit or read with its bot token (403 Missing Access, 50001).
// When only the user's install authorised an interaction (authorizing_integration_owners without "0"),
// Discord allows at most 5 follow-ups per interaction (the sixth: 400, 40094); and in a server whose
// member lacks Use External Apps, every answer is forced ephemeral.

// ErrMaxFollowups is Discord's answer to a sixth follow-up of an interaction that only a user install
// authorised.
var ErrMaxFollowups = APIError{Status: 400, Code: 40094, Message: "This interaction has hit the maximum number of follow up messages"}

// maxUserInstallFollowups is how many follow-ups Discord allows an interaction authorised only by a
// user install.
const maxUserInstallFollowups = 5

// AddStranger creates a user who is not a member of the bot's guild: the bot shares no server with them.
func (s *Server) AddStranger(username string) *discordgo.User { return s.addUser(username, false) }

// InstallToUser installs the app to a user's account, as the user does with the install link: the
// user may then run its commands anywhere, and the bot may DM them even without a shared server.
func (s *Server) InstallToUser(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.users[userID] == nil {
		s.tb.Fatalf("discordtest: InstallToUser: unknown user %s", userID)
	}
	s.installed[userID] = true
}

// AddPrivateChannel creates a conversation between users that the bot is not in: a DM for two users
// (channel type 1), a group DM for three or more (type 3). Interactions built there have context 2 and
// are authorised by the invoking user's install, which the builder makes (InstallToUser).
func (s *Server) AddPrivateChannel(users ...*discordgo.User) *discordgo.Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(users) < 2 {
		s.tb.Fatalf("discordtest: AddPrivateChannel needs at least two users")
	}
	ch := &channel{id: s.newID(), typ: discordgo.ChannelTypeDM, created: s.Now(), foreign: true}
	if len(users) > 2 {
		ch.typ, ch.ownerID = discordgo.ChannelTypeGroupDM, users[0].ID
	}
	for _, u := range users {
		if s.users[u.ID] == nil {
			s.tb.Fatalf("discordtest: AddPrivateChannel: unknown user %s", u.ID)
		}
		ch.recipients = append(ch.recipients, u.ID)
	}
	s.addChannel(ch)
	return s.channelValue(ch)
}

// AddForeignChannel creates a text channel in another server, one that never added the bot. Its
// members may still run the commands of the app they installed; where externalApps is false the
// server denies them Use External Apps, and Discord forces every answer there ephemeral.
func (s *Server) AddForeignChannel(name string, externalApps bool) *discordgo.Channel {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := &channel{id: s.newID(), guildID: s.newID(), name: name, typ: discordgo.ChannelTypeGuildText, created: s.Now(),
		foreign: true, noExternalApps: !externalApps}
	s.addChannel(ch)
	return s.channelValue(ch)
}

// canSee reports whether a user sees the messages of a channel. Call with s.mu held.
func (s *Server) canSee(ch *channel, userID string) bool {
	switch {
	case ch == nil:
		return false
	case len(ch.recipients) > 0:
		return slices.Contains(ch.recipients, userID)
	case ch.foreign:
		return true // a channel of another server: its members are not ours to know
	case ch.guildID != "":
		return s.members[userID] != nil
	}
	return ch.recipient == userID
}

// reachable reports whether the bot may DM a user: one who shares its server or installed the app.
// Call with s.mu held.
func (s *Server) reachable(userID string) bool {
	return s.members[userID] != nil || s.installed[userID]
}

// buildElsewhere fills in an interaction from a place the bot is not in: the user's install authorises
// it (for a component, the install that authorised the interaction whose answer the message is: the
// install of whoever ran the command at the start of the chain, not the user who clicked). Call with
// s.mu held.
func (s *Server) buildElsewhere(i *discordgo.Interaction, ch *channel, u *discordgo.User, msg *discordgo.Message) {
	installer := u.ID
	if msg != nil {
		if m := s.messages[msg.ID]; m != nil && m.inter != nil {
			installer = m.inter.installer
		}
	}
	s.installed[installer] = true
	i.AuthorizingIntegrationOwners = map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationUserInstall: installer}
	if ch.guildID == "" {
		i.User = u
		i.Context = discordgo.InteractionContextPrivateChannel
		return
	}
	perms := int64(DefaultMemberPermissions | discordgo.PermissionUseExternalApps)
	if ch.noExternalApps {
		perms &^= discordgo.PermissionUseExternalApps
	}
	locale := discordgo.EnglishUS
	i.GuildID, i.GuildLocale = ch.guildID, &locale
	i.Member = &discordgo.Member{GuildID: ch.guildID, User: u, JoinedAt: s.Now(), Permissions: perms, Roles: []string{}}
	i.Context = discordgo.InteractionContextGuild
}

// userInstallOnly reports whether only a user install authorised an interaction (no guild install).
func userInstallOnly(di *discordgo.Interaction) bool {
	_, guild := di.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]
	_, user := di.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationUserInstall]
	return user && !guild
}

// forcedEphemeral reports whether Discord makes every answer to an interaction ephemeral: in a server
// where the member may not use external apps and the bot is not in it.
func forcedEphemeral(di *discordgo.Interaction, ch *channel) bool {
	return ch != nil && ch.foreign && di.Member != nil && di.Member.Permissions&discordgo.PermissionUseExternalApps == 0
}
