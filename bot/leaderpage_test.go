package bot_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLeaderboardBadPage checks that a leaderboard click whose custom ID
// carries a page no pager writes (negative, past what an offset can hold,
// not a number) is refused like any stale button: ephemeral, in the
// reader's words, and nothing logged as an error.
func TestLeaderboardBadPage(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			g := h.challengeAndAccept()
			first, _ := h.players(g)
			h.send(h.command(h.channel.ID, first, "resign"))
			board := h.boardAt(h.channel.ID, 0)
			guild := h.dc.GuildID()
			for _, page := range []string{"-1", "-9223372036854775808", fmt.Sprint(math.MaxInt64), fmt.Sprint(math.MaxInt64/10 + 1), "99999999999999999999", "x", ""} {
				t.Run(page, func(t *testing.T) {
					id := fmt.Sprintf("kulami:leaderboard:%s:0:%s", guild, page)
					h.refused(h.click(board.ID, h.carol, id))
				})
			}
			assert.NotContains(t, h.logs.String(), "level=ERROR", "a bad page is no error of the bot")
		})
	}
}
