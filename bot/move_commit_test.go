package bot_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
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

// lateCommit is a store whose next write to the game of channel, once
// armed, fails as if the interaction's deadline ended while its COMMIT was
// under way, and whose COMMIT reaches the database only after the first
// write that waits for the game's row gave up on the row's lock
// (storage.ErrBusy): as when a side transaction held the row, and the
// failed write waited behind it past the lock timeout of the write that
// looks for it.
type lateCommit struct {
	bot.Store
	channel string
	mu      sync.Mutex
	armed   bool
	calls   int           // writes to the channel's game since armed
	release chan struct{} // closed when the first wait gives up
	landed  chan struct{} // closed once the late COMMIT is done
	lateErr error         // the late COMMIT's, read once landed is closed
}

func (s *lateCommit) UpdateGame(ctx context.Context, channel string, fn func(*storage.Game) error) (*storage.Game, error) {
	s.mu.Lock()
	armed := s.armed && channel == s.channel
	if armed {
		s.calls++
	}
	call := s.calls
	s.mu.Unlock()
	switch {
	case !armed:
		return s.Store.UpdateGame(ctx, channel, fn)
	case call == 1: // the move: its change runs, its COMMIT comes late
		g, err := s.Store.Game(ctx, channel)
		if err != nil {
			return nil, err
		}
		if err := fn(g); err != nil {
			return nil, err
		}
		go func() {
			defer close(s.landed)
			<-s.release
			_, s.lateErr = s.Store.UpdateGame(context.Background(), channel, fn)
		}()
		return nil, context.DeadlineExceeded
	case call == 2: // the first wait for the row: its lock timeout
		close(s.release)
		return nil, storage.ErrBusy
	default: // the row is free once the failed write has ended
		<-s.landed
		return s.Store.UpdateGame(ctx, channel, fn)
	}
}

// TestMoveCommittedAfterLookingBusy, in both modes: a move whose write
// the store failed (the interaction's storage deadline ended while it
// waited), whose COMMIT lands after the bot's first look for it gave up on
// the row's lock, is answered as a move played and its board shown; never
// "This game is being updated".
func TestMoveCommittedAfterLookingBusy(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		t.Run(mode, func(t *testing.T) {
			var store *lateCommit
			h := newHarnessWith(t, mode, func(h *harness) {
				h.wrap = func(s *storage.Store) bot.Store {
					store = &lateCommit{Store: s, release: make(chan struct{}), landed: make(chan struct{})}
					return store
				}
			})
			channel, board := h.startGame(store, "late")
			g, err := store.Game(t.Context(), channel)
			require.NoError(t, err)
			toMove, _ := h.players(g)
			store.mu.Lock()
			store.channel, store.armed = channel, true
			store.mu.Unlock()
			i := h.pick(board.ID, toMove, menuOf(board, "D4"), "D4")
			r := h.dc.WaitResponse(t, i.ID)
			<-store.landed
			require.NoError(t, store.lateErr)
			g, err = store.Game(t.Context(), channel)
			require.NoError(t, err)
			require.Equal(t, 1, g.Ply(), "the move is stored")
			assert.NotContains(t, r.Content, i18n.English.T("error.busy"))
			assert.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, "the click answered as a move played: its board retired")
			h.waitBoard(channel, "the new board", func(m *discordtest.Message) bool { return boardPly(m) == 1 })
		})
	}
}

// failingNotes is a store whose next fails notes of a board fail, as when
// the game's row stays locked past the lock timeout or the connection
// ends while noting it.
type failingNotes struct {
	bot.Store
	fails atomic.Int32
}

func (s *failingNotes) NoteBoard(ctx context.Context, channelID string, gameID uint64, ply int, messageID string) error {
	if s.fails.Add(-1) >= 0 {
		return fmt.Errorf("note the board: %w", storage.ErrBusy)
	}
	return s.Store.NoteBoard(ctx, channelID, gameID, ply, messageID)
}

// TestBoardShownButNotNoted, in both modes: a move whose board Discord
// posts but whose note the store fails is answered as a move played (the
// board is in the channel), never "Discord failed to show it". A note
// that fails once is tried again at once; one that fails again is left to
// the scheduler's repair, which finds the board posted and notes it,
// posting no second one.
func TestBoardShownButNotNoted(t *testing.T) {
	t.Parallel()
	for _, mode := range modes {
		for _, tt := range []struct {
			name  string
			fails int32
		}{{"tried again", 1}, {"repaired", 2}} {
			t.Run(mode+"/"+tt.name, func(t *testing.T) {
				t.Parallel()
				notes := &failingNotes{}
				h := newHarnessWith(t, mode, func(h *harness) {
					h.manual = true
					h.wrap = func(s *storage.Store) bot.Store { notes.Store = s; return notes }
				})
				ch := h.channel.ID
				g := h.challengeAndAccept()
				first, _ := h.players(g)

				notes.fails.Store(tt.fails)
				i := h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
				r := h.dc.WaitResponse(t, i.ID)
				posted := h.waitBoard(ch, "the new board", func(m *discordtest.Message) bool { return boardPly(m) == 1 })
				require.Eventually(t, func() bool { return strings.Contains(h.logs.String(), "name=move") },
					hung, time.Millisecond, "the move handled, its board noted or not")
				answers := append([]string{r.Content}, contents(h.dc.Followups(i.ID))...)
				assert.Contains(t, answers, i18n.English.T("move.played", "Hole", "D4"))
				assert.NotContains(t, answers, i18n.English.T("error.stored"))
				assert.NotContains(t, answers, i18n.English.T("error.stored_unseen"))

				g, err := h.store.Game(t.Context(), ch)
				require.NoError(t, err)
				if tt.fails > 1 {
					assert.Empty(t, g.BoardMessageID, "not noted yet")
					h.tick(time.Minute) // the scheduler's repair
					g, err = h.store.Game(t.Context(), ch)
					require.NoError(t, err)
				}
				assert.Equal(t, posted.ID, g.BoardMessageID, "the board posted is noted")
				assert.True(t, g.BoardDue.IsZero(), "nothing is owed any more")
				h.tick(time.Hour)
				assert.Equal(t, 1, boardsAt(h, ch, 1), "the board is posted once")
			})
		}
	}
}
