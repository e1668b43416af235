package bot_test

import (
	"bytes"
	"image/png"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// TestWholeGame plays a game from the challenge to its end, alternating
// picks from the board's menus and typed moves, in both modes, on a clock
// that moves as the players think (thinkTime), and counts the commits of
// the database: one a move, and the scheduler's records of the bot alive.
func TestWholeGame(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			start, commits := h.clock.Now(), h.startedCommits()
			g := h.challengeAndAccept(discordtest.StringOption("rules", "full"))
			assert.Equal(t, engine.Full, g.Rules())
			// Six commits make the game: the locales of the guild and of
			// both players (noted at their first interaction), the
			// challenge, its message, and its acceptance.
			commits += 6
			assert.Equal(t, commits, h.commits(), "six commits make the game")

			rng := engine.NewRand(7)
			moves := 0
			for ply := 0; ; ply++ {
				g, err := h.store.Game(t.Context(), h.channel.ID)
				if err != nil {
					require.ErrorIs(t, err, storage.ErrNotFound, "the game ends only by being finished")
					moves = ply
					break
				}
				require.Equal(t, ply, g.Ply())
				board := h.boardAt(h.channel.ID, ply)
				img, err := png.Decode(bytes.NewReader(board.Files[0].Data))
				require.NoError(t, err, "the board is a PNG")
				assert.Greater(t, img.Bounds().Dx(), 300)

				player := h.alice
				if g.Player(g.ToMove()).UserID == h.bob.ID {
					player = h.bob
				}
				assert.Contains(t, board.Content, "<@"+player.ID+">, your move", "the board pings the player to move")
				p := g.Position()
				cell := p.Layout().Cell(rng.Pick(p.Legal())).String()
				h.clock.Advance(thinkTime(ply))
				if ply%2 == 0 {
					var menu string
					for id, values := range menus(board) {
						for _, v := range values {
							if v == cell {
								menu = id
							}
						}
					}
					require.NotEmpty(t, menu, "%s is in a menu of the board", cell)
					i := h.pick(board.ID, player, menu, cell)
					r := h.dc.WaitResponse(t, i.ID)
					assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, "the clicked board is updated")
					assert.Empty(t, r.Components, "the old board loses its menus")
				} else {
					h.command(h.channel.ID, player, "move", discordtest.StringOption("cell", strings.ToLower(cell)))
				}
			}

			final := h.waitBoard(h.channel.ID, "the final board", func(m *discordtest.Message) bool {
				return strings.Contains(m.Content, "Game over")
			})
			assert.Empty(t, menus(final), "the final board has no menus")
			assert.Contains(t, buttons(final.Components), "Rematch", "the final board offers a rematch")
			assert.Regexp(t, `(has no legal hole after move \d+|All 56 marbles are placed)\.`, final.Content, "the board says why the game ended")
			require.Len(t, final.Embeds, 1, "the final board has the score breakdown")
			assert.Contains(t, final.Content, "<@"+h.alice.ID+">")
			assert.Contains(t, final.Content, "<@"+h.bob.ID+">")

			h.assertCommitsPerMove(commits, moves, h.clock.Now().Sub(start))
			f, err := h.store.FinishedGame(t.Context(), h.dc.GuildID(), g.ID)
			require.NoError(t, err, "the finished game is stored")
			assert.Equal(t, game.Normal, f.Result().Ending)
			rec, err := engine.ParseRecord(f.RecordText)
			require.NoError(t, err)
			pos, err := rec.Replay()
			require.NoError(t, err)
			assert.True(t, pos.IsOver())
			assert.Equal(t, pos.Score(engine.Full), f.Result().Score)
			h.dc.WaitUntil(t, "every old board to lose its menus", func() bool {
				for _, m := range h.dc.Messages(h.channel.ID) {
					if len(menus(m)) > 0 {
						return false
					}
				}
				return true
			})
		})
	}
}
