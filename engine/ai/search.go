package ai

import (
	"context"
	"errors"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kulami/kulami/engine"
)

// Config is the setting of the search behind every Level: Monte Carlo tree
// search with RAVE, on all cores (root parallelism: each worker grows its
// own tree and their root statistics are added up), and an exact endgame
// search when few marbles are left. The zero Config is not usable: set
// Time or Playouts, or start from a Level's Config.
//
// A Config is a Player; it is a plain value and safe for concurrent use.
type Config struct {
	// Time is the budget per move, measured from the call to Move and
	// never exceeded; 0 means no limit but Playouts.
	Time time.Duration
	// Playouts stops the search after this many random games in all
	// workers; 0 means as many as Time allows. With Playouts set and Time
	// 0, a fixed Seed and Workers give the same move every time.
	Playouts int
	// Workers is the number of searches run in parallel; 0 means one per
	// core (runtime.GOMAXPROCS).
	Workers int
	// Seed makes the search reproducible; it is mixed with the position,
	// so different positions get different random games.
	Seed uint64
	// Exploration is the UCT constant: higher tries more moves.
	Exploration float64
	// RAVEBias sets how fast a move's all-moves-as-first value gives way to
	// its own (the b² of Gelly and Silver's schedule, times 4); 0 turns
	// RAVE off.
	RAVEBias float64
	// Temperature makes the search err like a person: 0 plays the most
	// searched move; above 0 a move is drawn with weight visits^(1/T), so
	// good moves stay likely and bad ones possible.
	Temperature float64
	// SolvePlies tries an exact search of the game to its end when at most
	// this many marbles are left to place, for half the time budget (see
	// SolveAlongside) and at most as many positions as Playouts; 0 never.
	SolvePlies int
	// MaxNodes caps each worker's tree (24 bytes a node); 0 means
	// DefaultMaxNodes.
	MaxNodes int
	// SpendAll searches until Time or Playouts runs out even when the
	// most searched move can no longer change: a closer look at close
	// moves changes their values, and so the choice.
	SpendAll bool
	// SolveAlongside runs the endgame solver on one core for the whole
	// budget, alongside the tree search on the other cores, instead of
	// on all cores for half the budget before it. It needs a Time: with
	// Playouts alone the solver runs first, so that when it proves a win
	// it has not cut the tree search short at a moment that depends on
	// the machine, and a fixed Seed gives the same moves every time.
	SolveAlongside bool
	// MarginWeight mixes the score margin into a playout's reward: a win
	// is worth 1-MarginWeight plus MarginWeight times the margin's share
	// (0 for losing by 32 points or more, ½ for a draw, 1 for winning by
	// as much), so that of two winning moves the search prefers
	// the wider win. 0 counts wins alone. WinChance counts wins alone
	// whatever the weight.
	MarginWeight float64
	// Greed is the chance that a move of a random game is drawn from the
	// moves that gain most on the panels (taking the lead in a panel or
	// drawing level in it) rather than from all legal moves; 0 plays
	// uniformly random games, the fastest.
	Greed float64

	clock *clock // the time the search goes by; nil is the system's (a test's, see export_test.go)
}

// clock is what a search reads the time from: the system's clock (a nil
// *clock), or a test's, so that a test of a budget does not depend on how
// fast the machine searches. A pointer, so that a Config stays comparable.
type clock struct{ read func() time.Time }

// now returns the time by c.
func (c *clock) now() time.Time {
	if c == nil {
		return time.Now()
	}
	return c.read()
}

// marginScale is the margin that counts fully under Config.MarginWeight.
const marginScale = 32

// DefaultMaxNodes is the tree size of a worker when Config.MaxNodes is 0:
// 48 MiB, more than 2 s of search fills.
const DefaultMaxNodes = 1 << 21

// ErrNoBudget is returned by Config.Move when neither Time nor Playouts
// is set.
var ErrNoBudget = errors.New("ai: the search has no budget: set Time or Playouts")

// expandAt is the visits a leaf needs before it gets children: fewer
// nodes, the same strength.
const expandAt = 2

// checkEvery is how many iterations a worker runs between looks at the
// clock (about 50 µs).
const checkEvery = 32

// safetyMargin is the most time a search leaves unused before its
// deadline (it leaves a tenth of shorter budgets), for the machine's
// hiccups: on a loaded machine a thread can wait tens of milliseconds for
// a core, and the arena measured a 2 s search ending 16 ms late with a
// margin of 50 ms.
const safetyMargin = 150 * time.Millisecond

// forcedPlayouts is the search given to a move that is the only legal one,
// to estimate its chances.
const forcedPlayouts = 1000

var treePool = sync.Pool{New: func() any { return new(tree) }}

// Move searches pos and returns the move it rates best (or, with a
// Temperature, draws one). It stops at its Time, at ctx's deadline, or
// (unless SpendAll) when the best move can no longer change, whichever
// comes first, with a safety margin. It returns engine.ErrGameOver if the game is over,
// ErrNoBudget for a Config without a budget, and ctx.Err() if ctx is done
// when Move is called or cancelled while it searches (a deadline reached
// while it searches is a budget, not an error).
func (c Config) Move(ctx context.Context, pos engine.Position, rules engine.Rules) (Move, error) {
	return c.move(ctx, pos, rules, nil)
}

