package discordtest

import (
	"encoding/json"
	"sort"
	"strconv"

	"github.com/bwmarrin/discordgo"
)

// attachmentSizeLimit is the upload limit Discord announces with interactions (25 MiB).
const attachmentSizeLimit = 25 << 20

// Command builds a slash command interaction (type 2): user runs /name with the given options (e.g.
// Subcommand("new", StringOption("layout", "classic"))) in a guild channel, thread or DM channel. The
// command's ID is the one the bot registered under that name, if any. Send it with SendInteraction or
// PostInteraction; fields may be changed before.
func (s *Server) Command(channelID string, user *discordgo.User, name string, options ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.Interaction {
	return s.build(discordgo.InteractionApplicationCommand, channelID, user, nil, discordgo.ApplicationCommandInteractionData{
		ID: s.commandID(name), Name: name, CommandType: discordgo.ChatApplicationCommand, Options: options,
	})
}

// Autocomplete builds an autocomplete interaction (type 4) for /name while the user types the option
// marked with Focused.
func (s *Server) Autocomplete(channelID string, user *discordgo.User, name string, options ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.Interaction {
	return s.build(discordgo.InteractionApplicationCommandAutocomplete, channelID, user, nil, discordgo.ApplicationCommandInteractionData{
		ID: s.commandID(name), Name: name, CommandType: discordgo.ChatApplicationCommand, Options: options,
	})
}

// Button builds the click of the button customID of a message (type 3), by user. The message must be
// one the fake holds; it is sent with the interaction as it is now.
func (s *Server) Button(messageID string, user *discordgo.User, customID string) *discordgo.Interaction {
	return s.component(messageID, user, discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: discordgo.ButtonComponent})
}

// Select builds a choice in the string select menu customID of a message (type 3), by user.
func (s *Server) Select(messageID string, user *discordgo.User, customID string, values ...string) *discordgo.Interaction {
	if values == nil {
		values = []string{}
	}
	return s.component(messageID, user, discordgo.MessageComponentInteractionData{CustomID: customID, ComponentType: discordgo.SelectMenuComponent, Values: values})
}

// ModalSubmit builds the submission of the modal customID (type 5) with the values of its text inputs,
// by their custom IDs. fromMessageID is the message whose component opened the modal, or "" if a
// command did; channelID is where it was opened.
func (s *Server) ModalSubmit(channelID, fromMessageID string, user *discordgo.User, customID string, values map[string]string) *discordgo.Interaction {
	ids := make([]string, 0, len(values))
	for id := range values {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var rows []discordgo.MessageComponent
	for _, id := range ids {
		rows = append(rows, discordgo.ActionsRow{Components: []discordgo.MessageComponent{discordgo.TextInput{CustomID: id, Value: values[id]}}})
	}
	var msg *discordgo.Message
	if fromMessageID != "" {
		msg = s.messageOrFail(fromMessageID)
	}
	return s.build(discordgo.InteractionModalSubmit, channelID, user, msg, discordgo.ModalSubmitInteractionData{CustomID: customID, Components: rows})
}

// Ping builds the PING (type 1) that Discord sends to check an HTTP interactions endpoint.
func (s *Server) Ping() *discordgo.Interaction {
	id := s.newID()
	i := &discordgo.Interaction{ID: id, AppID: s.appID, Type: discordgo.InteractionPing, Token: "interaction-token-" + id, Version: 1}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.register(i)
	return i
}

// Subcommand is a subcommand option with its own options.
func Subcommand(name string, options ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand, Options: options}
}

// StringOption is a string option.
func StringOption(name, value string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: value}
}

// IntegerOption is an integer option.
func IntegerOption(name string, value int64) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionInteger, Value: value}
}

// BooleanOption is a boolean option.
func BooleanOption(name string, value bool) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionBoolean, Value: value}
}

// UserOption is a user option; its value is the user's ID.
func UserOption(name, userID string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionUser, Value: userID}
}

// ChannelOption is a channel option; its value is the channel's ID.
func ChannelOption(name, channelID string) *discordgo.ApplicationCommandInteractionDataOption {
	return &discordgo.ApplicationCommandInteractionDataOption{Name: name, Type: discordgo.ApplicationCommandOptionChannel, Value: channelID}
}

