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

// TestBoardMended, in both modes: in a 15-second outage of Discord's
// messages (a board's post and the interaction's follow-ups answer 500),
// a move's board and the follow-up telling the player it is stored are
// tried again by the bot, backing off, so that both come within 10 seconds
// of Discord answering again, not at the scheduler's minute; the board
// pings the opponent, and nothing is shown twice.
func TestBoardMended(t *testing.T) {
	t.Parallel()
	const (
		outage   = 15 * time.Second
		back     = 10 * time.Second // the bound on the board's coming back
		posts    = "/channels/{channel_id}/messages"
		webhooks = "/webhooks/{webhook_id}/{webhook_token}"
	)
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			h := newManualHarness(t, mode)
			ch := h.channel.ID
			g := h.challengeAndAccept()
			first, second := h.players(g)
			stored := i18n.English.T("error.stored")

			start := h.clock.Now()
			h.dc.Fail("POST", posts, discordtest.ErrServerError, 0)
			h.dc.Fail("POST", webhooks, discordtest.ErrServerError, 0)
			i := h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			h.clock.AdvanceWaited(t, time.Second) // the post's own tries
			h.clock.AdvanceWaited(t, 3*time.Second)
			h.dc.WaitUntil(t, "the follow-up that the move is stored, failed", func() bool {
				return slices.ContainsFunc(h.dc.RequestsTo("POST", webhooks), func(r discordtest.Request) bool { return r.Status >= 500 })
			})

			shown := func() bool { return boardsAt(h, ch, 1) > 0 }
			told := func() bool { return slices.Contains(contents(h.dc.Followups(i.ID)), stored) }
			// owed is how many debts are left: each is a wait on the clock
			// between its tries.
			owed := func() int {
				n := 0
				for _, paid := range []bool{shown(), told()} {
					if !paid {
						n++
					}
				}
				return n
			}
			var recovered, boardBack, followupBack time.Time
			for k := 0; h.clock.Now().Sub(start) < outage+back+time.Minute && owed() > 0; k++ {
				require.Eventually(t, func() bool { return h.clock.Waiting() == owed() }, hung, time.Millisecond,
					"each debt owed waits for its next try")
				if recovered.IsZero() && !h.clock.Now().Before(start.Add(outage)) {
					h.dc.ClearFailures()
					recovered = h.clock.Now()
				}
				h.clock.Advance(time.Second)
				require.Eventually(t, func() bool { return h.clock.Waiting() == owed() }, hung, time.Millisecond,
					"each try ends, paid or waiting for the next")
				if boardBack.IsZero() && shown() {
					boardBack = h.clock.Now()
				}
				if followupBack.IsZero() && told() {
					followupBack = h.clock.Now()
				}
			}
			require.False(t, recovered.IsZero(), "Discord answered again")
			require.False(t, boardBack.IsZero(), "the board came back")
			require.False(t, followupBack.IsZero(), "the follow-up came")
			t.Logf("Discord answered again %v after the outage began; the board was back %v later, the follow-up %v later",
				recovered.Sub(start), boardBack.Sub(recovered), followupBack.Sub(recovered))
			assert.LessOrEqual(t, boardBack.Sub(recovered), back, "the board is back within %v of Discord answering", back)
			assert.LessOrEqual(t, followupBack.Sub(recovered), back, "the follow-up comes within %v of Discord answering", back)

			later := h.boardAt(ch, 1)
			assert.Contains(t, later.Notified, second.ID, "the board that comes back pings the opponent")
			require.Eventually(t, func() bool {
				g, err := h.store.Game(t.Context(), ch)
				return err == nil && g.BoardMessageID == later.ID && g.BoardDue.IsZero()
			}, hung, time.Millisecond, "the board noted, nothing owed")
			h.tick(2 * time.Minute) // the scheduler finds nothing owed
			assert.Equal(t, 1, boardsAt(h, ch, 1), "the board is posted once")
			n := 0
			for _, text := range contents(h.dc.Followups(i.ID)) {
				if text == stored {
					n++
				}
			}
			assert.Equal(t, 1, n, "the follow-up is shown once")
		})
	}
}
