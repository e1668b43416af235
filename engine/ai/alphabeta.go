package ai

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/kulami/kulami/engine"
)

// AlphaBeta is the strongest baseline: depth-first alpha-beta search whose
// evaluation is the score margin under the rule set (its total minus the
// opponent's, counting panels by who holds them now; a finished game counts
// above any unfinished one). It deepens one ply at a time, trying the best
// move of the last depth first, and plays the best move of the deepest
// search it finished within its budget. It searches on one core. It is safe
// for concurrent use.
type AlphaBeta struct {
	// Depth is the deepest search in plies; 0 means as deep as Time allows.
	Depth int
	// Time is the budget per move; 0 means no limit but Depth. The zero
	// AlphaBeta searches 1 ply.
	Time time.Duration
	// Seed shuffles moves of equal value, the same way for the same Seed
	// and position.
	Seed uint64

	clock *clock // the time the search goes by; nil is the system's
}

// Move returns the move alpha-beta search rates best; see Player.
func (a AlphaBeta) Move(ctx context.Context, pos engine.Position, rules engine.Rules) (Move, error) {
	begin := a.clock.now()
	legal, err := start(ctx, &pos)
	if err != nil {
		return Move{}, err
	}
	maxDepth := a.Depth
	if maxDepth <= 0 {
		maxDepth = engine.MaxPly
		if a.Time <= 0 {
			maxDepth = 1
		}
	}
	var stopped atomic.Bool
	defer context.AfterFunc(ctx, func() { stopped.Store(true) })()
	s := negamax{scorer: engine.NewScorer(pos.Layout()), rules: rules, stop: stopped.Load, clock: a.clock}
	s.deadline = Config{Time: a.Time}.deadline(ctx, begin)

	moves := holes(legal)
	r := engine.NewRand(seedFor(a.Seed, &pos))
	for i := len(moves) - 1; i > 0; i-- {
		j := int(r.Uint64() % uint64(i+1))
		moves[i], moves[j] = moves[j], moves[i]
	}
	best, left := moves[0], engine.MaxPly-pos.Ply()
	for depth := 1; depth <= maxDepth; depth++ {
		h, v, ok := s.root(&pos, moves, depth)
		if !ok {
			break
		}
		best = h
		if depth >= left || v > decided/2 || v < -decided/2 {
			break // searched to the end of the game
		}
		toFront(moves, h) // the best move first next time
	}
	if cancelled(ctx) {
		return Move{}, ctx.Err()
	}
	return newMove(&pos, best), nil
}
