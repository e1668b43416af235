package bot_test

import (
	"fmt"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/storage"
)

// TestOutdatedClients checks the interactions Discord's own client does
// not send today but an outdated one, a command list cached from an older
// version of the bot or a forged request can: options outside their
// choices, unknown subcommands, buttons the bot no longer makes. Each gets
// an ephemeral answer saying what to do, and nothing is stored.
func TestOutdatedClients(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID
			commands := []struct {
				name   string
				change func(*discordgo.Interaction)
				sub    string
				opts   []*discordgo.ApplicationCommandInteractionDataOption
				want   string
			}{
				{"unknown subcommand", nil, "teleport", nil, "don't know that command"},
				{"layout outside the choices", nil, "challenge", []*discordgo.ApplicationCommandInteractionDataOption{
					h.userOption(h.bob), discordtest.StringOption("layout", "hexagon")}, "square, random or irregular"},
				{"rules outside the choices", nil, "challenge", []*discordgo.ApplicationCommandInteractionDataOption{
					h.userOption(h.bob), discordtest.StringOption("rules", "chess")}, "basic, area, lines or full"},
				{"move time that does not parse", nil, "challenge", []*discordgo.ApplicationCommandInteractionDataOption{
					h.userOption(h.bob), discordtest.StringOption("move_time", "5 minutes")}, "is not a move time"},
				{"move time out of range", nil, "challenge", []*discordgo.ApplicationCommandInteractionDataOption{
					h.userOption(h.bob), discordtest.StringOption("move_time", "90d")}, "from 1 minute to 60 days"},
				{"increment longer than the start", nil, "challenge", []*discordgo.ApplicationCommandInteractionDataOption{
					h.userOption(h.bob), discordtest.StringOption("move_time", "1d+2d")}, "the increment is from 1 second up to the start"},
				{"timeouts outside the choices", asAdmin, "settings", []*discordgo.ApplicationCommandInteractionDataOption{
					discordtest.StringOption("timeouts", "never")}, "Pick claim or auto"},
				{"an opponent Discord did not resolve", func(i *discordgo.Interaction) {
					d := i.ApplicationCommandData()
					d.Resolved = nil
					i.Data = d
				}, "challenge", []*discordgo.ApplicationCommandInteractionDataOption{
					discordtest.UserOption("opponent", "4242")}, "**opponent** option"},
				{"level outside the choices", nil, "play", []*discordgo.ApplicationCommandInteractionDataOption{
					discordtest.StringOption("level", "godlike")}, "easy, medium or hard"},
				{"settings move time outside the choices", asAdmin, "settings", []*discordgo.ApplicationCommandInteractionDataOption{
					discordtest.StringOption("move_time", "5m")}, "move time from the list"},
			}
			for _, c := range commands {
				t.Run(c.name, func(t *testing.T) {
					change := c.change
					if change == nil {
						change = func(*discordgo.Interaction) {}
					}
					h.refused(h.commandWith(change, ch, h.alice, c.sub, c.opts...), c.want)
					_, err := h.store.Game(t.Context(), ch)
					assert.ErrorIs(t, err, storage.ErrNotFound, "no game was started")
					_, err = h.store.Challenge(t.Context(), ch)
					assert.ErrorIs(t, err, storage.ErrNotFound, "no challenge was made")
				})
			}
			settings, err := h.store.GuildSettings(t.Context(), h.dc.GuildID())
			require.NoError(t, err)
			assert.Zero(t, settings.MoveTime, "the refused setting was not stored")
			assert.True(t, settings.AutoTimeouts, "the refused timeouts were not stored")

			board, g := h.open()
			first := h.alice
			if g.Player(g.ToMove()).UserID == h.bob.ID {
				first = h.bob
			}
			var menu string
			for id := range menus(board) {
				menu = id
			}
			t.Run("a button the bot no longer makes", func(t *testing.T) {
				for _, id := range []string{"kulami:teleport:" + ch + ":1:0", "rematch", "kulami:move:x"} {
					h.refused(h.click(board.ID, first, id), "older version of me", "/kulami board")
				}
			})
			t.Run("two holes at once", func(t *testing.T) {
				i := h.dc.Select(board.ID, first, menu, "A1", "A2")
				h.send(i)
				h.refused(i, "one hole")
			})
			t.Run("a form the bot never opened", func(t *testing.T) {
				i := h.dc.ModalSubmit(ch, "", first, "kulami:move:"+ch+":1:0", map[string]string{"cell": "A1"})
				h.send(i)
				h.refused(i, "can't handle that kind of interaction")
			})
			after, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			assert.Equal(t, 0, after.Ply(), "nothing was played")
		})
	}
}

