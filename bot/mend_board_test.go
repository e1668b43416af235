package bot_test

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/storage"
)

// TestStoredMoveShownLater: when Discord fails the board of a move that
// committed (answers 500 for a while), the player is told that the move
// is stored, never that nothing changed or to try again; the scheduler
// posts the board later, pinging the opponent, and posts it once, after a
// restart too.
func TestStoredMoveShownLater(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		for _, how := range []string{"typed", "clicked", "typed, then a restart"} {
			t.Run(mode+"/"+how, func(t *testing.T) {
				t.Parallel()
				h := newManualHarness(t, mode)
				h.bot.StopMending() // the scheduler's repair; TestBoardMended tries the process's own
				ch := h.channel.ID
				board, g := h.open()
				first, second := h.players(g)

				h.dc.Fail("POST", "/channels/{channel_id}/messages", discordtest.ErrServerError, 0)
				var i *discordgo.Interaction
				if how == "clicked" {
					i = h.pick(board.ID, first, menuOf(board, "D4"), "D4")
				} else {
					i = h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
				}
				h.clock.AdvanceWaited(t, time.Second) // the back-off between the tries
				h.clock.AdvanceWaited(t, 3*time.Second)
				stored := i18n.English.T("error.stored")
				h.dc.WaitUntil(t, "the answer that the move is stored", func() bool {
					return slices.Contains(contents(h.dc.Followups(i.ID)), stored)
				})
				r := h.dc.WaitResponse(t, i.ID)
				for _, text := range append([]string{r.Content}, contents(h.dc.Followups(i.ID))...) {
					assert.NotContains(t, text, "nothing was changed")
					assert.NotContains(t, strings.ToLower(text), "try again")
				}
				g, err := h.store.Game(t.Context(), ch)
				require.NoError(t, err)
				require.Equal(t, 1, g.Ply(), "the move is stored")
				assert.Empty(t, g.BoardMessageID, "its board is not shown yet")

				h.dc.ClearFailures()
				if strings.HasSuffix(how, "restart") {
					h.restart() // the debt is stored: a new process repairs it
				}
				h.tick(time.Minute) // the scheduler's repair
				later := h.boardAt(ch, 1)
				assert.Contains(t, later.Notified, second.ID, "the board that comes later pings the opponent")
				g, err = h.store.Game(t.Context(), ch)
				require.NoError(t, err)
				assert.Equal(t, later.ID, g.BoardMessageID, "the board is noted")
				assert.True(t, g.BoardDue.IsZero(), "nothing is owed any more")

				h.tick(time.Hour)
				assert.Equal(t, 1, boardsAt(h, ch, 1), "the board is posted once")
			})
		}
	}
}

// TestStoredMoveBoardTimedOut: a board post that hangs past the bot's
// timeout is answered as stored and is not posted twice: Discord posted
// it after all, and the scheduler's repair finds and notes it. Discord
// holds the post until the bot's client has given up on it (the test's
// cue, bot.CuedTimeouts), however slow the machine.
func TestStoredMoveBoardTimedOut(t *testing.T) {
	t.Parallel()
	const post = "/channels/{channel_id}/messages"
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			timeouts := bot.NewCuedTimeouts(bot.RequestTo("POST", post))
			h := newHarnessWith(t, mode, func(h *harness) { h.manual, h.timeouts = true, timeouts })
			ch := h.channel.ID
			g := h.challengeAndAccept()
			first, _ := h.players(g)

			held := h.dc.Hold("POST", post, 1)
			i := h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			held.Wait(t)
			require.Equal(t, 1, timeouts.Expire(), "the board's post outlasts the bot's client")
			stored := i18n.English.T("error.stored")
			h.dc.WaitUntil(t, "the answer that the move is stored", func() bool {
				return slices.Contains(contents(h.dc.Followups(i.ID)), stored)
			})
			held.Release()
			late := h.waitBoard(ch, "the board Discord posts once it answers", func(m *discordtest.Message) bool { return boardPly(m) == 1 })

			h.clock.AdvanceWaited(t, time.Minute) // the repair: the mender's tries, on the clock
			require.Eventually(t, func() bool {
				g, err := h.store.Game(t.Context(), ch)
				return err == nil && g.BoardMessageID == late.ID && g.BoardDue.IsZero()
			}, hung, time.Millisecond, "the board posted late noted, and nothing owed")
			h.tick(time.Minute)
			assert.Equal(t, 1, boardsAt(h, ch, 1), "the board is posted once")
		})
	}
}

// finalBoards returns the final boards of channel: board images with a
// Rematch button.
func finalBoards(h *harness, channel string) []*discordtest.Message {
	var out []*discordtest.Message
	for _, m := range h.dc.Messages(channel) {
		if _, ok := buttons(m.Components)["Rematch"]; ok && hasBoard(m) {
			out = append(out, m)
		}
	}
	return out
}

