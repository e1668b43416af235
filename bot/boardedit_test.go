package bot_test

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// edited returns the board message as it is now, once it was edited more
// than before times (edits from the bot run on the scheduler's tick, so
// it has returned by then: a generous bound only stops a hang).
func edited(t *testing.T, h *harness, board *discordtest.Message, before int) *discordtest.Message {
	t.Helper()
	var now *discordtest.Message
	h.dc.WaitUntil(t, "the board edited", func() bool {
		now, _ = h.dc.Message(board.ID)
		return now.Edits > before
	})
	return now
}

// assertEditPingedNobody checks that every mention of the board's edits
// notified nobody.
func assertEditPingedNobody(t *testing.T, h *harness, board *discordtest.Message) {
	t.Helper()
	for _, m := range h.dc.Mentions() {
		if m.MessageID == board.ID && m.Why == discordtest.NotNotifiedEdit {
			assert.False(t, m.Notified)
		}
	}
	now, _ := h.dc.Message(board.ID)
	assert.Equal(t, board.Notified, now.Notified, "an edit notifies nobody")
}

// TestBoardsNeverLie: what changes what the latest board says without a
// move edits that board, which pings nobody: a vacation that starts (the
// board said "due <t>"), one that ends (a board posted during it said
// "on vacation until…"), a weekend pause that begins and one that ends;
// text and image both. In both transports, by the fake clock.
func TestBoardsNeverLie(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			h, st := newDaysHarness(t, mode, "bbolt")
			ch := h.channel.ID
			g := h.challengeAndAccept()
			first, second := h.players(g)
			h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			board := h.boardAt(ch, 1)
			g, err := st.Game(t.Context(), ch)
			require.NoError(t, err)
			require.Contains(t, board.Content, fmt.Sprintf("your move — due <t:%d:R>", g.Deadline().Unix()))

			h.tick(time.Hour)
			vacation(h, second, "start")
			v, err := st.Vacation(t.Context(), second.ID)
			require.NoError(t, err)
			h.tick(0)
			now := edited(t, h, board, 0)
			assert.Contains(t, now.Content, fmt.Sprintf("%s is on vacation until <t:%d:f> at the latest: their clock is stopped with 2 days 23 hours on it.",
				second.Username, v.Ends().Unix()))
			assert.NotContains(t, now.Content, "due <t:", "no deadline that passes with nothing happening")
			assert.False(t, bytes.Equal(board.Files[0].Data, now.Files[0].Data), "the image says the clock is stopped")
			assertEditPingedNobody(t, h, board)

			// A board posted during the vacation, then the vacation's end.
			playAny(t, h) // second, away, may move
			playAny(t, h)
			during := h.boardAt(ch, 3)
			require.Contains(t, during.Content, "is on vacation until")
			h.tick(2 * 24 * time.Hour)
			vacation(h, second, "end")
			h.tick(0)
			now = edited(t, h, during, 0)
			g, err = st.Game(t.Context(), ch)
			require.NoError(t, err)
			assert.Contains(t, now.Content, fmt.Sprintf("your move — due <t:%d:R>", g.Deadline().Unix()), "the clock runs again")
			assert.NotContains(t, now.Content, "on vacation")
			assertEditPingedNobody(t, h, during)

			// A weekend pause: from Friday noon UTC, paused from
			// Saturday 00:00 to Monday 00:00.
			h.tick(time.Date(2026, 12, 4, 12, 0, 0, 0, time.UTC).Sub(h.clock.Now()))
			h.channel = h.dc.AddChannel("weekend")
			board, g = h.open(discordtest.StringOption("weekends", "pause"), discordtest.StringOption("first", "me"))
			require.NotContains(t, board.Content, "paused for the weekend")
			saturday, monday := time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC), time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC)
			h.tick(saturday.Add(-time.Second).Sub(h.clock.Now()))
			now, _ = h.dc.Message(board.ID)
			assert.Zero(t, now.Edits, "not before the weekend")
			h.tick(time.Second)
			now = edited(t, h, board, 0)
			assert.Contains(t, now.Content, fmt.Sprintf("alice's clock is paused for the weekend until <t:%d:f>.", monday.Unix()))
			assert.Contains(t, now.Content, fmt.Sprintf("due <t:%d:R>", g.Deadline().Unix()), "the deadline stands")
			h.tick(monday.Sub(h.clock.Now()))
			now = edited(t, h, board, 1)
			assert.NotContains(t, now.Content, "paused for the weekend until")
			assertEditPingedNobody(t, h, board)
			h.tick(24 * time.Hour)
			now, _ = h.dc.Message(board.ID)
			assert.Equal(t, 2, now.Edits, "nothing more to edit before the deadline")
			assert.Empty(t, h.dc.Violations())
		})
	}
}

