package bot_test

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
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
				{"move time outside the choices", nil, "challenge", []*discordgo.ApplicationCommandInteractionDataOption{
					h.userOption(h.bob), discordtest.StringOption("move_time", "5m")}, "move time from the list"},
				{"no opponent", nil, "challenge", nil, "**opponent** option"},
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

			g := h.challengeAndAccept()
			board := h.boardAt(ch, 0)
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