// playToLastMove plays the game of channel with the first legal hole of
// each position, typed, until that hole would end the game, and returns
// it and who is to play it.
func (h *harness) playToLastMove(channel string) (string, *discordgo.User) {
	h.t.Helper()
	for {
		g, err := h.store.Game(h.t.Context(), channel)
		require.NoError(h.t, err)
		p := g.Position()
		cell := p.Legal().Cells(p.Layout())[0]
		user, _ := h.players(g)
		next := p
		require.NoError(h.t, next.Play(cell))
		if next.IsOver() {
			return cell.String(), user
		}
		h.command(channel, user, "move", discordtest.StringOption("cell", cell.String()))
		h.boardAt(channel, g.Ply()+1)
	}
}

// TestFinalBoardShownLater: a game that ends (its last move, called off,
// resigned, or timed out by the scheduler) while Discord fails its final board is
// answered as stored, with the board to follow; the scheduler posts the
// final board later, once, telling both players the result (pinged), and
// notes it with the finished game.
func TestFinalBoardShownLater(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		for _, ending := range []string{"last move", "abort", "resign", "timeout"} {
			t.Run(mode+"/"+ending, func(t *testing.T) {
				t.Parallel()
				h := newManualHarness(t, mode)
				ch := h.channel.ID
				g := h.challengeAndAccept(discordtest.StringOption("move_time", "1h"))
				first, second := h.players(g)
				if ending == "resign" {
					h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
					h.boardAt(ch, 1)
				}
				var last string
				var mover *discordgo.User
				if ending == "last move" {
					last, mover = h.playToLastMove(ch)
				}

				h.dc.Fail("POST", "/channels/{channel_id}/messages", discordtest.ErrServerError, 0)
				var i *discordgo.Interaction
				done := make(chan bool, 1)
				switch ending {
				case "last move":
					i = h.command(ch, mover, "move", discordtest.StringOption("cell", last))
				case "abort":
					i = h.command(ch, first, "abort")
				case "resign":
					q := h.command(ch, second, "resign")
					r := h.dc.WaitResponse(t, q.ID)
					i = h.click(h.dc.WaitOriginal(t, q.ID, func(*discordtest.Message) bool { return true }).ID, second, buttons(r.Components)["Yes, resign"])
				case "timeout":
					h.clock.Advance(time.Hour)
					go func() { done <- h.bot.RunDue(t.Context()) }()
				}
				h.clock.AdvanceWaited(t, time.Second) // the back-off between the tries
				h.clock.AdvanceWaited(t, 3*time.Second)
				if i != nil {
					stored := i18n.English.T("error.stored")
					h.dc.WaitUntil(t, "the answer that the ending is stored, its board to follow", func() bool {
						return slices.Contains(contents(h.dc.Followups(i.ID)), stored)
					})
				} else {
					assert.True(t, <-done, "the timeout's final board failed")
				}
				_, err := h.store.Game(t.Context(), ch)
				require.ErrorIs(t, err, storage.ErrNotFound, "the game is over")
				require.Empty(t, finalBoards(h, ch))

				h.dc.ClearFailures()
				h.tick(time.Minute) // the scheduler's repair
				h.waitBoard(ch, "the final board", func(m *discordtest.Message) bool { return len(finalBoards(h, ch)) == 1 })
				final := finalBoards(h, ch)[0]
				var named []string
				for _, m := range regexp.MustCompile(`<@(\d+)>`).FindAllStringSubmatch(final.Content, -1) {
					if !slices.Contains(named, m[1]) {
						named = append(named, m[1])
					}
				}
				assert.ElementsMatch(t, named, final.Notified, "the players the result names are pinged: %q", final.Content)
				if ending == "resign" || ending == "last move" {
					assert.ElementsMatch(t, []string{first.ID, second.ID}, final.Notified, "both players are told the result")
				}
				f, err := h.store.FinishedGame(t.Context(), h.dc.GuildID(), g.ID)
				require.NoError(t, err)
				assert.Equal(t, final.ID, f.BoardMessageID, "the final board is noted")
				assert.True(t, f.BoardDue.IsZero(), "nothing is owed any more")

				h.tick(time.Hour)
				assert.Len(t, finalBoards(h, ch), 1, "the final board is posted once")
			})
		}
	}
}

