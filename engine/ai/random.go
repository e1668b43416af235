package ai

import (
	"context"

	"github.com/kulami/kulami/engine"
)

// Random is the weakest baseline: it plays a legal move drawn uniformly at
// random, the same one for the same Seed and position. It is safe for
// concurrent use.
type Random struct {
	Seed uint64
}

// Move returns a random legal move of pos; see Player.
func (r Random) Move(ctx context.Context, pos engine.Position, _ engine.Rules) (Move, error) {
	legal, err := start(ctx, &pos)
	if err != nil {
		return Move{}, err
	}
	rnd := engine.NewRand(seedFor(r.Seed, &pos))
	return newMove(&pos, rnd.Pick(legal)), nil
}
