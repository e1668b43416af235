package bot

import "github.com/bwmarrin/discordgo"

// place is where an interaction comes from, as Discord says it: its context and who authorised it
// (authorizing_integration_owners). The commands are registered for servers and for users' accounts
// (integration types 0 and 1), in servers, the bot's DM and other DMs and group DMs (contexts 0, 1, 2),
// but games are held only where the bot is a member: in the servers that added it. Elsewhere the
// bot cannot post, so only what it can answer within the interaction works there (rules, help).
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
