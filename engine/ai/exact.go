package ai

import (
	"errors"
	"time"

	"github.com/kulami/kulami/engine"
)

// ErrUnsolved is returned by Solve when the search needs more positions
// than it was allowed.
var ErrUnsolved = errors.New("ai: the endgame is too large to solve within the node limit")

// Solution is the exact value of every legal move of a position, for the
// player to move: 1 wins, 0 draws, -1 loses, whatever the opponent does
// afterwards with best play.
type Solution struct {
	Values map[engine.Hole]int
}

// Best is the value of the position for the player to move: the best of
// its moves' values.
func (s Solution) Best() int {
	best := -1
	for _, v := range s.Values {
		best = max(best, v)
	}
	return best
}

// With returns the moves whose value is v, in the order of the holes.
func (s Solution) With(v int) []engine.Hole {
	var hs []engine.Hole
	for h := engine.Hole(0); h < engine.NumHoles; h++ {
		if w, ok := s.Values[h]; ok && w == v {
			hs = append(hs, h)
		}
	}
	return hs
}

// Solve proves the value of every legal move of pos under rules with the
// endgame solver Hard uses, searched to the end of the game, in at most
// maxNodes positions (0 for no limit): ErrUnsolved past it.
// engine.ErrGameOver if pos is finished. It is for endgames: the work grows
// fast with the marbles left (a few milliseconds at 14 left).
func Solve(pos engine.Position, rules engine.Rules, maxNodes int) (Solution, error) {
	legal := pos.Legal()
	if legal == 0 {
		return Solution{}, engine.ErrGameOver
	}
	s := newSolver(engine.NewScorer(pos.Layout()), rules, nil, maxNodes, time.Time{}, nil)
	sol := Solution{Values: make(map[engine.Hole]int, legal.Len())}
	for h := range legal.All() {
		u := pos.Apply(h)
		// The full window (-2, 2) around values in {-1, 0, 1}: exact.
		v := -s.search(&pos, engine.MaxPly, -2, 2)
		pos.Revert(u)
		if s.aborted {
			return Solution{}, ErrUnsolved
		}
		sol.Values[h] = v
	}
	return sol, nil
}
