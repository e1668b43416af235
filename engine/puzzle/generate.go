package puzzle

import (
	"context"
	"fmt"
	"strings"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
)

// Board is a kind of layout puzzles are generated on.
type Board string

// The boards.
const (
	Square    Board = "square"    // the default board
	Random    Board = "random"    // engine.RandomSquare
	Irregular Board = "irregular" // engine.RandomIrregular
)

// Boards lists the boards, in the order the generator takes them in turn.
var Boards = []Board{Square, Random, Irregular}

// rulesInTurn are the rule sets the generator takes in turn.
var rulesInTurn = []engine.Rules{engine.Basic, engine.Area, engine.Lines, engine.Full}

// Generator makes puzzles from games of Hard against itself, each game
// from its own seed, so that the same seeds give the same puzzles on every
// machine (Hard is run with a playout budget, not a time).
type Generator struct {
	// Left is the most marbles still to place at a puzzle position;
	// 0 means DefaultLeft.
	Left int
	// Playouts is Hard's budget per move in the self-play games; 0 means
	// DefaultPlayouts.
	Playouts int
	// MaxNodes bounds the solver per position; a position it cannot
	// prove within it is skipped. 0 means DefaultMaxNodes.
	MaxNodes int
	// PerGame is the most puzzles taken from one game; 0 means 3.
	PerGame int
}

// Defaults of the Generator's fields.
const (
	DefaultLeft     = 12
	DefaultPlayouts = 500
	DefaultMaxNodes = 1_000_000
)

// Game plays the self-play game of seed and returns the puzzles found in
// it (see Record), their source "self-play SEED". The seed chooses the
// board (Boards in turn) and the rule set (in turn every three seeds), so
// consecutive seeds cover them all.
func (g Generator) Game(ctx context.Context, seed uint64) ([]Puzzle, error) {
	rec := engine.NewRecord(layoutFor(seed), engine.Red, rulesInTurn[seed/uint64(len(Boards))%uint64(len(rulesInTurn))])
	hard := ai.Hard.Config()
	hard.Time, hard.Playouts, hard.Workers, hard.Seed, hard.SolveAlongside = 0, or(g.Playouts, DefaultPlayouts), 1, seed, false
	pos := engine.NewPosition(rec.Layout, rec.First)
	for !pos.IsOver() {
		m, err := hard.Move(ctx, pos, rec.Rules)
		if err != nil {
			return nil, err
		}
		pos.Apply(m.Hole)
		rec.Moves = append(rec.Moves, strings.ToUpper(m.Cell.String()))
	}
	return g.Record(ctx, rec, fmt.Sprintf("self-play %d", seed))
}

// Record returns the puzzles in the positions of the game rec with at
// most Left marbles still to place, earliest first, at most PerGame of
// them, each with the given source. The record is not changed; moves past
// an illegal one are ignored.
func (g Generator) Record(ctx context.Context, rec *engine.Record, source string) ([]Puzzle, error) {
	part := *rec
	pos := engine.NewPosition(rec.Layout, rec.First)
	var found []Puzzle
	for i := 0; !pos.IsOver() && len(found) < or(g.PerGame, 3); i++ {
		if engine.MaxPly-pos.Ply() <= or(g.Left, DefaultLeft) {
			part.Moves = rec.Moves[:i]
			p, ok, err := g.at(ctx, &part, pos)
			if err != nil {
				return nil, err
			}
			if ok {
				p.Source = source
				found = append(found, p)
			}
		}
		if i == len(rec.Moves) || pos.PlayMove(rec.Moves[i]) != nil {
			break
		}
	}
	return found, nil
}

// layoutFor is the layout of the game of seed.
func layoutFor(seed uint64) *engine.Layout {
	switch Boards[seed%uint64(len(Boards))] {
	case Random:
		return engine.RandomSquare(seed)
	case Irregular:
		return engine.RandomIrregular(seed)
	}
	return engine.Square()
}

func or(v, dflt int) int {
	if v > 0 {
		return v
	}
	return dflt
}

