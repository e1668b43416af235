package bot_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/bot/discordtest"
)

// TestRateLimitsRespected, in both modes: with Discord's rate limits on
// (a bucket a channel for posting messages that lets one through every
// 50 ms, so that the bot must wait out its headers, and a board's post
// answered 429, then 429 globally), the bot, through discordgo, waits each out and loses
// nothing: every board is posted once, pinging whose turn it is, and the
// fake sees no request sent before a retry_after (a violation, which
// fails the test).
func TestRateLimitsRespected(t *testing.T) {
	t.Parallel()
	const posts = "/channels/{channel_id}/messages"
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			h := newHarness(t, mode)
			ch := h.channel.ID
			h.dc.RateLimit("POST", posts, 1, 50*time.Millisecond)
			g := h.challengeAndAccept()
			first, second := h.players(g)
			h.dc.RateLimited("POST", posts, 20*time.Millisecond, false, 1)
			h.dc.RateLimited("POST", posts, 20*time.Millisecond, true, 1)

			const moves = 3
			postedBefore := len(postedTo(h, ch))
			for ply := range moves {
				mover, other := first, second
				if ply%2 == 1 {
					mover, other = second, first
				}
				board := h.boardAt(ch, ply)
				menu := firstMenu(board)
				h.pick(board.ID, mover, menu, menus(board)[menu][0])
				next := h.boardAt(ch, ply+1)
				assert.Contains(t, next.Notified, other.ID, "the board pings whose turn it is")
			}
			assert.Len(t, postedTo(h, ch)[postedBefore:], moves, "a board a move, each posted once")
			assert.Equal(t, 1, boardsAt(h, ch, moves), "the last board is posted once")
			limited := 0
			for _, r := range h.dc.Requests() {
				if r.Status == 429 {
					limited++
				}
			}
			assert.Equal(t, 2, limited, "Discord answered the 429s forced, and the bot sent nothing past a bucket's headers")
		})
	}
}

// postedTo returns the messages the fake posted in channel, in order, as
// it answered the bot's posts (2xx).
func postedTo(h *harness, channel string) []discordtest.Request {
	var out []discordtest.Request
	for _, r := range h.dc.RequestsTo("POST", "/channels/{channel_id}/messages") {
		if r.Path == "/channels/"+channel+"/messages" && r.Status < 300 {
			out = append(out, r)
		}
	}
	return out
}
