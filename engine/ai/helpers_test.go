package ai_test

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

var allRules = []engine.Rules{engine.Basic, engine.Area, engine.Lines, engine.Full}

// mustRandomGame returns the position after n random legal moves from the
// empty board of l (red first); the game must still be on.
func mustRandomGame(tb testing.TB, l *engine.Layout, seed uint64, n int) engine.Position {
	tb.Helper()
	r := engine.NewRand(seed)
	p := engine.NewPosition(l, engine.Red)
	for range n {
		require.False(tb, p.IsOver(), "the game ended before move %d", n)
		p.Apply(r.Pick(p.Legal()))
	}
	return p
}

// bruteForce returns the result of pos with perfect play for the player to
// move (1 win, 0 draw, -1 loss), by plain minimax scored with
// Position.Score: the reference the searches are checked against.
func bruteForce(pos engine.Position, rules engine.Rules) int {
	legal := pos.Legal()
	if legal == 0 {
		s := pos.Score(rules)
		w, ok := s.Winner()
		switch {
		case !ok:
			return 0
		case w == pos.ToMove():
			return 1
		}
		return -1
	}
	best := -1
	for h := range legal.All() {
		p := pos
		p.Apply(h)
		best = max(best, -bruteForce(p, rules))
		if best == 1 {
			break
		}
	}
	return best
}

// moveValues returns the brute-force result of each legal move of pos for
// the player to move.
func moveValues(pos engine.Position, rules engine.Rules) map[engine.Hole]int {
	out := map[engine.Hole]int{}
	for h := range pos.Legal().All() {
		p := pos
		p.Apply(h)
		out[h] = -bruteForce(p, rules)
	}
	return out
}

// endgame is a position whose brute-force values are known.
type endgame struct {
	pos    engine.Position
	rules  engine.Rules
	values map[engine.Hole]int // the result of each move for the player to move
	best   int
}

// mustEndgames returns endgames of random games with at most 13 marbles left
// to place, under every rule set: n of them, all tactical (the player to
// move has a move that wins and one that does not) if tactical is set.
func mustEndgames(tb testing.TB, n int, tactical bool) []endgame {
	tb.Helper()
	var out []endgame
	for seed := uint64(1); len(out) < n; seed++ {
		require.Less(tb, seed, uint64(10000), "too few endgames found")
		l := engine.RandomSquare(seed)
		if seed%3 == 0 {
			l = engine.RandomIrregular(seed)
		}
		r := engine.NewRand(seed)
		p := engine.NewPosition(l, engine.Red)
		for p.Ply() < engine.MaxPly-13 && !p.IsOver() {
			p.Apply(r.Pick(p.Legal()))
		}
		if p.IsOver() {
			continue
		}
		e := endgame{pos: p, rules: allRules[seed%4], best: -1}
		e.values = moveValues(p, e.rules)
		worst := 1
		for _, v := range e.values {
			e.best, worst = max(e.best, v), min(worst, v)
		}
		if tactical && (e.best != 1 || worst == 1) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// bruteMargin returns the margin of pos with play that maximises it for
// both players, for the player to move, by plain minimax scored with
// Position.Score.
func bruteMargin(pos engine.Position, rules engine.Rules) int {
	legal := pos.Legal()
	if legal == 0 {
		s := pos.Score(rules)
		return s[pos.ToMove()].Total - s[pos.ToMove().Other()].Total
	}
	best := -1 << 30
	for h := range legal.All() {
		p := pos
		p.Apply(h)
		best = max(best, -bruteMargin(p, rules))
	}
	return best
}

// stepClock is a clock that moves on by step each time a search reads it,
// from the system's time when it was made: a search's budget is then
// counted in its own readings, not in how fast the machine runs it. Safe
// for concurrent use (the workers read it at once).
type stepClock struct {
	start time.Time
	step  time.Duration
	reads atomic.Int64
}

// newStepClock returns a stepClock that moves on by step at each reading.
func newStepClock(step time.Duration) *stepClock { return &stepClock{start: time.Now(), step: step} }

// now returns the time of the next reading.
func (c *stepClock) now() time.Time {
	return c.start.Add(time.Duration(c.reads.Add(1)) * c.step)
}

// elapsed returns how much time the readings so far took.
func (c *stepClock) elapsed() time.Duration { return time.Duration(c.reads.Load()) * c.step }

// deadlineOnly is a context whose deadline a search reads (by its own
// clock) but which the system's clock never ends.
type deadlineOnly struct {
	context.Context
	at time.Time
}

func (d deadlineOnly) Deadline() (time.Time, bool) { return d.at, true }
