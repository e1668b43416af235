package bot_test

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// notified returns the IDs of the users Discord notified of m.
func notified(m *discordtest.Message) []string { return m.Notified }

// TestEveryTurnNotifies walks a game through every message that hands the
// turn to someone and checks, for each, that it is a new message that
// notified exactly that player (Discord notifies nobody of an edit).
func TestEveryTurnNotifies(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID

			msg := h.challengeMessage()
			assert.Equal(t, []string{h.bob.ID}, notified(msg), "the challenge notifies the challenged player")
			accept := h.click(msg.ID, h.bob, buttons(msg.Components)["Accept"])
			board := messageAfter(t, h.dc, accept, ch, "the first board", func(m *discordtest.Message) bool { return boardPly(m) == 0 })
			g, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			first, second := h.players(g)
			assert.Equal(t, []string{first.ID}, notified(board), "the game's start notifies the first player")

			// A typed move and a picked one each hand the turn over with a
			// board that notifies the opponent, not the mover.
			move := h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			assert.True(t, h.dc.WaitResponse(t, move.ID).Ephemeral(), "a typed move is confirmed to the mover alone")
			board = messageAfter(t, h.dc, move, ch, "the board after a typed move", func(m *discordtest.Message) bool { return boardPly(m) == 1 })
			assert.Equal(t, []string{second.ID}, notified(board))
			menu := menuWith(board, "D7")
			require.NotEmpty(t, menu)
			pick := h.pick(board.ID, second, menu, "D7")
			board = messageAfter(t, h.dc, pick, ch, "the board after a pick", func(m *discordtest.Message) bool { return boardPly(m) == 2 })
			assert.Equal(t, []string{first.ID}, notified(board))

			offer := h.command(ch, first, "draw")
			m := messageAfter(t, h.dc, offer, ch, "the draw offer", hasButton("Accept draw"))
			assert.Equal(t, []string{second.ID}, notified(m), "a draw offer notifies the opponent")

			resign := h.command(ch, second, "resign")
			ask := h.dc.WaitOriginal(t, resign.ID, func(m *discordtest.Message) bool { return len(m.Components) > 0 })
			yes := h.click(ask.ID, second, buttons(ask.Components)["Yes, resign"])
			final := messageAfter(t, h.dc, yes, ch, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "Game over") })
			assert.ElementsMatch(t, []string{first.ID, second.ID}, notified(final), "the end notifies both players")
		})
	}
}

// TestStoredMoveIsAlwaysShown: when Discord refuses the answer to a click
// (too late, a network error), the move is stored all the same, and its
// board still reaches the channel and notifies the opponent.
func TestStoredMoveIsAlwaysShown(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID
			g := h.challengeAndAccept()
			first, second := h.players(g)
			h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			board := h.boardAt(ch, 1)
			cell := "D7" // legal after D4
			menu := menuWith(board, cell)
			require.NotEmpty(t, menu)

			h.dc.RejectCallbacks(1)
			i := h.dc.Select(board.ID, second, menu, cell)
			h.send(i)
			next := messageAfter(t, h.dc, i, ch, "the board of the stored move", func(m *discordtest.Message) bool { return boardPly(m) == 2 })
			assert.Contains(t, next.Content, "played **"+cell+"**")
			assert.Equal(t, []string{first.ID}, notified(next), "the opponent is notified")
			g, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			assert.Equal(t, 2, g.Ply(), "the move counts")
		})
	}
}

// TestBoardExplainsItself checks the words of a board: menus a person can
// search (by rows), options that say what a move does, the score with its
// bonuses, and refusals that name the board's real range.
func TestBoardExplainsItself(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	ch := h.channel.ID
	h.reply(h.commandWith(asAdmin, ch, h.alice, "settings", discordtest.StringOption("hints", "on")))
	board, g := h.open(discordtest.StringOption("rules", "full"))
	first, _ := h.players(g)
	sel := selectMenus(board)
	require.Len(t, sel, 3, "64 holes need three menus")
	for _, m := range sel {
		assert.Regexp(t, `^Place a marble: rows? \d+(–\d+)?(, from [A-H]\d)?$`, m.Placeholder)
		for _, o := range m.Options {
			assert.LessOrEqual(t, len([]rune(o.Description)), 100, "Discord's limit")
		}
	}
	assert.Equal(t, "Place a marble: rows 1–3", sel[0].Placeholder)
	require.Len(t, board.Files, 1)
	alt := board.Files[0].Description
	assert.LessOrEqual(t, len([]rune(alt)), 1024, "Discord's limit for a description")
	assert.Contains(t, alt, "Kulami board, 8 by 8 holes, full rules. Red: ")
	assert.Contains(t, alt, " to move; may play any empty hole (64 of them).", "the image carries alt text")
	assert.Equal(t, "A1", sel[0].Options[0].Label)
	assert.Regexp(t, `^Panel of \d: you 1, them 0 \(you lead\) · leaves them \d+ holes$`, sel[0].Options[0].Description)

	h.refused(h.command(ch, first, "move", discordtest.StringOption("cell", "Z9")), "write a column letter A–H and a row number 1–8")
	h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
	board = h.boardAt(ch, 1)
	assert.Contains(t, board.Files[0].Description, "Move 1: "+first.Username+" played D4.")
	assert.Regexp(t, `Score so far: 🔴 \d+ \(panels \d+ \+ area \d+ \+ lines \d+\) · ⚫ \d+ \(panels 0 \+ area 0 \+ lines 0\)`, board.Content)
	assert.Regexp(t, `^Panel of \d: you 1, them 1 \(tied\)|you \d, them \d`, selectMenus(board)[0].Options[0].Description)
}

// TestHintsOffMenus checks that on a server with hints off (the default)
// the move menus only name the holes: no option says what a move leaves
// the opponent or who leads a panel, on the first board or later ones.
func TestHintsOffMenus(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID
			g := h.challengeAndAccept()
			first, _ := h.players(g)
			check := func(board *discordtest.Message) {
				t.Helper()
				sel := selectMenus(board)
				require.NotEmpty(t, sel)
				for _, m := range sel {
					require.NotEmpty(t, m.Options)
					for _, o := range m.Options {
						assert.Empty(t, o.Description, "option %s", o.Label)
					}
				}
			}
			check(h.boardAt(ch, 0))
			h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			check(h.boardAt(ch, 1))
		})
	}
}

// selectMenus returns the select menus of a message, in order.
func selectMenus(m *discordtest.Message) []*discordgo.SelectMenu {
	var out []*discordgo.SelectMenu
	for _, row := range m.Components {
		r, ok := row.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range r.Components {
			if s, ok := c.(*discordgo.SelectMenu); ok {
				out = append(out, s)
			}
		}
	}
	return out
}
