package bot_test

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/bot/i18n"
)

// TestBoardPostedAnswerLost, in both modes: Discord posts a move's board
// but its answer is lost (the connection breaks, or a proxy answers 502,
// which discordgo would send again). The bot looks before it posts again:
// the board is shown once, never twice, and noted, and the player is not
// told that their move failed or that its board is not shown.
func TestBoardPostedAnswerLost(t *testing.T) {
	t.Parallel()
	const posts = "/channels/{channel_id}/messages"
	for _, mode := range modes {
		for _, lost := range []struct {
			name string
			err  discordtest.APIError
		}{{"connection broken", discordtest.APIError{}}, {"502", discordtest.ErrBadGateway}} {
			t.Run(mode+"/"+lost.name, func(t *testing.T) {
				t.Parallel()
				h := newManualHarness(t, mode)
				ch := h.channel.ID
				board, g := h.open()
				first, _ := h.players(g)

				h.dc.LoseResponses("POST", posts, lost.err, 1)
				i := h.pick(board.ID, first, menuOf(board, "D4"), "D4")
				posted := h.waitBoard(ch, "the board Discord posted", func(m *discordtest.Message) bool { return boardPly(m) == 1 })
				for range 3 { // whatever the bot tries again, on the clock
					if h.clock.Waiting() > 0 {
						h.clock.Advance(8 * time.Second)
					}
				}
				h.tick(time.Minute) // the scheduler's repair
				require.Eventually(t, func() bool {
					g, err := h.store.Game(t.Context(), ch)
					return err == nil && g.BoardMessageID == posted.ID && g.BoardDue.IsZero()
				}, hung, time.Millisecond, "the board posted is noted, nothing owed")
				h.tick(time.Hour)
				assert.Equal(t, 1, boardsAt(h, ch, 1), "the board is shown once")
				answers := contents(h.dc.Followups(i.ID))
				for _, id := range []string{"error.generic", "error.stored", "error.stored_unseen"} {
					assert.False(t, slices.Contains(answers, i18n.English.T(id)), "the board is shown: the move is not said to have failed or to be unseen: %q", answers)
				}
			})
		}
	}
}