// move is Move; with kept not nil it searches with the trees in *kept,
// reusing their subtrees for pos (see Searcher), and leaves its trees
// there.
func (c Config) move(ctx context.Context, pos engine.Position, rules engine.Rules, kept *[]*tree) (Move, error) {
	begin := c.clock.now()
	legal, err := start(ctx, &pos)
	if err != nil {
		return Move{}, err
	}
	if c.Time <= 0 && c.Playouts <= 0 {
		return Move{}, ErrNoBudget
	}
	deadline := c.deadline(ctx, begin)
	seed := seedFor(c.Seed, &pos)
	scorer := engine.NewScorer(pos.Layout())

	var stopped atomic.Bool
	defer context.AfterFunc(ctx, func() { stopped.Store(true) })()

	lost := false
	if c.SolvePlies > 0 && engine.MaxPly-pos.Ply() <= c.SolvePlies {
		if c.SolveAlongside && c.Time > 0 {
			return c.solveAlongside(ctx, pos, scorer, rules, seed, deadline, legal, stopped.Load, kept)
		}
		var half time.Time
		if !deadline.IsZero() {
			half = begin.Add(deadline.Sub(begin) / 2)
		}
		best, v, ok := c.solve(newSolver(scorer, rules, stopped.Load, c.Playouts, half, c.clock), pos, legal, nil)
		if cancelled(ctx) {
			return Move{}, ctx.Err()
		}
		if c.proven(v, ok, legal) {
			return provenMove(&pos, best, v), nil
		}
		// A proven loss: search on for the move most likely to make the
		// opponent go wrong.
		lost = ok
	}

	m := c.search(pos, scorer, rules, seed, deadline, legal, stopped.Load, kept)
	if cancelled(ctx) {
		return Move{}, ctx.Err()
	}
	if lost {
		m.WinChance, m.Proven = 0, true
	}
	return m, nil
}

// solve runs the endgame solver s on pos and returns its best move and
// value, ok false if it stopped before the proof. It calls proved, if not
// nil, as soon as the value is proven a win or a draw, and then, if
// MarginWeight is set, widens a win for as long as s may run.
func (c Config) solve(s *negamax, pos engine.Position, legal engine.Holes, proved func()) (best engine.Hole, v int, ok bool) {
	var buf [engine.NumHoles]engine.Hole
	best, v, ok = s.root(&pos, s.order(&pos, legal, engine.MaxPly, buf[:0]), engine.MaxPly)
	if ok && v >= 0 && proved != nil {
		proved()
	}
	if ok && v > 0 && c.MarginWeight > 0 {
		best = s.widen(&pos, legal, best)
	}
	return best, v, ok
}

// proven reports whether the solver's result decides the move: a proven
// win or draw, or a proven loss with one legal move and nothing to draw.
func (c Config) proven(v int, ok bool, legal engine.Holes) bool {
	return ok && (v >= 0 || c.Temperature == 0 && legal&(legal-1) == 0)
}

// provenMove returns the move to hole h of pos with a proven value v.
func provenMove(pos *engine.Position, h engine.Hole, v int) Move {
	m := newMove(pos, h)
	m.WinChance, m.Proven = float64(v+1)/2, true
	return m
}

// solveAlongside runs the endgame solver on one core for the whole budget
// while the tree search runs on the others (on one, with one core), and
// stops the tree search when the solver proves a win or a draw.
func (c Config) solveAlongside(ctx context.Context, pos engine.Position, scorer *engine.Scorer, rules engine.Rules,
	seed uint64, deadline time.Time, legal engine.Holes, stop func() bool, kept *[]*tree) (Move, error) {
	s := newSolver(scorer, rules, stop, c.Playouts, deadline, c.clock)
	var proved atomic.Bool
	var best engine.Hole
	var v int
	var ok bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		best, v, ok = c.solve(s, pos, legal, func() { proved.Store(true) })
	}()
	t := c
	t.Workers = max(1, c.workers()-1)
	m := t.search(pos, scorer, rules, seed, deadline, legal, func() bool { return stop() || proved.Load() }, kept)
	<-done
	switch {
	case cancelled(ctx):
		return Move{}, ctx.Err()
	case c.proven(v, ok, legal):
		return provenMove(&pos, best, v), nil
	case ok: // a proven loss
		m.WinChance, m.Proven = 0, true
	}
	return m, nil
}

// workers returns the number of tree searches to run in parallel.
func (c Config) workers() int {
	if c.Workers > 0 {
		return c.Workers
	}
	return runtime.GOMAXPROCS(0)
}