// TestAnswerTimeoutNotARefusal: a click whose answer Discord does not take
// in time (the callback hangs past the bot's timeout) is logged with the
// route, its move still shows its board, and the player is never told to
// try again. In gateway mode, where the answer is a REST call of its own.
// Discord holds the callback until the bot's client has given up on it
// (the test's cue, bot.CuedTimeouts: no other request of the bot can time
// out), and the interaction's time moves only when the test says
// (bot.ManualTimer): the bot never defers for the move, however slow the
// machine.
func TestAnswerTimeoutNotARefusal(t *testing.T) {
	t.Parallel()
	const callback = "/interactions/{interaction_id}/{interaction_token}/callback"
	timeouts := bot.NewCuedTimeouts(bot.RequestTo("POST", callback))
	h := newHarnessWith(t, "gateway", func(h *harness) {
		h.manual, h.timeouts, h.timer = true, timeouts, bot.NewManualTimer()
	})
	ch := h.channel.ID
	board, g := h.open()
	first, second := h.players(g)

	held := h.dc.Hold("POST", callback, 1)
	i := h.dc.Select(board.ID, first, menuOf(board, "D4"), "D4")
	h.send(i)
	held.Wait(t)
	require.Equal(t, 1, timeouts.Expire(), "the callback outlasts the bot's client")
	later := h.boardAt(ch, 1)
	assert.Contains(t, later.Notified, second.ID, "the board pings the opponent")
	var line string
	require.Eventually(t, func() bool { // the log is no change of the fake's to wait for
		for _, l := range strings.Split(h.logs.String(), "\n") {
			if strings.Contains(l, "Discord failed a request") && strings.Contains(l, "/callback") {
				line = l
				return true
			}
		}
		return false
	}, hung, time.Millisecond, "the timeout logged")
	held.Release()
	h.dc.WaitResponse(t, i.ID)
	assert.Contains(t, line, `route="POST /interactions/{interaction_id}/{interaction_token}/callback"`)
	assert.Contains(t, line, "status=timeout")
	assert.Contains(t, line, "channel="+ch)
	assert.Empty(t, h.dc.Followups(i.ID), "no refusal follows: the board says what happened")
	assert.NotContains(t, h.logs.String(), "interaction failed")
}

// contents returns the texts of ms.
func contents(ms []*discordtest.Message) []string {
	out := make([]string, len(ms))
	for k, m := range ms {
		out[k] = m.Content
	}
	return out
}

// boardsAt counts the board messages of the channel at ply.
func boardsAt(h *harness, channel string, ply int) int {
	n := 0
	for _, m := range h.dc.Messages(channel) {
		if len(m.Files) > 0 && m.Files[0].Name == "board.png" && boardPly(m) == ply {
			n++
		}
	}
	return n
}

// dyingStore is a store whose process dies, once armed, right after its
// next commit: every write after it fails, as if never made.
type dyingStore struct {
	bot.Store
	armed, dead atomic.Bool
}

var errDied = errors.New("the process died")

func (d *dyingStore) UpdateGame(ctx context.Context, channelID string, fn func(*storage.Game) error) (*storage.Game, error) {
	if d.dead.Load() {
		return nil, errDied
	}
	g, err := d.Store.UpdateGame(ctx, channelID, fn)
	if err == nil && d.armed.Load() {
		d.dead.Store(true)
	}
	return g, err
}

func (d *dyingStore) NoteBoard(ctx context.Context, channelID string, gameID uint64, ply int, messageID string) error {
	if d.dead.Load() {
		return errDied
	}
	return d.Store.NoteBoard(ctx, channelID, gameID, ply, messageID)
}

// TestBoardOwedByTheMoveItself: the move's own commit owes its board, so
// a process that dies right after it (Discord failing the board, nothing
// written after the move) leaves the board owed: the next process on the
// same store posts it at the scheduler's repair, pinging the opponent,
// once.
func TestBoardOwedByTheMoveItself(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			dying := &dyingStore{}
			h := newHarnessWith(t, mode, func(h *harness) {
				h.manual = true
				h.wrap = func(s *storage.Store) bot.Store { dying.Store = s; return dying }
			})
			ch := h.channel.ID
			g := h.challengeAndAccept()
			first, second := h.players(g)

			h.dc.Fail("POST", "/channels/{channel_id}/messages", discordtest.ErrServerError, 0)
			dying.armed.Store(true)
			i := h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
			h.clock.AdvanceWaited(t, time.Second)
			h.clock.AdvanceWaited(t, 3*time.Second)
			h.dc.WaitUntil(t, "the move answered", func() bool { return len(h.dc.Followups(i.ID)) > 0 })
			require.True(t, dying.dead.Load(), "the move committed, then the process died")

			h.dc.ClearFailures()
			h.wrap = nil
			h.restart() // a new process on the same file
			g, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			require.Equal(t, 1, g.Ply(), "the move is stored")
			assert.False(t, g.BoardDue.IsZero(), "its board is owed, by the move's own commit")

			h.tick(time.Minute) // the scheduler's repair
			later := h.boardAt(ch, 1)
			assert.Contains(t, later.Notified, second.ID, "the board pings the opponent")
			h.tick(time.Hour)
			assert.Equal(t, 1, boardsAt(h, ch, 1), "the board is posted once")
		})
	}
}

