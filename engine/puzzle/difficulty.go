package puzzle

import (
	"context"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
)

// effort is the ladder of playout budgets Hard's tree search (without its
// endgame solver) is given, one after the other, to find a puzzle's first
// move.
var effort = []int{100, 300, 1000, 3000, 10000, 30000}

// Ratings of the difficulty scale: a puzzle Hard's search finds with the
// smallest budget starts at baseRating, each step up the ladder adds
// ratingStep, and one it never finds starts a step above the last.
const (
	baseRating = 1100
	ratingStep = 150
)

// difficulty is the starting rating of the puzzle in pos whose first move
// is h: how much search Hard needs to find it.
func difficulty(ctx context.Context, pos engine.Position, rules engine.Rules, h engine.Hole) int {
	c := ai.Hard.Config()
	c.Time, c.Workers, c.SolvePlies, c.SolveAlongside, c.Seed = 0, 1, 0, false, 1
	for i, n := range effort {
		c.Playouts = n
		m, err := c.Move(ctx, pos, rules)
		if err == nil && m.Hole == h {
			return baseRating + i*ratingStep
		}
	}
	return baseRating + len(effort)*ratingStep
}
