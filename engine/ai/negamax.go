package ai

import (
	"slices"
	"time"

	"github.com/kulami/kulami/engine"
)

// decided is added to the margin of a finished game, so that any decided
// game outranks any estimate of one still going on.
const decided = 1000

// infinity is more than any value.
const infinity = 2 * decided

// negamax is depth-first alpha-beta search over positions. It serves both
// the alpha-beta baseline (values are score margins, estimated at the depth
// limit by the margin so far) and the endgame solver (values are -1, 0, 1
// for loss, draw and win, searched to the end). It is not safe for
// concurrent use.
type negamax struct {
	scorer   *engine.Scorer
	rules    engine.Rules
	wdl      bool      // value finished games by their sign only
	target   int       // in wdl mode, red wins if its margin is above target (a draw if equal)
	flat     bool      // value a finished game ±decided, whatever its margin
	deadline time.Time // stop when it passes (by clock); zero for none
	clock    *clock
	stop     func() bool
	maxNodes int // stop after this many nodes; 0 for no limit
	nodes    int
	aborted  bool
	// panels, if not nil, holds the holes of each hole's panel, and order
	// ranks moves by their panel gain alone in the last cheapOrderPlies
	// plies of the game (see order).
	panels *[engine.NumHoles]uint64
}

// cheapOrderPlies is how close to the end of the game the endgame solver
// orders moves by their panel gain rather than by the whole margin after
// them. There, where most positions are, scoring every move costs more
// than the better order saves: BenchmarkSolve measured the solver 2.2×
// as fast at 18 marbles left, for 1% more positions.
const cheapOrderPlies = 8

// newSolver returns the endgame solver: a negamax that values finished
// games by win, draw or loss, within a deadline by clk (zero for none)
// and maxNodes positions (0 for no limit), stopping when stop reports
// true.
func newSolver(scorer *engine.Scorer, rules engine.Rules, stop func() bool, maxNodes int, deadline time.Time, clk *clock) *negamax {
	panels := panelMasks(scorer.Layout())
	return &negamax{scorer: scorer, rules: rules, wdl: true, stop: stop, maxNodes: maxNodes, deadline: deadline, clock: clk, panels: &panels}
}

// value returns the value of p for the player to move: for a finished game
// its result, otherwise the current margin.
func (s *negamax) value(p *engine.Position, over bool) int {
	m := s.scorer.Margin(p, s.rules)
	if s.wdl {
		m -= s.target
	}
	if p.ToMove() == engine.Black {
		m = -m
	}
	switch {
	case s.wdl:
		return sign(m)
	case over && s.flat:
		return sign(m) * decided
	case over && m > 0:
		return m + decided
	case over && m < 0:
		return m - decided
	}
	return m
}

// search returns the value of p for the player to move, searched depth
// plies deep, within the window (alpha, beta): a value at or below alpha
// is an upper bound, one at or above beta a lower bound. When the search
// is aborted (deadline or stop) it sets s.aborted and returns garbage.
func (s *negamax) search(p *engine.Position, depth, alpha, beta int) int {
	legal := p.Legal()
	if legal == 0 || depth == 0 {
		return s.value(p, legal == 0)
	}
	if s.nodes++; s.maxNodes > 0 && s.nodes > s.maxNodes || s.nodes&1023 == 0 && s.expired() {
		s.aborted = true
		return 0
	}
	var buf [engine.NumHoles]engine.Hole
	moves := s.order(p, legal, depth, buf[:0])
	best := -infinity
	for _, h := range moves {
		u := p.Apply(h)
		v := -s.search(p, depth-1, -beta, -alpha)
		p.Revert(u)
		if s.aborted {
			return 0
		}
		if v > best {
			best = v
			if v > alpha {
				alpha = v
				if alpha >= beta {
					break
				}
			}
		}
	}
	return best
}

// root searches the moves of p in the order given, depth plies deep, and
// returns the best (the first among equals) with its value; ok is false if
// the search was aborted. In wdl mode it stops at the first win.
func (s *negamax) root(p *engine.Position, moves []engine.Hole, depth int) (best engine.Hole, value int, ok bool) {
	alpha, beta := -infinity, infinity
	if s.wdl {
		beta = 1
	}
	best = moves[0]
	for _, h := range moves {
		u := p.Apply(h)
		v := -s.search(p, depth-1, -beta, -alpha)
		p.Revert(u)
		if s.aborted {
			return best, alpha, false
		}
		if v > alpha {
			best, alpha = h, v
			if alpha >= beta {
				break
			}
		}
	}
	return best, alpha, true
}

func (s *negamax) expired() bool {
	return !s.deadline.IsZero() && s.clock.now().After(s.deadline) || s.stop != nil && s.stop()
}

// order appends the legal holes of p to moves, those that leave the best
// margin for the player to move first when there is depth enough for the
// ordering to pay (near the end, for the solver, those with the best panel
// gain first); ties keep the order of the holes.
func (s *negamax) order(p *engine.Position, legal engine.Holes, depth int, moves []engine.Hole) []engine.Hole {
	for h := range legal.All() {
		moves = append(moves, h)
	}
	if depth < 3 || len(moves) < 3 {
		return moves
	}
	var key [engine.NumHoles]int
	mover := p.ToMove()
	cheap := s.panels != nil && engine.MaxPly-p.Ply() <= cheapOrderPlies
	mine, theirs := uint64(p.Stones(mover)), uint64(p.Stones(mover.Other()))
	for _, h := range moves {
		if cheap {
			key[h] = panelGain(mine, theirs, s.panels[h])
			continue
		}
		u := p.Apply(h)
		m := s.scorer.Margin(p, s.rules)
		p.Revert(u)
		if mover == engine.Black {
			m = -m
		}
		key[h] = m
	}
	slices.SortStableFunc(moves, func(a, b engine.Hole) int { return key[b] - key[a] })
	return moves
}

func sign(m int) int {
	switch {
	case m > 0:
		return 1
	case m < 0:
		return -1
	}
	return 0
}

// widen returns the move of p that wins by the widest margin it can prove
// before s stops, given win, a move proven to win (s.wdl, s.target 0). It
// proves wins by more than 2, 4, 8… points until a proof fails or s stops.
func (s *negamax) widen(p *engine.Position, legal engine.Holes, win engine.Hole) engine.Hole {
	var buf [engine.NumHoles]engine.Hole
	for more := 2; ; more *= 2 {
		s.target = more
		if p.ToMove() == engine.Black {
			s.target = -more
		}
		moves := toFront(s.order(p, legal, engine.MaxPly, buf[:0]), win)
		h, v, ok := s.root(p, moves, engine.MaxPly)
		if !ok || v < 1 {
			s.target = 0
			return win
		}
		win = h
	}
}

// toFront moves h to the front of moves, keeping the order of the rest,
// and returns moves.
func toFront(moves []engine.Hole, h engine.Hole) []engine.Hole {
	for i, m := range moves {
		if m == h {
			copy(moves[1:i+1], moves[:i])
			moves[0] = h
			break
		}
	}
	return moves
}
