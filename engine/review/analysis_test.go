package review_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/review"
)

// game is a made-up analysis of six moves, red first.
func game() *review.Analysis {
	mv := func(ply int, before, after, cost float64) review.Move {
		return review.Move{Ply: ply, Color: engine.Color((ply - 1) % 2), Cell: engine.CellAt(ply, 0), Best: engine.CellAt(0, ply),
			Before: before, After: after, Cost: cost}
	}
	return &review.Analysis{Version: review.Version, Moves: []review.Move{
		mv(1, 0.5, 0.3, 0.2),   // red 0.3
		mv(2, 0.7, 0.58, 0.1),  // red 0.42
		mv(3, 0.4, 0.35, 0.05), // red 0.35
		mv(4, 0.65, 0.1, 0.55), // red 0.9
		mv(5, 0.9, 0.5, 0.4),   // red 0.5
		mv(6, 0.5, 0.35, 0.1),  // red 0.65
	}}
}

func TestRedChances(t *testing.T) {
	got := game().RedChances()
	want := []float64{0.5, 0.3, 0.42, 0.35, 0.9, 0.5, 0.65}
	require.Len(t, got, len(want))
	for i := range want {
		assert.InDelta(t, want[i], got[i], 1e-9, "after move %d", i)
	}
}

func TestMistakes(t *testing.T) {
	a := game()
	tests := []struct {
		color engine.Color
		n     int
		plies []int
	}{
		{engine.Red, 3, []int{5, 1}}, // move 3 cost less than MinCost
		{engine.Black, 3, []int{4, 2, 6}},
		{engine.Black, 1, []int{4}},
		{engine.Black, 0, []int{}},
	}
	for _, tt := range tests {
		t.Run(tt.color.String(), func(t *testing.T) {
			plies := []int{}
			for _, m := range a.Mistakes(tt.color, tt.n) {
				assert.Equal(t, tt.color, m.Color)
				plies = append(plies, m.Ply)
			}
			assert.Equal(t, tt.plies, plies, "costliest first, the earlier first among equals")
		})
	}
	c, ok := a.Moves[3].Better()
	assert.True(t, ok)
	assert.Equal(t, engine.CellAt(0, 4), c)
	_, ok = a.Moves[2].Better()
	assert.False(t, ok, "a move that cost less than MinCost has no better one")
}

func TestSwings(t *testing.T) {
	a := game()
	assert.Equal(t, []int{1, 4, 5}, a.Swings(3), "the three largest changes, in the order played")
	assert.Equal(t, []int{4}, a.Swings(1))
	assert.Equal(t, []int{1, 2, 4, 5, 6}, a.Swings(10), "only changes of MinCost or more")
	marks := a.SwingMarks(3)
	require.Len(t, marks, 3)
	for k, ply := range a.Swings(3) {
		assert.Equal(t, review.Mark{Ply: ply, Label: fmt.Sprintf("%d. %s", ply, a.Moves[ply-1].Cell)}, marks[k])
	}
}

func TestMoveJSONErrors(t *testing.T) {
	var a review.Analysis
	assert.Error(t, json.Unmarshal([]byte(`{"moves":[{"ply":1,"color":"green","cell":"A1","best":"A2"}]}`), &a))
	assert.Error(t, json.Unmarshal([]byte(`{"moves":[{"ply":1,"color":"red","cell":"Z99","best":"A2"}]}`), &a))
	assert.Error(t, json.Unmarshal([]byte(`{"moves":[3]}`), &a))
}
