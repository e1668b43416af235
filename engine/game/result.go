package game

import (
	"fmt"
	"time"

	"github.com/kulami/kulami/engine"
)

// Ending is how a game ended.
type Ending uint8

// The endings of a game.
const (
	Normal      Ending = iota // the board was played out (RULES.md); the higher score won
	Resigned                  // a player resigned and lost
	TimedOut                  // a player ran out of time and lost
	Aborted                   // called off; counts for nobody
	DrawAgreed                // the players agreed a draw
	Unstarted                 // a player ran out of time before their first move; counts for nobody
	Abandoned                 // the game could not go on (its channel is gone); counts for nobody
	Adjudicated               // unfinished at a deadline, judged won or drawn (Game.Adjudicate); rated
)

// endingNames are the endings' names, which storage keeps: a new ending's
// name is appended, never a name changed or moved.
var endingNames = [...]string{"normal", "resigned", "timed-out", "aborted", "draw-agreed", "unstarted", "abandoned", "adjudicated"}

// String returns the ending's name: normal, resigned, timed-out, aborted,
// draw-agreed, unstarted, abandoned or adjudicated.
func (e Ending) String() string { return name(endingNames[:], "Ending", e) }

// MarshalText writes e's name.
func (e Ending) MarshalText() ([]byte, error) { return marshalName(endingNames[:], "ending", e) }

// UnmarshalText reads a name that MarshalText writes.
func (e *Ending) UnmarshalText(b []byte) error { return unmarshalName(endingNames[:], "ending", b, e) }

// Outcome is what a finished game was for one player.
type Outcome uint8

// The outcomes of a game for a player.
const (
	NoContest Outcome = iota // the game counts for nobody (see Result.Rated)
	Won
	Lost
	Drawn
)

var outcomeNames = [...]string{"no-contest", "won", "lost", "drawn"}

// String returns the outcome's name: no-contest, won, lost or drawn.
func (o Outcome) String() string { return name(outcomeNames[:], "Outcome", o) }

// MarshalText writes o's name.
func (o Outcome) MarshalText() ([]byte, error) { return marshalName(outcomeNames[:], "outcome", o) }

// UnmarshalText reads a name that MarshalText writes.
func (o *Outcome) UnmarshalText(b []byte) error {
	return unmarshalName(outcomeNames[:], "outcome", b, o)
}

// Result is how and when a game ended. Only the methods of Game make one;
// Restore refuses a Result that does not follow from the game's moves.
type Result struct {
	Ending Ending       `json:"ending"`
	Winner engine.Color `json:"winner"` // meaningless for a draw or an aborted game
	Draw   bool         `json:"draw,omitempty"`
	// Score is the score of the board as it was left, under the game's
	// rules, also when a player resigned or ran out of time.
	Score engine.Score `json:"score"`
	At    time.Time    `json:"at"`
	// Claimed: the game ended TimedOut because the winner claimed the win
	// (Game.Claim), in a game of claims.
	Claimed bool `json:"claimed,omitempty"`
}

// Outcome returns what the game was for the player of colour c.
func (r *Result) Outcome(c engine.Color) Outcome {
	switch {
	case !r.Rated():
		return NoContest
	case r.Draw:
		return Drawn
	case r.Winner == c:
		return Won
	}
	return Lost
}

// Rated reports whether the result counts for the players' ratings and
// records: every ending but Aborted, Unstarted and Abandoned.
func (r *Result) Rated() bool {
	return r.Ending != Aborted && r.Ending != Unstarted && r.Ending != Abandoned
}

// String describes the result as the Result tag of a record: "Red 35-29"
// (the winner, their total, the loser's total), "Draw 30-30", "Black wins,
// Red resigned", "Red wins, Black ran out of time", "Draw by agreement",
// "Aborted", "Aborted, Red did not make a first move in time" or
// "Abandoned". A win on time that was claimed says so: "Red wins, Black
// ran out of time (claimed)"; an adjudicated game says "Red wins by
// adjudication" or "Draw by adjudication".
func (r *Result) String() string {
	w, l := r.Winner, r.Winner.Other()
	switch r.Ending {
	case Normal:
		if r.Draw {
			return fmt.Sprintf("Draw %d-%d", r.Score[engine.Red].Total, r.Score[engine.Black].Total)
		}
		return fmt.Sprintf("%s %d-%d", w.Title(), r.Score[w].Total, r.Score[l].Total)
	case Resigned:
		return fmt.Sprintf("%s wins, %s resigned", w.Title(), l.Title())
	case TimedOut:
		if r.Claimed {
			return fmt.Sprintf("%s wins, %s ran out of time (claimed)", w.Title(), l.Title())
		}
		return fmt.Sprintf("%s wins, %s ran out of time", w.Title(), l.Title())
	case DrawAgreed:
		return "Draw by agreement"
	case Unstarted:
		return fmt.Sprintf("Aborted, %s did not make a first move in time", l.Title())
	case Abandoned:
		return "Abandoned"
	case Adjudicated:
		if r.Draw {
			return "Draw by adjudication"
		}
		return fmt.Sprintf("%s wins by adjudication", w.Title())
	}
	return "Aborted"
}

// newResult returns the result of a game left in position p, scored under
// rules, ending at at as ending says; loser is the player who resigned,
// ran out of time (also before a first move: Winner is then their
// opponent, though the game counts for nobody) or was judged to lose, and
// is ignored for the other endings; draw says an adjudicated game was
// judged drawn (loser is then ignored) and is ignored for the other
// endings.
func newResult(p *engine.Position, rules engine.Rules, ending Ending, loser engine.Color, draw bool, at time.Time) (*Result, error) {
	if at.IsZero() {
		return nil, invalid("a result needs the time the game ended")
	}
	r := &Result{Ending: ending, Score: p.Score(rules), At: at}
	switch ending {
	case Normal:
		if !p.IsOver() {
			return nil, invalid("the game is not over: %s may still move", p.ToMove())
		}
		w, decided := r.Score.Winner()
		r.Winner, r.Draw = w, !decided
	case Adjudicated, Resigned, TimedOut, Unstarted:
		if ending == Adjudicated && draw {
			r.Draw = true
			break
		}
		if loser != engine.Red && loser != engine.Black {
			return nil, invalid("the loser must be red or black, not %v", loser)
		}
		r.Winner = loser.Other()
	case DrawAgreed:
		r.Draw = true
	case Aborted, Abandoned:
	default:
		return nil, invalid("unknown ending %v", ending)
	}
	return r, nil
}

// same reports whether r and o are the same result.
func (r *Result) same(o *Result) bool {
	return r.Ending == o.Ending && r.Winner == o.Winner && r.Draw == o.Draw && r.Score == o.Score && r.At.Equal(o.At) && r.Claimed == o.Claimed
}
