package bot_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/storage"
)

// TestFailedMoveLeavesBoardRetirable: a click on a board whose move does
// not commit (the store fails the commit after the change ran) leaves
// that board for the next move to retire: the player's typed move that
// follows posts a new board and takes the old one's menus off.
func TestFailedMoveLeavesBoardRetirable(t *testing.T) {
	t.Parallel()
	var fail atomic.Bool
	h := newHarnessWith(t, "gateway", func(h *harness) {
		h.wrap = func(s *storage.Store) bot.Store { return &failingStore{Store: s, fail: &fail} }
	})
	ch := h.channel.ID
	board, g := h.open()
	player := h.alice
	if g.Player(g.ToMove()).UserID == h.bob.ID {
		player = h.bob
	}
	p := g.Position()
	cell := p.Legal().Cells(p.Layout())[0].String()
	menu := menuOf(board, cell)
	require.NotEmpty(t, menu, "%s is in a menu of the board", cell)

	fail.Store(true)
	h.refused(h.pick(board.ID, player, menu, cell), "went wrong")
	fail.Store(false)
	kept, ok := h.dc.Message(board.ID)
	require.True(t, ok)
	require.NotEmpty(t, menus(kept), "the board clicked keeps its menus: its move did not commit")

	h.command(ch, player, "move", discordtest.StringOption("cell", cell))
	h.boardAt(ch, 1)
	// The new board is noted first, then the old one retired.
	h.dc.WaitUntil(t, "the move past the board retires it", func() bool {
		old, ok := h.dc.Message(board.ID)
		return ok && len(old.Components) == 0
	})
}

// errCommit is the failure of failingStore's commits.
var errCommit = errors.New("the disk is full")

// failingStore is the real store whose UpdateGame, while fail is set, runs
// the change and then fails the commit (the change is rolled back).
type failingStore struct {
	*storage.Store
	fail *atomic.Bool
}

func (s *failingStore) UpdateGame(ctx context.Context, channelID string, fn func(*storage.Game) error) (*storage.Game, error) {
	if !s.fail.Load() {
		return s.Store.UpdateGame(ctx, channelID, fn)
	}
	return s.Store.UpdateGame(ctx, channelID, func(g *storage.Game) error {
		if err := fn(g); err != nil {
			return err
		}
		return errCommit
	})
}
