package ai

import (
	"context"

	"github.com/kulami/kulami/engine"
)

// Greedy is a baseline that looks one move ahead: it plays the move after
// which its score margin under the rule set (its total minus the
// opponent's, counting panels by who holds them now) is largest, drawing
// among equals at random, the same way for the same Seed and position. It
// is safe for concurrent use.
type Greedy struct {
	Seed uint64
}

// Move returns the greedy move of pos; see Player.
func (g Greedy) Move(ctx context.Context, pos engine.Position, rules engine.Rules) (Move, error) {
	legal, err := start(ctx, &pos)
	if err != nil {
		return Move{}, err
	}
	s := negamax{scorer: engine.NewScorer(pos.Layout()), rules: rules}
	var best engine.Holes // the holes with the best margin
	bestV := -infinity
	for _, h := range holes(legal) {
		u := pos.Apply(h)
		v := -s.value(&pos, pos.IsOver())
		pos.Revert(u)
		switch {
		case v > bestV:
			best, bestV = 1<<h, v
		case v == bestV:
			best |= 1 << h
		}
	}
	r := engine.NewRand(seedFor(g.Seed, &pos))
	return newMove(&pos, r.Pick(best)), nil
}