// TestForeignCustomIDs checks that a component acts only on its
// interaction's own channel and guild: a click whose custom ID names the
// game or challenge of another channel, or another guild's leaderboard, is
// refused with what is true (the button was made for another channel or
// server; the game it names goes on), in the clicker's language, and the
// game or challenge it names does not change.
func TestForeignCustomIDs(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID
			board, g := h.open()
			first, _ := h.players(g)
			// A challenge in another channel, whose message is where the
			// forged clicks of this game's IDs come from.
			other := h.dc.AddChannel("other")
			i := h.command(other.ID, h.carol, "challenge", h.userOption(h.alice))
			offer := messageAfter(t, h.dc, i, other.ID, "the challenge", hasButton("Accept"))
			open, err := h.store.Challenge(t.Context(), other.ID)
			require.NoError(t, err)

			game := func(action string, n int) string {
				return fmt.Sprintf("kulami:%s:%s:%d:%d", action, ch, g.ID, n)
			}
			otherGuild := h.dc.GuildID() + "1"
			en := i18n.English
			elsewhere := en.T("error.elsewhere")
			t.Run("a move in another channel's game", func(t *testing.T) {
				for id, values := range menus(board) {
					i := h.dc.Select(offer.ID, first, id, values[0])
					h.send(i)
					h.refused(i, elsewhere)
				}
			})
			clicks := []struct {
				name     string
				message  string
				user     *discordgo.User
				customID string
				want     string
			}{
				{"resigning another channel's game", offer.ID, first, game("resign-yes", 0), elsewhere},
				{"the resign button of another channel's game", offer.ID, first, game("resign", 0), elsewhere},
				{"a draw in another channel's game", offer.ID, first, game("draw-yes", 0), elsewhere},
				{"accepting another channel's challenge", board.ID, h.alice, buttons(offer.Components)["Accept"], elsewhere},
				{"withdrawing another channel's challenge", board.ID, h.carol, buttons(offer.Components)["Withdraw"], elsewhere},
				{"another guild's leaderboard", board.ID, h.carol, "kulami:leaderboard:" + otherGuild + ":0:1", en.T("error.elsewhere_server")},
			}
			for _, c := range clicks {
				t.Run(c.name, func(t *testing.T) {
					require.NotEmpty(t, c.customID)
					got := h.refused(h.click(c.message, c.user, c.customID), c.want)
					assert.NotContains(t, got, "ended", "the game or challenge it names goes on")
				})
			}
			t.Run("in each language", func(t *testing.T) {
				for lang, locale := range map[i18n.Lang]discordgo.Locale{
					i18n.English: discordgo.EnglishUS, i18n.French: discordgo.French,
					i18n.Spanish: discordgo.SpanishES, i18n.German: discordgo.German,
				} {
					t.Run(string(lang), func(t *testing.T) {
						for _, c := range []struct{ customID, id string }{
							{game("resign", 0), "error.elsewhere"},
							{"kulami:leaderboard:" + otherGuild + ":0:1", "error.elsewhere_server"},
						} {
							i := h.dc.Button(offer.ID, first, c.customID)
							i.Locale = locale
							h.send(i)
							h.dc.WaitResponse(t, i.ID)
							assert.Equal(t, lang.T(c.id), h.refused(i), c.customID)
						}
					})
				}
			})
			after, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			assert.Equal(t, 0, after.Ply(), "nothing was played")
			assert.False(t, after.Over(), "the game goes on")
			still, err := h.store.Challenge(t.Context(), other.ID)
			require.NoError(t, err, "the other channel's challenge is still open")
			assert.Equal(t, open.ID, still.ID)
		})
	}
}
