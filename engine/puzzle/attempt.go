package puzzle

import (
	"errors"
	"fmt"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
)

// ErrSolved is returned by Attempt.Play once the attempt is over.
var ErrSolved = errors.New("the puzzle attempt is over")

// Attempt is one try at a puzzle: the position reached and how far along
// the solution it is. It is not safe for concurrent use.
type Attempt struct {
	puzzle *Puzzle
	pos    engine.Position
	done   int // solution moves played
	over   bool
}

// Answer is what Attempt.Play says of a move.
type Answer struct {
	Right bool
	// Defence is the opponent's reply to a right move that does not end the
	// puzzle; Solved is true when a right move ends it.
	Defence engine.Cell
	Solved  bool
	// Refutation is the opponent's best reply to a wrong move, if the game
	// goes on after it.
	Refutation    engine.Cell
	HasRefutation bool
}

// Start begins an attempt at p, at the puzzle position.
func (p *Puzzle) Start() (*Attempt, error) {
	pos, err := p.Position()
	if err != nil {
		return nil, err
	}
	return &Attempt{puzzle: p, pos: pos}, nil
}

// Position is the position the solver is to play in.
func (a *Attempt) Position() engine.Position { return a.pos }

// Over reports whether the attempt has ended, solved or not.
func (a *Attempt) Over() bool { return a.over }

// Play plays the solver's move c. An illegal move returns the engine's
// *engine.RuleError and changes nothing. A right move plays the defence
// too, unless it was the last of the solution; a wrong one ends the
// attempt with the refutation.
func (a *Attempt) Play(c engine.Cell) (Answer, error) {
	if a.over {
		return Answer{}, ErrSolved
	}
	if err := a.pos.Check(c); err != nil {
		return Answer{}, err
	}
	want := a.puzzle.Solution[a.done]
	if c != want {
		a.over = true
		if err := a.pos.Play(c); err != nil {
			return Answer{}, err
		}
		return refute(a.pos, a.puzzle.Record.Rules)
	}
	if err := a.pos.Play(c); err != nil {
		return Answer{}, err
	}
	a.done++
	if a.done == len(a.puzzle.Solution) {
		a.over = true
		return Answer{Right: true, Solved: true}, nil
	}
	d := a.puzzle.Solution[a.done]
	if err := a.pos.Play(d); err != nil {
		return Answer{}, fmt.Errorf("%w: defence %s: %w", ErrPuzzle, d, err)
	}
	a.done++
	return Answer{Right: true, Defence: d}, nil
}

// refute finds the opponent's best reply in pos, after a wrong move: the
// first of the moves with the best proven value for the opponent.
func refute(pos engine.Position, rules engine.Rules) (Answer, error) {
	if pos.IsOver() {
		return Answer{}, nil
	}
	sol, err := ai.Solve(pos, rules, 0)
	if err != nil {
		return Answer{}, err
	}
	best := sol.With(sol.Best())[0]
	return Answer{Refutation: pos.Layout().Cell(best), HasRefutation: true}, nil
}
