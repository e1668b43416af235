package puzzle

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

// brute is an exact search written for the tests, independent of the
// solver of engine/ai: plain minimax over every legal move, scored by
// Position.Score at the end, with a table of the positions seen (no
// pruning, no move order, no Scorer).
type brute struct {
	rules engine.Rules
	memo  map[bruteKey]int
}

type bruteKey struct {
	red, black engine.Holes
	last, prev engine.Hole
}

func newBrute(rules engine.Rules) *brute { return &brute{rules: rules, memo: map[bruteKey]int{}} }

// value is the result of p for the player to move with best play: 1, 0, -1.
func (b *brute) value(p engine.Position) int {
	legal := p.Legal()
	if legal == 0 {
		w, decided := p.Score(b.rules).Winner()
		switch {
		case !decided:
			return 0
		case w == p.ToMove():
			return 1
		}
		return -1
	}
	last, prev := p.Last()
	k := bruteKey{p.Stones(engine.Red), p.Stones(engine.Black), last, prev}
	if v, ok := b.memo[k]; ok {
		return v
	}
	best := -1
	for h := range legal.All() {
		q := p
		q.Apply(h)
		best = max(best, -b.value(q))
	}
	b.memo[k] = best
	return best
}

// moves returns the value of each legal move of p for the player to move.
func (b *brute) moves(p engine.Position) map[engine.Hole]int {
	vs := map[engine.Hole]int{}
	for h := range p.Legal().All() {
		q := p
		q.Apply(h)
		vs[h] = -b.value(q)
	}
	return vs
}

// reprove checks with the brute force that every move of the solver in
// p's solution is the only one of its position to reach the goal, and
// every defence keeps the solver at the goal.
func reprove(t *testing.T, p *Puzzle) {
	t.Helper()
	pos, err := p.Position()
	require.NoError(t, err)
	b := newBrute(p.Record.Rules)
	goal := p.Goal.value()
	for i, c := range p.Solution {
		h := mustHole(t, pos, c)
		if i%2 == 0 {
			vs := b.moves(pos)
			for m, v := range vs {
				if m == h {
					assert.Equal(t, goal, v, "move %d, %s, reaches the goal", i+1, c)
				} else {
					assert.Less(t, v, goal, "move %d: %s is another way", i+1, pos.Layout().Cell(m))
				}
			}
		} else {
			q := pos
			q.Apply(h)
			assert.Equal(t, goal, b.value(q), "the defence %s keeps the solver at the goal", c)
		}
		pos.Apply(h)
	}
}

func TestBruteForceReprovesGeneratedPuzzles(t *testing.T) {
	ps := generated(t, 12)
	require.NotEmpty(t, ps)
	for i := range ps {
		t.Run(ps[i].ID, func(t *testing.T) { reprove(t, &ps[i]) })
	}
}

func TestGeneratorRejectsWhatBruteForceFindsNoPuzzle(t *testing.T) {
	// Every endgame position of a few self-play games: the generator
	// makes a puzzle exactly where the brute force finds one best move
	// that reaches a win or draw and Greedy does not find it.
	made, checked := 0, 0
	for seed := range uint64(4) {
		rec := engine.NewRecord(layoutFor(seed), engine.Red, rulesInTurn[seed%4])
		pos := engine.NewPosition(rec.Layout, rec.First)
		r := engine.NewRand(seed)
		for !pos.IsOver() {
			if engine.MaxPly-pos.Ply() <= 8 {
				vs := newBrute(rec.Rules).moves(pos)
				best, n, only := -1, 0, engine.NoHole
				for h, v := range vs {
					switch {
					case v > best:
						best, n, only = v, 1, h
					case v == best:
						n++
					}
				}
				want := best >= 0 && n == 1 && !greedyFinds(pos, rec.Rules, only)
				p, ok, err := quick.At(context.Background(), rec)
				require.NoError(t, err)
				assert.Equal(t, want, ok, "seed %d ply %d", seed, pos.Ply())
				if ok {
					made++
					assert.Equal(t, pos.Layout().Cell(only), p.Solution[0])
				}
				checked++
			}
			h := r.Pick(pos.Legal())
			rec.Moves = append(rec.Moves, pos.Layout().Cell(h).String())
			pos.Apply(h)
		}
	}
	t.Logf("%d puzzles in %d positions", made, checked)
	assert.Positive(t, checked)
}
