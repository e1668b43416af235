package bot_test

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/storage"
)

// TestRegisteredToInstallAnywhere checks that /kulami is registered for
// both installs (to a server and to a user's account) and for every
// context (servers, the bot's DM, other DMs and group DMs).
func TestRegisteredToInstallAnywhere(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	cmds := h.dc.Commands(h.dc.GuildID())
	require.Len(t, cmds, 2, "/kulami, and /puzzle for servers only")
	require.NotNil(t, cmds[0].Contexts)
	require.NotNil(t, cmds[0].IntegrationTypes)
	assert.ElementsMatch(t, []discordgo.InteractionContextType{discordgo.InteractionContextGuild,
		discordgo.InteractionContextBotDM, discordgo.InteractionContextPrivateChannel}, *cmds[0].Contexts)
	assert.ElementsMatch(t, []discordgo.ApplicationIntegrationType{discordgo.ApplicationIntegrationGuildInstall,
		discordgo.ApplicationIntegrationUserInstall}, *cmds[0].IntegrationTypes)
}

// TestWhereTheBotIsNotAMember checks the places a user install opens,
// where the bot cannot post: a DM between users, a group DM, a server that
// did not add the bot (with and without Use External Apps). There what
// needs a server (the computer's games, reviews, vacations, tournaments)
// is refused privately with what to do, nothing is stored, /kulami
// settings says that the defaults hold, the rules and help work (their
// pager too), and the bot makes no request the fake refuses; an
// interaction from a context the bot does not know is refused.
func TestWhereTheBotIsNotAMember(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			places := []struct {
				name string
				ch   *discordgo.Channel
				want string
			}{
				{"DM between users", h.dc.AddPrivateChannel(h.alice, h.bob), "in a DM or group DM"},
				{"group DM", h.dc.AddPrivateChannel(h.alice, h.bob, h.carol), "in a DM or group DM"},
				{"server without the bot", h.dc.AddForeignChannel("elsewhere", true), "not a member of this server"},
				{"server forbidding external apps", h.dc.AddForeignChannel("strict", false), "not a member of this server"},
			}
			for _, p := range places {
				t.Run(p.name, func(t *testing.T) {
					h.refused(h.command(p.ch.ID, h.alice, "play"), p.want, "/kulami challenge")
					h.refused(h.command(p.ch.ID, h.alice, "vacation"), p.want)
					h.refused(h.command(p.ch.ID, h.alice, "tournament"), p.want)
					h.refused(h.command(p.ch.ID, h.alice, "settings"), "no server settings here", "defaults")
					_, err := h.store.Game(t.Context(), p.ch.ID)
					assert.ErrorIs(t, err, storage.ErrNotFound, "nothing stored")

					rules := h.command(p.ch.ID, h.alice, "rules")
					r := h.dc.WaitResponse(t, rules.ID)
					require.NotEmpty(t, r.Embeds, "the rules work")
					page := r.Embeds[0].Title
					msg := h.dc.WaitOriginal(t, rules.ID, func(*discordtest.Message) bool { return true })
					next := h.click(msg.ID, h.alice, buttons(r.Components)["Next"])
					turned := h.dc.WaitResponse(t, next.ID)
					require.NotEmpty(t, turned.Embeds)
					assert.NotEqual(t, page, turned.Embeds[0].Title, "the pager turns the page")
					help := h.command(p.ch.ID, h.alice, "help")
					assert.NotEmpty(t, h.dc.WaitResponse(t, help.ID).Embeds, "the help works")
				})
			}
			t.Run("unknown context", func(t *testing.T) {
				i := h.commandWith(func(i *discordgo.Interaction) { i.Context = 7 }, h.channel.ID, h.alice, "challenge", h.userOption(h.bob))
				h.refused(i, "don't know this kind of place")
				_, err := h.store.Challenge(t.Context(), h.channel.ID)
				assert.ErrorIs(t, err, storage.ErrNotFound, "nothing stored")
			})
			assert.Empty(t, h.dc.Violations(), "no request refused by the fake")
		})
	}
}