// At returns the puzzle at the end of rec's moves, if the position is one
// (doc.go): the solver proves exactly one move reaches the best result,
// a win or a draw, and Greedy would not find it. The record is copied.
func (g Generator) At(ctx context.Context, rec *engine.Record) (Puzzle, bool, error) {
	pos, err := rec.Replay()
	if err != nil || pos.IsOver() {
		return Puzzle{}, false, err
	}
	return g.at(ctx, rec, pos)
}

func (g Generator) at(ctx context.Context, rec *engine.Record, pos engine.Position) (Puzzle, bool, error) {
	if err := ctx.Err(); err != nil {
		return Puzzle{}, false, err
	}
	limit := or(g.MaxNodes, DefaultMaxNodes)
	sol, err := ai.Solve(pos, rec.Rules, limit)
	if err != nil {
		return Puzzle{}, false, nil // too large: not a puzzle we can prove
	}
	goal := sol.Best()
	only := sol.With(goal)
	if goal < 0 || len(only) != 1 || greedyFinds(pos, rec.Rules, only[0]) {
		return Puzzle{}, false, nil
	}
	line, err := lineFrom(pos, rec.Rules, goal, only[0], limit)
	if err != nil {
		return Puzzle{}, false, nil
	}
	cp := *rec
	cp.Moves = append([]string(nil), rec.Moves...)
	cp.Tags = nil
	cp.Result = ""
	p := Puzzle{ID: idOf(&cp), Record: &cp, Goal: Draw, Themes: themesOf(pos, rec.Rules, line)}
	if goal == 1 {
		p.Goal = Win
	}
	l := pos.Layout()
	for _, h := range line {
		p.Solution = append(p.Solution, l.Cell(h))
	}
	p.Rating = difficulty(ctx, pos, rec.Rules, only[0])
	return p, true, ctx.Err()
}

// greedyFinds reports whether h is among the moves Greedy chooses from in
// pos: those that leave the best margin for the player to move.
func greedyFinds(pos engine.Position, rules engine.Rules, h engine.Hole) bool {
	s := engine.NewScorer(pos.Layout())
	sign := 1
	if pos.ToMove() == engine.Black {
		sign = -1
	}
	margin := func(m engine.Hole) int {
		u := pos.Apply(m)
		defer pos.Revert(u)
		return sign * s.Margin(&pos, rules)
	}
	mine := margin(h)
	for m := range pos.Legal().All() {
		if margin(m) > mine {
			return false
		}
	}
	return true
}

// lineFrom returns the solution line from pos, whose only move to reach
// goal (1 win, 0 draw) is first: first, then while the solver has played
// fewer than MaxMoves moves, the best defence (a reply that keeps the
// solver at goal, among them one after which the solver again has one
// move only, the first such hole) and the solver's only answer.
func lineFrom(pos engine.Position, rules engine.Rules, goal int, first engine.Hole, limit int) ([]engine.Hole, error) {
	line := []engine.Hole{first}
	pos.Apply(first)
	for len(line) < 2*MaxMoves-1 && !pos.IsOver() {
		reply, answer, ok, err := defence(pos, rules, goal, limit)
		if err != nil || !ok {
			return line, err
		}
		line = append(line, reply, answer)
		pos.Apply(reply)
		pos.Apply(answer)
	}
	return line, nil
}

// defence finds the reply of the defender in pos after which the solver
// still reaches goal by exactly one move of several legal ones, and that
// move; ok is false if there is none.
func defence(pos engine.Position, rules engine.Rules, goal int, limit int) (reply, answer engine.Hole, ok bool, err error) {
	for r := range pos.Legal().All() {
		u := pos.Apply(r)
		legal := pos.Legal()
		if legal.Len() < 2 {
			pos.Revert(u)
			continue
		}
		sol, err := ai.Solve(pos, rules, limit)
		pos.Revert(u)
		if err != nil {
			return 0, 0, false, err
		}
		if sol.Best() == goal && len(sol.With(goal)) == 1 {
			return r, sol.With(goal)[0], true, nil
		}
	}
	return 0, 0, false, nil
}