// Focused marks the option the user is typing, for Autocomplete; its value is the text typed so far.
func Focused(o *discordgo.ApplicationCommandInteractionDataOption) *discordgo.ApplicationCommandInteractionDataOption {
	o.Focused = true
	return o
}

func (s *Server) component(messageID string, user *discordgo.User, data discordgo.MessageComponentInteractionData) *discordgo.Interaction {
	msg := s.messageOrFail(messageID)
	return s.build(discordgo.InteractionMessageComponent, msg.ChannelID, user, msg, data)
}

func (s *Server) messageOrFail(id string) *discordgo.Message {
	m, ok := s.Message(id)
	if !ok {
		s.tb.Fatalf("discordtest: unknown message %s", id)
	}
	return m.Message
}

// commandID is the ID of the registered command name (guild commands first), or a fresh ID.
func (s *Server) commandID(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, g := range []string{s.guildID, ""} {
		var cmds []struct{ ID, Name string }
		_ = json.Unmarshal(s.commands[g], &cmds)
		for _, c := range cmds {
			if c.Name == name {
				return c.ID
			}
		}
	}
	return s.newID()
}

// build makes an interaction as Discord would send it and registers it.
func (s *Server) build(typ discordgo.InteractionType, channelID string, user *discordgo.User, msg *discordgo.Message, data discordgo.InteractionData) *discordgo.Interaction {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channels[channelID]
	if ch == nil {
		s.tb.Fatalf("discordtest: unknown channel %s", channelID)
	}
	if user == nil || s.users[user.ID] == nil {
		s.tb.Fatalf("discordtest: the user of an interaction must come from AddUser")
	}
	id := s.newID()
	i := &discordgo.Interaction{
		ID:             id,
		AppID:          s.appID,
		Type:           typ,
		Data:           data,
		ChannelID:      ch.id,
		Message:        msg,
		AppPermissions: s.cfg.appPermissions,
		Locale:         discordgo.EnglishUS,
		Token:          "interaction-token-" + id,
		Version:        1,
		Entitlements:   []*discordgo.Entitlement{},
	}
	u := *s.users[user.ID]
	if ch.foreign {
		s.buildElsewhere(i, ch, &u, msg)
	} else if ch.guildID == "" {
		i.User = &u
		i.Context = discordgo.InteractionContextBotDM
		i.AuthorizingIntegrationOwners = map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationGuildInstall: "0"}
	} else {
		m := s.members[user.ID]
		locale := discordgo.EnglishUS
		i.GuildID = ch.guildID
		i.GuildLocale = &locale
		i.Member = &discordgo.Member{GuildID: ch.guildID, User: &u, JoinedAt: m.joined, Permissions: m.permissions, Roles: []string{}}
		i.Context = discordgo.InteractionContextGuild
		i.AuthorizingIntegrationOwners = map[discordgo.ApplicationIntegrationType]string{discordgo.ApplicationIntegrationGuildInstall: ch.guildID}
	}
	s.register(i)
	return i
}

// SendInteraction sends an interaction to the bot through the gateway (INTERACTION_CREATE). The
// interaction need not come from a builder; the bot's response is then recorded for its ID.
//
// Sending the same interaction again redelivers it, as Discord may after a gateway resume: its ack
// deadline and token still run from the first delivery, and a second acknowledgement is answered 400
// Interaction has already been acknowledged (40060) without a violation, since the bot could not know.
// PostInteraction redelivers the same way in HTTP mode, and ReplayOnResume as Discord does, on a
// resume.
func (s *Server) SendInteraction(i *discordgo.Interaction) {
	s.tb.Helper()
	s.mu.Lock()
	in := s.deliver(i)
	raw := s.wireInteraction(i)
	s.mu.Unlock()
	s.dispatch("INTERACTION_CREATE", raw, in)
}

