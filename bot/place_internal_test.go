package bot

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
)

func TestPlaceOf(t *testing.T) {
	const guild, user = "100", "200"
	type owners = map[discordgo.ApplicationIntegrationType]string
	server, userInstall := discordgo.ApplicationIntegrationGuildInstall, discordgo.ApplicationIntegrationUserInstall
	tests := []struct {
		name    string
		context discordgo.InteractionContextType
		guildID string
		owners  owners
		want    place
	}{
		{"server that added the bot", discordgo.InteractionContextGuild, guild, owners{server: guild}, placeServer},
		{"server that added the bot, user install too", discordgo.InteractionContextGuild, guild, owners{server: guild, userInstall: user}, placeServer},
		{"server, without owners (older payload)", discordgo.InteractionContextGuild, guild, nil, placeServer},
		{"server without the bot", discordgo.InteractionContextGuild, guild, owners{userInstall: user}, placeForeign},
		{"another server's install", discordgo.InteractionContextGuild, guild, owners{server: "300"}, placeForeign},
		{"the bot's DM", discordgo.InteractionContextBotDM, "", owners{server: "0"}, placeDM},
		{"the bot's DM, user install", discordgo.InteractionContextBotDM, "", owners{userInstall: user}, placeDM},
		{"DM or group DM between users", discordgo.InteractionContextPrivateChannel, "", owners{userInstall: user}, placeDM},
		{"server context without a server", discordgo.InteractionContextGuild, "", owners{userInstall: user}, placeUnknown},
		{"DM context in a server", discordgo.InteractionContextPrivateChannel, guild, owners{userInstall: user}, placeUnknown},
		{"unknown context", 3, guild, owners{server: guild}, placeUnknown},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			i := &discordgo.Interaction{Context: tc.context, GuildID: tc.guildID, AuthorizingIntegrationOwners: tc.owners}
			assert.Equal(t, tc.want, placeOf(i))
		})
	}
}
