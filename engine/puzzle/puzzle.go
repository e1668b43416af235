package puzzle

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/kulami/kulami/engine"
)

// ErrPuzzle is wrapped by every error about a puzzle that breaks the rules
// of doc.go: a record that cannot be replayed, a solution that is not
// legal or of the wrong length, an unknown goal or theme.
var ErrPuzzle = errors.New("bad puzzle")

// Goal is what the solver's side achieves with the solution.
type Goal string

// The goals.
const (
	Win  Goal = "win"  // exactly one move wins
	Draw Goal = "draw" // no move wins and exactly one draws
)

// value is the solver's exact result (1 win, 0 draw) the goal stands for.
func (g Goal) value() int {
	if g == Win {
		return 1
	}
	return 0
}

// MaxMoves is the most moves of the solver's side in a solution.
const MaxMoves = 3

// Puzzle is a position of a game where the side to move (the solver) has
// exactly one move that reaches its Goal, and the line that follows.
type Puzzle struct {
	ID string
	// Record is the game up to the puzzle position: its layout, first
	// colour, rule set and moves. Its tags carry no meaning.
	Record *engine.Record
	// Solution is the solver's moves with the best defence in between:
	// 1, 3 or 5 holes, the solver's first.
	Solution []engine.Cell
	Goal     Goal
	Rating   int     // starting difficulty, on the Glicko scale (see doc.go)
	Themes   []Theme // in the order of Themes
	Source   string  // where the position comes from: "self-play SEED" or "game ID"
}

// Position returns the puzzle position: the record replayed.
func (p *Puzzle) Position() (engine.Position, error) {
	pos, err := p.Record.Replay()
	if err != nil {
		return pos, fmt.Errorf("%w: %w", ErrPuzzle, err)
	}
	return pos, nil
}

// Solver is the colour the player solving the puzzle plays.
func (p *Puzzle) Solver() (engine.Color, error) {
	pos, err := p.Position()
	return pos.ToMove(), err
}

// Check reports whether the puzzle is well formed: the record replays,
// the game is not over, the solution has 1 to MaxMoves moves of the
// solver's side, every move of it is legal in turn, the goal and themes
// are known. It does not prove the solution unique: that takes the solver
// (see Verify).
func (p *Puzzle) Check() error {
	pos, err := p.Position()
	if err != nil {
		return err
	}
	if pos.IsOver() {
		return fmt.Errorf("%w: the game is over at the puzzle position", ErrPuzzle)
	}
	if n := len(p.Solution); n%2 == 0 || n > 2*MaxMoves-1 {
		return fmt.Errorf("%w: a solution has 1 to %d moves of the solver, with the defence between: %d moves", ErrPuzzle, MaxMoves, n)
	}
	for i, c := range p.Solution {
		if err := pos.Play(c); err != nil {
			return fmt.Errorf("%w: solution move %d (%s): %w", ErrPuzzle, i+1, c, err)
		}
	}
	if p.Goal != Win && p.Goal != Draw {
		return fmt.Errorf("%w: goal must be win or draw, not %q", ErrPuzzle, p.Goal)
	}
	for _, t := range p.Themes {
		if !t.known() {
			return fmt.Errorf("%w: unknown theme %q", ErrPuzzle, t)
		}
	}
	return nil
}

// SolutionText is the solution as in a record's moves: upper-case
// coordinates separated by spaces.
func (p *Puzzle) SolutionText() string {
	words := make([]string, len(p.Solution))
	for i, c := range p.Solution {
		words[i] = c.String()
	}
	return strings.ToUpper(strings.Join(words, " "))
}

// Moves is the number of the solver's moves in the solution.
func (p *Puzzle) Moves() int { return (len(p.Solution) + 1) / 2 }

// idOf is a puzzle's ID: a hash of its layout, first colour, rule set and
// moves, so that the same position always has the same ID.
func idOf(rec *engine.Record) string {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s|%s|%s|%s", rec.Layout, rec.First, rec.Rules, strings.ToUpper(strings.Join(rec.Moves, " ")))
	return fmt.Sprintf("%012x", h.Sum64()>>16)
}