// deadline returns when the search must stop: the earlier of the budget
// and ctx's deadline, less a safety margin; zero for no time limit.
func (c Config) deadline(ctx context.Context, begin time.Time) time.Time {
	var d time.Time
	if c.Time > 0 {
		d = begin.Add(c.Time)
	}
	if cd, ok := ctx.Deadline(); ok && (d.IsZero() || cd.Before(d)) {
		d = cd
	}
	if d.IsZero() {
		return d
	}
	return d.Add(-min(d.Sub(begin)/10, safetyMargin))
}

// search runs the tree search on all workers and chooses among the root's
// moves. With kept not nil the workers search on from the trees in it and
// leave theirs there; otherwise they take fresh trees from the pool.
func (c Config) search(pos engine.Position, scorer *engine.Scorer, rules engine.Rules, seed uint64,
	deadline time.Time, legal engine.Holes, stop func() bool, kept *[]*tree) Move {
	workers := c.workers()
	p := c.params()
	budget := c.Playouts
	if legal&(legal-1) == 0 && (budget == 0 || budget > forcedPlayouts) {
		budget = forcedPlayouts // one legal move: search only to estimate its chances
	}
	begin := c.clock.now()
	trees := make([]*tree, workers)
	if kept != nil {
		for len(*kept) < workers {
			*kept = append(*kept, new(tree))
		}
		copy(trees, *kept)
	}
	var wg sync.WaitGroup
	for w := range workers {
		if kept == nil {
			trees[w] = treePool.Get().(*tree)
		}
		share := 0
		if budget > 0 {
			share = budget / workers
			if w < budget%workers {
				share++
			}
		}
		wg.Go(func() {
			r := engine.NewRand(seed + uint64(w))
			trees[w].prepare(pos, scorer, rules, r.Uint64(), p, kept != nil)
			trees[w].run(share, deadline, begin, c.Temperature == 0 && !c.SpendAll, stop, c.clock)
		})
	}
	wg.Wait()

	// Add up the workers' root statistics, move by move.
	// Visits count the games of reused trees too; WinChance counts this
	// search's games alone.
	var visits, wins, runs [engine.NumHoles]float64
	for _, t := range trees {
		for i, n := range t.rootChildren() {
			visits[n.move] += float64(n.visits)
			wins[n.move] += float64(t.wins[i])
			runs[n.move] += float64(t.runs[i])
		}
		if kept == nil {
			treePool.Put(t)
		}
	}
	r := engine.NewRand(seed ^ 0x5bd1e995)
	best := choose(&visits, legal, c.Temperature, &r)
	m := newMove(&pos, best)
	if runs[best] > 0 {
		m.WinChance = wins[best] / runs[best]
	}
	for _, h := range holes(legal) {
		m.Playouts += int(runs[h])
	}
	return m
}

// params returns the settings of c that shape a tree.
func (c Config) params() params {
	p := params{exploration: c.Exploration, raveBias: c.RAVEBias, expandAt: expandAt, maxNodes: c.MaxNodes,
		marginWeight: float32(c.MarginWeight), greed: uint64(min(1, max(0, c.Greed)) * (1<<64 - 1))}
	if p.maxNodes <= 0 {
		p.maxNodes = DefaultMaxNodes
	}
	return p
}

// choose returns the legal hole with the most visits (the lowest among
// equals), or with a temperature above 0 draws one with weight
// visits^(1/temperature).
func choose(visits *[engine.NumHoles]float64, legal engine.Holes, temperature float64, r *engine.Rand) engine.Hole {
	moves := holes(legal)
	best := moves[0]
	for _, h := range moves {
		if visits[h] > visits[best] {
			best = h
		}
	}
	if temperature <= 0 || visits[best] == 0 {
		return best
	}
	var weight [engine.NumHoles]float64
	total := 0.0
	for _, h := range moves {
		weight[h] = math.Pow(visits[h]/visits[best], 1/temperature)
		total += weight[h]
	}
	x := float64(r.Uint64()>>11) / (1 << 53) * total
	for _, h := range moves {
		if x -= weight[h]; x < 0 {
			return h
		}
	}
	return best
}

// run iterates until share playouts are done (0: no limit), the deadline
// passes (zero: none) by clk, stop reports true, or, if settle, the most
// visited root move cannot be overtaken in the playouts left.
func (t *tree) run(share int, deadline, begin time.Time, settle bool, stop func() bool, clk *clock) {
	for done := 0; share == 0 || done < share; done++ {
		if done%checkEvery == 0 && done > 0 {
			if stop() {
				return
			}
			left := math.MaxInt
			if share > 0 {
				left = share - done
			}
			if !deadline.IsZero() {
				now := clk.now()
				if !now.Before(deadline) {
					return
				}
				rate := float64(done) / float64(now.Sub(begin))
				left = min(left, int(rate*float64(deadline.Sub(now)))+1)
			}
			if settle && t.settled(left) {
				return
			}
		}
		t.iterate()
	}
}

// settled reports whether the most visited root move stays so in any
// left more playouts.
func (t *tree) settled(left int) bool {
	var first, second uint32
	for _, n := range t.rootChildren() {
		switch {
		case n.visits > first:
			first, second = n.visits, first
		case n.visits > second:
			second = n.visits
		}
	}
	return int(first-second) > left
}