// TestMoveCommittedDespiteTheStore: a move whose COMMIT the database
// applied while the connection ended (PostgreSQL ended the bot's
// connections, as a restart does; the store answers an error) is a move
// stored: its board is posted, pinging the opponent, and the player is
// never told that nothing changed. The load test's pgrestart found moves
// answered so and never shown, their games stalled.
func TestMoveCommittedDespiteTheStore(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		for _, how := range []string{"typed", "clicked"} {
			t.Run(mode+"/"+how, func(t *testing.T) {
				t.Parallel()
				var lose atomic.Bool
				h := newHarnessWith(t, mode, func(h *harness) {
					h.wrap = func(s *storage.Store) bot.Store { return &lostCommitStore{Store: s, lose: &lose} }
				})
				ch := h.channel.ID
				board, g := h.open()
				first, second := h.players(g)

				lose.Store(true)
				var i *discordgo.Interaction
				if how == "clicked" {
					i = h.pick(board.ID, first, menuOf(board, "D4"), "D4")
				} else {
					i = h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
				}
				later := h.boardAt(ch, 1)
				assert.Contains(t, later.Notified, second.ID, "the board pings the opponent")
				r := h.dc.WaitResponse(t, i.ID)
				for _, text := range append([]string{r.Content}, contents(h.dc.Followups(i.ID))...) {
					assert.NotContains(t, text, "nothing was changed")
					assert.NotContains(t, strings.ToLower(text), "try again")
				}
				assert.False(t, lose.Load(), "the store failed the commit")
				stored, err := h.store.Game(t.Context(), ch)
				require.NoError(t, err)
				assert.Equal(t, 1, stored.Ply(), "the move is stored once")
			})
		}
	}
}

// lostCommitStore is the real store whose next UpdateGame, once lose is
// set, fails while its transaction is still under way, then commits a
// moment later: as when the connection ends, or the client gives up,
// while the COMMIT is under way.
type lostCommitStore struct {
	*storage.Store
	lose *atomic.Bool
}

func (s *lostCommitStore) UpdateGame(ctx context.Context, channelID string, fn func(*storage.Game) error) (*storage.Game, error) {
	if !s.lose.CompareAndSwap(true, false) {
		return s.Store.UpdateGame(ctx, channelID, fn)
	}
	running := make(chan struct{})
	go func() {
		_, _ = s.Store.UpdateGame(context.WithoutCancel(ctx), channelID, func(g *storage.Game) error {
			err := fn(g)
			close(running)
			time.Sleep(50 * time.Millisecond) // the COMMIT under way
			return err
		})
	}()
	<-running
	return nil, errors.New("update game: FATAL: terminating connection due to administrator command (SQLSTATE 57P01)")
}

// TestBoardAgainDiesBetween: /kulami board notes the board it posts
// before it retires the old one, so that a process that dies between the
// two (here Discord hears nothing more from it) leaves the game a noted
// board with its menus: after a restart, the game's board plays.
func TestBoardAgainDiesBetween(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			var dying, died atomic.Bool
			h := newHarnessWith(t, mode, func(h *harness) {
				h.hooks = func(b *bot.Bot) {
					b.BeforeRetire(func() {
						if dying.CompareAndSwap(true, false) {
							h.dc.Fail("PATCH", "/channels/{channel_id}/messages/{message_id}", discordtest.ErrServerError, 0)
							died.Store(true)
						}
					})
				}
			})
			ch := h.channel.ID
			old, g := h.open()
			first, _ := h.players(g)

			dying.Store(true)
			h.reply(h.command(ch, first, "board"))
			h.dc.WaitUntil(t, "the board posted again", func() bool { return boardsAt(h, ch, 0) == 2 })
			require.Eventually(t, died.Load, hung, time.Millisecond, "the process died between the note and the retirement")
			h.dc.ClearFailures()
			h.restart()

			g, err := h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			require.NotEqual(t, old.ID, g.BoardMessageID, "the new board is noted")
			board, ok := h.dc.Message(g.BoardMessageID)
			require.True(t, ok)
			require.NotEmpty(t, menus(board), "the game's board has its menus")
			h.pick(board.ID, first, menuOf(board, "D4"), "D4")
			h.boardAt(ch, 1)
			g, err = h.store.Game(t.Context(), ch)
			require.NoError(t, err)
			assert.Equal(t, 1, g.Ply(), "the board noted before the restart plays")
		})
	}
}
