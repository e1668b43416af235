package game

import (
	"fmt"
	"slices"
	"time"

	"github.com/kulami/kulami/engine"
)

// The limits of a plan (SetPlan).
const (
	MaxPlanLines = 20
	MaxPlanDepth = 3 // replies in one line
)

// Line is one line of a plan: a move of the opponent, the owner's reply,
// then perhaps the opponent's next move and the reply to it, and so on:
// always an even number of holes, from 2 to 2×MaxPlanDepth.
type Line []engine.Cell

// Plan is a plan as a player set it: their lines, at which ply and when.
type Plan struct {
	By    engine.Color `json:"by"`
	Ply   int          `json:"ply"`
	At    time.Time    `json:"at"`
	Lines []Line       `json:"lines"`
}

// PlanError is a plan refused for a move: which line (from 1), which move
// of it (from 1), and why (an engine rule error, or ErrPlanIllegal alone
// for a line that ends without a reply). It wraps ErrPlanIllegal and the
// reason.
type PlanError struct {
	Line, Move int
	Err        error
}

func (e *PlanError) Error() string {
	return fmt.Sprintf("line %d, move %d: %v: %v", e.Line, e.Move, ErrPlanIllegal, e.Err)
}

// Unwrap returns ErrPlanIllegal and the reason.
func (e *PlanError) Unwrap() []error { return []error{ErrPlanIllegal, e.Err} }

// PlanNote is a line of a player's plan dropped because its reply was no
// longer legal when its move came, and why; the caller tells the owner.
type PlanNote struct {
	By   engine.Color
	Line Line
	Err  error
}

// cloneLines returns a copy of ls that shares nothing with it.
func cloneLines(ls []Line) []Line {
	if ls == nil {
		return nil
	}
	out := make([]Line, len(ls))
	for i, l := range ls {
		out[i] = slices.Clone(l)
	}
	return out
}

// SetPlan sets, at time now, the plan of the player of colour by, who is
// not to move: the replies to play for them when their opponent plays the
// move a line starts with (see Play). It replaces the plan they had; no
// lines clears it. Every line is checked against the position: each hole
// must be legal where it comes.
//
// It returns engine.ErrGameOver once the game has ended, ErrNotAPlayer for
// the computer, ErrOwnTurn on by's own turn, ErrPlanTooLong for more than
// MaxPlanLines lines, ErrPlanTooDeep for a line of more than MaxPlanDepth
// replies, a *PlanError wrapping ErrPlanIllegal for an illegal move or a
// line without a reply, and ErrPlanConflict for two lines that answer the
// same moves differently.
func (g *Game) SetPlan(by engine.Color, lines []Line, now time.Time) error {
	switch {
	case g.s.Result != nil:
		return engine.ErrGameOver
	case g.Player(by).IsAI():
		return ErrNotAPlayer
	case by == g.ToMove():
		return ErrOwnTurn
	}
	if err := checkPlan(g.pos, lines); err != nil {
		return err
	}
	by &= 1
	if len(lines) == 0 {
		g.s.Plans[by] = nil
		return nil
	}
	g.s.Plans[by] = cloneLines(lines)
	g.s.PlanLog = append(g.s.PlanLog, Plan{By: by, Ply: g.Ply(), At: now, Lines: cloneLines(lines)})
	return nil
}

// checkPlan returns the error SetPlan returns for lines that are not a
// plan of the player not to move in p.
func checkPlan(p engine.Position, lines []Line) error {
	if err := checkShape(lines); err != nil {
		return err
	}
	for i, l := range lines {
		next := p
		for j, c := range l {
			if err := next.Play(c); err != nil {
				return &PlanError{Line: i + 1, Move: j + 1, Err: err}
			}
		}
	}
	return nil
}

// checkShape returns the error SetPlan returns for lines that are not a
// plan whatever the position: too many, too deep, without a reply, or in
// conflict.
func checkShape(lines []Line) error {
	if len(lines) > MaxPlanLines {
		return ErrPlanTooLong
	}
	for i, l := range lines {
		switch {
		case len(l) > 2*MaxPlanDepth:
			return ErrPlanTooDeep
		case len(l)%2 != 0 || len(l) == 0:
			return &PlanError{Line: i + 1, Move: len(l) + 1, Err: ErrPlanIllegal}
		}
		for _, o := range lines[:i] {
			// Two lines that agree on the opponent's moves up to one of
			// them must agree on the replies too.
			for j := 0; j+1 < min(len(l), len(o)) && l[j] == o[j]; j += 2 {
				if l[j+1] != o[j+1] {
					return ErrPlanConflict
				}
			}
		}
	}
	return nil
}

// Plan returns the plan of the player of colour by as it stands, each
// line from the opponent's next move; nil if they have none. Plans are
// private: show it to its owner only.
func (g *Game) Plan(by engine.Color) []Line { return cloneLines(g.s.Plans[by&1]) }

// PlanLog returns every plan set in the game, in order, once the game has
// ended (for review and export); nil while it goes on, as plans are
// private.
func (g *Game) PlanLog() []Plan {
	if g.s.Result == nil {
		return nil
	}
	return g.State().PlanLog
}

// plannedReply returns the reply the plan of the player to move holds to
// c, the move their opponent just played, if any.
func (g *Game) plannedReply(c engine.Cell) (engine.Cell, bool) {
	for _, l := range g.s.Plans[g.ToMove()] {
		if l[0] == c {
			return l[1], true
		}
	}
	return 0, false
}

// followPlan keeps of the plan of owner, whose reply to c was just
// played, the lines that go on after it; the plan is dropped if none
// does.
func (g *Game) followPlan(owner engine.Color, c engine.Cell) {
	lines := g.s.Plans[owner]
	rest := lines[:0] // the game owns the plan: filtered in place
	for _, l := range lines {
		if l[0] == c && len(l) > 2 {
			rest = append(rest, l[2:])
		}
	}
	g.s.Plans[owner] = nil
	if len(rest) > 0 {
		g.s.Plans[owner] = rest
	}
}

// checkPlans returns an error wrapping ErrInvalid unless the plans of s
// could have been set: only by a person not to move in a game that goes
// on, each within the limits of SetPlan; and every plan of the log too.
// The moves of a plan are not checked against the position here: a line
// that is not legal (the rules changed since it was set) is dropped, with
// a note, when its move comes (PlayTurn).
func (g *Game) checkPlans() error {
	for c, lines := range g.s.Plans {
		if lines == nil {
			continue
		}
		if g.s.Result != nil || engine.Color(c) == g.ToMove() || g.Player(engine.Color(c)).IsAI() {
			return invalid("a plan of %v, who cannot have one", engine.Color(c))
		}
		if err := checkShape(lines); err != nil {
			return invalid("the plan of %v: %v", engine.Color(c), err)
		}
	}
	for _, p := range g.s.PlanLog {
		if p.By > engine.Black || p.Ply < 0 || p.Ply > g.Ply() || len(p.Lines) == 0 {
			return invalid("a logged plan of %v at ply %d with %d lines", p.By, p.Ply, len(p.Lines))
		}
		if err := checkShape(p.Lines); err != nil {
			return invalid("a logged plan of %v at ply %d: %v", p.By, p.Ply, err)
		}
	}
	return nil
}