// TestBoardEditsInBatches: a player with many games who starts a vacation
// has their boards edited editsPerSecond (10) a second, all within a
// minute, not all at once. In both transports.
func TestBoardEditsInBatches(t *testing.T) {
	t.Parallel()
	const games = 25
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			h, _ := newDaysHarness(t, mode, "bbolt")
			var boards []*discordtest.Message
			for i := range games {
				h.channel = h.dc.AddChannel(fmt.Sprintf("game-%d", i))
				board, _ := h.open(discordtest.StringOption("first", "them"))
				boards = append(boards, board)
			}
			editedBoards := func() int {
				n := 0
				for _, b := range boards {
					if m, _ := h.dc.Message(b.ID); m.Edits > 0 {
						n++
					}
				}
				return n
			}
			vacation(h, h.bob, "start")
			for _, want := range []int{10, 20, 25} {
				h.tick(0)
				assert.Equal(t, want, editedBoards(), "a batch of 10 a second")
				h.tick(time.Second)
			}
			for _, b := range boards {
				m, _ := h.dc.Message(b.ID)
				assert.Equal(t, 1, m.Edits, "each board once")
				assert.Contains(t, m.Content, "bob is on vacation until")
			}
		})
	}
}

// TestBoardEditWhereTheBotCannotPost: the board of a game in a DM is
// edited through the token of the interaction whose answer it is, while
// Discord allows (15 minutes); after that it stays as it was (its Refresh
// shows the game as it is), and the bot tries no request Discord would
// refuse. In both transports.
func TestBoardEditWhereTheBotCannotPost(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			h := newManualHarness(t, mode)
			dm := h.dc.AddPrivateChannel(h.alice, h.bob)
			board, g := h.challengeElsewhere(dm, h.bob)
			if g.Player(g.ToMove()).UserID == h.alice.ID {
				board, g = h.playElsewhere(g, board, h.users())
			}
			require.Equal(t, h.bob.ID, g.Player(g.ToMove()).UserID)
			vacation(h, h.bob, "start")
			h.tick(0)
			now := edited(t, h, board, 0)
			assert.Contains(t, now.Content, "bob is on vacation until")
			assert.True(t, slices.ContainsFunc(now.Files, func(f discordtest.File) bool { return f.Name == "board.png" }))

			h.tick(15 * time.Minute) // the board's token no longer edits it
			vacation(h, h.bob, "end")
			h.tick(0)
			again, _ := h.dc.Message(board.ID)
			assert.Equal(t, now.Edits, again.Edits, "left as it was")
			stored, err := h.store.Game(t.Context(), dm.ID)
			require.NoError(t, err)
			assert.True(t, stored.BoardEdit.IsZero(), "nothing more is due")
			refresh := h.click(board.ID, h.bob, buttons(board.Components)["Refresh"])
			assert.Equal(t, discordgo.InteractionResponseChannelMessageWithSource, h.dc.WaitResponse(t, refresh.ID).Type)
			assert.Contains(t, h.reply(refresh), fmt.Sprintf("due <t:%d:R>", stored.Deadline().Unix()), "Refresh shows the clock as it is")
			assert.Empty(t, h.dc.Violations(), "no request Discord would refuse")
		})
	}
}
