package bot

import (
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSlotTurnYieldsToWaitingMove: a review that yields the computer's
// slot between positions lets a move that waits for it run first, and
// gets the slot back once the move is done.
func TestSlotTurnYieldsToWaitingMove(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		slot, done := make(chan struct{}, 1), make(chan struct{})
		review := &slotTurn{slot: slot, done: done}
		require.True(t, review.take())
		var order []string
		go func() { // a computer's move, as aiMove takes the slot
			slot <- struct{}{}
			order = append(order, "move")
			<-slot
		}()
		synctest.Wait() // the move waits for the slot
		assert.Empty(t, order, "the move waits while the review searches")
		require.True(t, review.yield())
		order = append(order, "review")
		assert.Equal(t, []string{"move", "review"}, order, "the waiting move ran before the review's next position")
		review.release()
		assert.Empty(t, slot, "released")
	})
}

// TestSlotTurnShutdown: a review waiting for the slot gives up when the
// bot shuts down.
func TestSlotTurnShutdown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		slot, done := make(chan struct{}, 1), make(chan struct{})
		slot <- struct{}{} // a move searches
		review := &slotTurn{slot: slot, done: done}
		got := make(chan bool)
		go func() { got <- review.take() }()
		synctest.Wait()
		close(done)
		assert.False(t, <-got)
		review.release() // holds nothing: leaves the move's slot alone
		assert.Len(t, slot, 1)
	})
}
