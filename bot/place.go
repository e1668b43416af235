package bot

import (
	"encoding/json"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/storage"
)

// place is where an interaction comes from, as Discord says it: its context and who authorised it
// (authorizing_integration_owners). The commands are registered for servers and for users' accounts
// (integration types 0 and 1), in servers, the bot's DM and other DMs and group DMs (contexts 0, 1, 2).
// In a server that added the bot, the bot posts its boards, reminders and notices as messages of its
// own. Everywhere else (a DM, a group DM, a server that never added it) the bot is no member and cannot
// post: there a game is answer-only (see answerOnly).
type place int

const (
	placeServer  place = iota // a server that added the bot
	placeDM                   // the bot's DM with the user, another DM or a group DM
	placeForeign              // a server that did not add the bot: only the user's install authorised it
	placeUnknown              // a context the bot does not know
)

// placeOf says where i comes from. An interaction without authorizing_integration_owners (older
// payloads) is placed by its guild alone.
func placeOf(i *discordgo.Interaction) place {
	switch i.Context {
	case discordgo.InteractionContextGuild:
		if i.GuildID == "" {
			return placeUnknown
		}
		owner, installed := i.AuthorizingIntegrationOwners[discordgo.ApplicationIntegrationGuildInstall]
		if len(i.AuthorizingIntegrationOwners) > 0 && (!installed || owner != i.GuildID) {
			return placeForeign
		}
		return placeServer
	case discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel:
		if i.GuildID != "" {
			return placeUnknown
		}
		return placeDM
	}
	return placeUnknown
}

// everywhere is the guild key of what the bot keeps of the places outside the servers that added it:
// the games, challenges and finished games of DMs, group DMs and servers without the bot, and the
// ladder they are rated on ("everywhere", /kulami leaderboard ladder:everywhere). It is the key of
// direct messages in storage (a Game's GuildID is "" there), so the everywhere ladder is the profiles
// of the guild "" on both backends.
const everywhere = ""

// answerOnly reports whether g is played where the bot cannot post (its guild key is everywhere):
// every board, offer and notice of g is then the answer to an interaction of a player, or a DM to the
// players (see anywhere.go), never a message of the bot's in g's channel.
func answerOnly(g *storage.Game) bool { return g.GuildID == everywhere }

// guild returns the key the store keeps c's place under: the server's ID in a server that added
// the bot, else everywhere.
func (c *interaction) guild() string {
	if placeOf(c.i) == placeServer {
		return c.i.GuildID
	}
	return everywhere
}

// placed returns the message key key, or its "_elsewhere" variant outside the servers that added the
// bot, where there is no server for a text to name.
func (c *interaction) placed(key string) string {
	if c.guild() == everywhere {
		return key + "_elsewhere"
	}
	return key
}

// notHere is the refusal of a subcommand or click that needs the bot in the channel, at p (not a
// server that added the bot).
func notHere(p place) error {
	switch p {
	case placeDM:
		return refuse("error.not_in_dm")
	case placeForeign:
		return refuse("error.not_here")
	}
	return refuse("error.unknown_place")
}

// publicRefused reports whether Discord makes every answer to c ephemeral: a server that did not add
// the bot, whose member may not use external apps there. A game needs public answers, so none is
// held there.
func publicRefused(c *interaction) bool {
	return placeOf(c.i) == placeForeign && c.i.Member != nil && c.i.Member.Permissions&discordgo.PermissionUseExternalApps == 0
}

// recipientsOf reads the IDs of the recipients of the channel of an
// interaction as Discord sends it (raw): the users of a DM or group DM.
// discordgo drops the interaction's channel, so both transports read it
// from the raw body. It returns nil for a channel without recipients or a
// body that does not say.
func recipientsOf(raw []byte) []string {
	var wire struct {
		Channel *struct {
			Recipients []struct {
				ID string `json:"id"`
			} `json:"recipients"`
		} `json:"channel"`
	}
	if json.Unmarshal(raw, &wire) != nil || wire.Channel == nil {
		return nil
	}
	var ids []string
	for _, r := range wire.Channel.Recipients {
		ids = append(ids, r.ID)
	}
	return ids
}