// wireInteraction encodes an interaction as Discord sends it: with the channel and guild objects and the
// stored user, member and message objects. Call with s.mu held.
func (s *Server) wireInteraction(i *discordgo.Interaction) json.RawMessage {
	j := map[string]any{
		"id":                    i.ID,
		"application_id":        i.AppID,
		"type":                  i.Type,
		"token":                 i.Token,
		"version":               1,
		"app_permissions":       strconv.FormatInt(i.AppPermissions, 10),
		"locale":                i.Locale,
		"entitlements":          []any{},
		"attachment_size_limit": attachmentSizeLimit,
	}
	if i.Type == discordgo.InteractionPing {
		delete(j, "app_permissions")
		delete(j, "locale")
		delete(j, "attachment_size_limit")
		return mustJSON(j)
	}
	j["data"] = s.wireData(i.Data)
	j["context"] = i.Context
	owners := map[string]string{}
	for k, v := range i.AuthorizingIntegrationOwners {
		owners[strconv.Itoa(int(k))] = v
	}
	j["authorizing_integration_owners"] = owners
	if ch := s.channels[i.ChannelID]; ch != nil {
		j["channel_id"] = ch.id
		j["channel"] = s.channelJSON(ch)
	} else if i.ChannelID != "" {
		j["channel_id"] = i.ChannelID
	}
	if i.GuildID != "" {
		j["guild_id"] = i.GuildID
		locale := discordgo.EnglishUS
		if i.GuildLocale != nil {
			locale = *i.GuildLocale // the server's language, as the test set it
		}
		j["guild"] = map[string]any{"id": i.GuildID, "locale": locale, "features": []any{}}
		j["guild_locale"] = locale
	}
	if i.Member != nil && i.Member.User != nil {
		var mj map[string]any
		if m := s.members[i.Member.User.ID]; m != nil {
			mj = memberJSON(m)
		} else {
			mj = memberJSON(&member{user: i.Member.User, joined: i.Member.JoinedAt})
		}
		mj["permissions"] = strconv.FormatInt(i.Member.Permissions, 10)
		if len(i.Member.Roles) > 0 { // a test gave the member roles
			mj["roles"] = i.Member.Roles
		}
		j["member"] = mj
	}
	if i.User != nil {
		j["user"] = userJSON(i.User)
	}
	if i.Message != nil {
		if m := s.messages[i.Message.ID]; m != nil {
			j["message"] = s.messageJSON(m)
		} else {
			j["message"] = i.Message
		}
	}
	return mustJSON(j)
}

// wireData encodes interaction data without the zero members that discordgo's types would add.
func (s *Server) wireData(d discordgo.InteractionData) any {
	switch d := d.(type) {
	case discordgo.ApplicationCommandInteractionData:
		j := map[string]any{"id": d.ID, "name": d.Name, "type": d.CommandType}
		if d.CommandType == 0 {
			j["type"] = discordgo.ChatApplicationCommand
		}
		if len(d.Options) > 0 {
			j["options"] = d.Options
		}
		if d.Resolved != nil {
			j["resolved"] = d.Resolved
		}
		if d.TargetID != "" {
			j["target_id"] = d.TargetID
		}
		if s.commandRegisteredIn(s.guildID, d.Name) {
			j["guild_id"] = s.guildID
		}
		return j
	case discordgo.MessageComponentInteractionData:
		j := map[string]any{"custom_id": d.CustomID, "component_type": d.ComponentType}
		if d.ComponentType != discordgo.ButtonComponent {
			values := d.Values
			if values == nil {
				values = []string{}
			}
			j["values"] = values
		}
		return j
	case discordgo.ModalSubmitInteractionData:
		rows := []any{}
		for _, c := range d.Components {
			row, ok := c.(discordgo.ActionsRow)
			if !ok {
				continue
			}
			inputs := []any{}
			for _, c := range row.Components {
				if in, ok := c.(discordgo.TextInput); ok {
					inputs = append(inputs, map[string]any{"type": discordgo.TextInputComponent, "custom_id": in.CustomID, "value": in.Value})
				}
			}
			rows = append(rows, map[string]any{"type": discordgo.ActionsRowComponent, "components": inputs})
		}
		return map[string]any{"custom_id": d.CustomID, "components": rows}
	}
	return d
}

// commandRegisteredIn reports whether the bot registered a command name in a guild. Call with s.mu held.
func (s *Server) commandRegisteredIn(guildID, name string) bool {
	var cmds []struct{ Name string }
	_ = json.Unmarshal(s.commands[guildID], &cmds)
	for _, c := range cmds {
		if c.Name == name {
			return true
		}
	}
	return false
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("discordtest: " + err.Error())
	}
	return b
}
