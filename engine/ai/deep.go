package ai

import (
	"context"
	"sync/atomic"

	"github.com/kulami/kulami/engine"
)

// Deep is a baseline built from the description of the strongest
// open-source Kulami program known to the project: alpha-beta search to a
// fixed depth that grows with the marbles placed (DeepDepth), with no time
// limit and no transposition table, and an evaluation that is the score
// margin, a finished game counting as a win or a loss whatever its margin.
// It searches on one core; ordering moves by margin and scoring on
// bitboards, it needs under a second a move on average, and seconds at
// most, where the original is said to need 10 to 100 seconds.
//
// The original evaluates the panel-score margin and ±100000 for a
// finished game. Deep evaluates the margin under the rule set played (the
// panel-score margin under Basic), so that it is not handicapped under the
// rule sets that also count areas and lines, and ±decided for a finished
// game (a draw 0), which orders every value as ±100000 does. Moves leaving
// the best margin are searched first, which changes the speed of the
// search, not its value. Among moves of equal value it plays the first in
// that order.
//
// Deep has no time limit of its own; at a context's deadline it plays the
// best move of those it has searched. It is safe for concurrent use.
type Deep struct {
	// Shallower takes this many plies off every depth of the schedule
	// (leaving at least 1), for quicker games.
	Shallower int
}

// DeepDepth returns the depth in plies of the full schedule of Deep with
// placed marbles on the board. The description gives the depths 8, 10,
// 12, 13 up to 20 marbles, 14, 15, 16, 18, 20, and 25 from 39 marbles on;
// it is read here as steps of about five marbles before the 13 and four
// after it:
//
//	marbles placed  0–4  5–9  10–14  15–20  21–24  25–28  29–32  33–35  36–38  39–56
//	depth             8   10     12     13     14     15     16     18     20     25
//
// From 39 marbles on, 25 plies reach the end of every game.
func DeepDepth(placed int) int {
	for _, s := range deepSchedule {
		if placed < s.below {
			return s.depth
		}
	}
	return 25
}

// deepSchedule is DeepDepth's table: depth until below marbles are placed.
var deepSchedule = [...]struct{ below, depth int }{
	{5, 8}, {10, 10}, {15, 12}, {21, 13}, {25, 14}, {29, 15}, {33, 16}, {36, 18}, {39, 20},
}

// Move returns the move Deep's search rates best; see Player.
func (d Deep) Move(ctx context.Context, pos engine.Position, rules engine.Rules) (Move, error) {
	legal, err := start(ctx, &pos)
	if err != nil {
		return Move{}, err
	}
	var stopped atomic.Bool
	defer context.AfterFunc(ctx, func() { stopped.Store(true) })()
	depth := max(1, DeepDepth(pos.Ply())-d.Shallower)
	s := negamax{scorer: engine.NewScorer(pos.Layout()), rules: rules, flat: true, stop: stopped.Load}
	var buf [engine.NumHoles]engine.Hole
	best, _, _ := s.root(&pos, s.order(&pos, legal, depth, buf[:0]), depth)
	if cancelled(ctx) {
		return Move{}, ctx.Err()
	}
	return newMove(&pos, best), nil
}
