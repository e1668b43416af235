package bot_test

import (
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/storage"
)

// openChallenge has alice post a challenge to anyone in the harness's
// channel and returns its message once the bot has noted it.
func (h *harness) openChallenge(opts ...*discordgo.ApplicationCommandInteractionDataOption) (*discordtest.Message, string) {
	h.t.Helper()
	i := h.command(h.channel.ID, h.alice, "challenge", opts...)
	m := messageAfter(h.t, h.dc, i, h.channel.ID, "the open challenge", hasButton("Accept"))
	require.Eventually(h.t, func() bool {
		c, err := h.store.Challenge(h.t.Context(), h.channel.ID)
		return err == nil && c.MessageID == m.ID
	}, hung, time.Millisecond, "the challenge knows its message")
	return m, h.reply(i)
}

// TestOpenChallenge checks a challenge without an opponent: it pings
// nobody and offers no Decline; the challenger can neither accept nor
// decline it but may withdraw it; of two players who press Accept at
// once, exactly one plays, and the other is told the challenge is gone;
// unanswered, it expires.
func TestOpenChallenge(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID

			t.Run("withdrawn", func(t *testing.T) {
				m, sent := h.openChallenge()
				assert.Contains(t, sent, "Open challenge posted")
				assert.Contains(t, m.Content, "challenges **anyone here**")
				assert.Empty(t, notified(m), "an open challenge pings nobody")
				b := buttons(m.Components)
				assert.NotContains(t, b, "Decline", "nobody declines an open challenge")
				h.refused(h.click(m.ID, h.alice, b["Accept"]), "can't accept your own challenge", "withdraw it")
				h.refused(h.command(ch, h.bob, "decline"), "Nobody declines an open challenge", "alice may withdraw it")
				h.refused(h.click(m.ID, h.bob, b["Withdraw"]), "Only alice")
				_, err := h.store.Challenge(t.Context(), ch)
				require.NoError(t, err, "the refusals changed nothing")
				h.click(m.ID, h.alice, b["Withdraw"])
				gone, _ := h.dc.Message(m.ID)
				assert.Contains(t, gone.Content, "alice withdrew the open challenge")
				_, err = h.store.Challenge(t.Context(), ch)
				assert.ErrorIs(t, err, storage.ErrNotFound)
			})

			t.Run("expired", func(t *testing.T) {
				m, _ := h.openChallenge()
				h.tick(h.expiry)
				require.Eventually(t, func() bool {
					msg, _ := h.dc.Message(m.ID)
					return msg.Content != m.Content
				}, hung, time.Millisecond)
				msg, _ := h.dc.Message(m.ID)
				assert.Contains(t, msg.Content, "alice's open challenge expired: nobody accepted it in time")
			})

			t.Run("first click wins", func(t *testing.T) {
				m, _ := h.openChallenge(discordtest.StringOption("first", "them"))
				assert.Contains(t, m.Content, "First move: whoever accepts")
				accept := buttons(m.Components)["Accept"]
				clicks := []*discordgo.Interaction{h.dc.Button(m.ID, h.bob, accept), h.dc.Button(m.ID, h.carol, accept)}
				var wg sync.WaitGroup
				for _, i := range clicks {
					wg.Go(func() { h.send(i) })
				}
				wg.Wait()
				h.boardAt(ch, 0)
				g, err := h.store.Game(t.Context(), ch)
				require.NoError(t, err)
				first, second := g.Player(g.ToMove()).UserID, g.Player(g.ToMove().Other()).UserID
				assert.Equal(t, h.alice.ID, second, "whoever accepted moves first, as the challenge said")
				require.Contains(t, []string{h.bob.ID, h.carol.ID}, first, "one of the two plays")
				for k, u := range []*discordgo.User{h.bob, h.carol} {
					if u.ID != first {
						assert.Contains(t, h.reply(clicks[k]), "no longer open", "the other is told the challenge is gone")
					}
				}
			})
		})
	}
}

// TestMovesUnderBoard plays a dozen moves and checks that each board
// lists the moves so far, the last ten after an ellipsis with their
// count, and that the final board lists them all.
func TestMovesUnderBoard(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			c := newClub(t, mode)
			h, ch := c.harness, c.channel.ID
			g := h.challengeAndAccept()
			first, second := h.players(g)
			var played []string
			board := h.boardAt(ch, 0)
			assert.NotRegexp(t, `\d+ moves?:`, board.Content, "no moves yet")
			for ply := range 12 {
				var id, cell string
				for k, values := range menus(board) {
					id, cell = k, values[0]
					break
				}
				h.pick(board.ID, []*discordgo.User{first, second}[ply%2], id, cell)
				played = append(played, fmt.Sprintf("%d.%s", ply+1, cell))
				board = h.boardAt(ch, ply+1)
				from := max(0, len(played)-10)
				want := strings.Join(played[from:], " ")
				if from > 0 {
					want = "… " + want
				}
				if ply == 0 {
					assert.Contains(t, board.Content, "\n1 move: "+want)
				} else {
					assert.Contains(t, board.Content, fmt.Sprintf("\n%d moves: %s", ply+1, want))
				}
			}
			final := c.resign(ch, first)
			assert.Contains(t, final.Content, "\n12 moves: "+strings.Join(played, " "), "the final board lists every move")
		})
	}
}

// TestLiveGame plays a game with a five-minute clock on a server of
// claims: the challenge says it is live, no reminder comes, and the
// clock running out ends the game at once, on time.
func TestLiveGame(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			h := newHarness(t, mode)
			ch := h.channel.ID
			h.reply(h.commandWith(asAdmin, ch, h.alice, "settings", discordtest.StringOption("timeouts", "claim")))
			msg := h.challengeMessage(discordtest.StringOption("move_time", "5m"))
			assert.Contains(t, msg.Content, "A live game")
			h.click(msg.ID, h.bob, buttons(msg.Components)["Accept"])
			h.boardAt(ch, 0) // the first board, before a move can overtake it
			g, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			first, second := h.players(g)
			h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			h.boardAt(ch, 1)
			h.command(ch, second, "move", discordtest.StringOption("cell", "A4"))
			board := h.boardAt(ch, 2)
			before := len(h.dc.Messages(ch))
			h.tick(4*time.Minute + 59*time.Second)
			assert.Len(t, h.dc.Messages(ch), before, "no reminder in a live game")
			h.tick(time.Second)
			var final *discordtest.Message
			h.dc.WaitUntil(t, "the final board", func() bool {
				final = h.board(ch)
				return final != nil && final.ID != board.ID && hasButton("Rematch")(final)
			})
			assert.Contains(t, final.Content, "<@"+first.ID+"> ran out of time", "lost on time at once, no claim")
		})
	}
}
