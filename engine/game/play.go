package game

import (
	"slices"
	"time"

	"github.com/kulami/kulami/engine"
)

// Play places a marble of colour by at cell c at time now, for a player
// who saw the game at ply seen (the board they clicked; the current ply for
// a typed move). It returns, and leaves the game unchanged:
// engine.ErrGameOver once the game has ended, ErrStale if the game has
// moved past seen, ErrCutoff once the game's cutoff has come (Cut),
// ErrNotYourTurn if by is not to move, and the engine's
// rule error (engine.ErrOffBoard, ErrOccupied, ErrNotInLine, ErrSamePanel,
// ErrPreviousPanel) for an illegal hole.
//
// A move withdraws any draw offer and starts the opponent's clock (with
// a clock for the whole game, the mover's clock keeps what was left of
// it, plus the increment if any). A move that ends the game (RULES.md: all marbles placed, or
// no legal hole for the next player) sets the Result, ending Normal. If the
// opponent planned a reply to c (SetPlan), it is played at once, at now,
// as part of the same change: PlayTurn says so.
func (g *Game) Play(by engine.Color, seen int, c engine.Cell, now time.Time) error {
	_, err := g.PlayTurn(by, seen, c, now)
	return err
}

// Turn is what a move did besides placing its marble: the opponent's
// planned reply it set off, and the lines of their plan dropped because
// the reply was no longer legal.
type Turn struct {
	Reply   engine.Cell
	Planned bool // Reply was played
	Dropped []PlanNote
}

// PlayTurn is Play, and says what the move set off.
func (g *Game) PlayTurn(by engine.Color, seen int, c engine.Cell, now time.Time) (Turn, error) {
	switch {
	case g.s.Result != nil:
		return Turn{}, engine.ErrGameOver
	case seen != g.Ply():
		return Turn{}, ErrStale
	case g.cut(now):
		return Turn{}, ErrCutoff
	}
	if err := g.CheckTurn(by); err != nil {
		return Turn{}, err
	}
	if err := g.place(c, now, false); err != nil {
		return Turn{}, err
	}
	if g.s.Plans[g.ToMove()] == nil || g.s.Result != nil {
		return Turn{}, nil
	}
	owner := g.ToMove()
	reply, ok := g.plannedReply(c)
	if !ok {
		g.s.Plans[owner] = nil // the plan's moves were not played
		return Turn{}, nil
	}
	if err := g.place(reply, now, true); err != nil {
		var t Turn
		for _, l := range g.s.Plans[owner] {
			if l[0] == c {
				t.Dropped = append(t.Dropped, PlanNote{By: owner, Line: slices.Clone(l), Err: err})
			}
		}
		g.s.Plans[owner] = nil
		return t, nil
	}
	g.followPlan(owner, c)
	return Turn{Reply: reply, Planned: true}, nil
}

// place places the marble of the player to move at c at time now, or
// returns the engine's rule error and leaves the game unchanged; planned
// marks the move as a planned reply.
func (g *Game) place(c engine.Cell, now time.Time, planned bool) error {
	next := g.pos
	if err := next.Play(c); err != nil {
		return err
	}
	if next.IsOver() {
		r, err := newResult(&next, g.s.Rules, Normal, 0, false, now)
		if err != nil {
			return err
		}
		g.s.Result = r
		g.s.Plans = [2][]Line{}
	}
	if by := g.ToMove(); g.whole() && g.clocked(by) {
		g.s.Clocks[by] = min(g.left(now)+g.s.Increment, 2*g.s.MoveTime)
	}
	g.pos = next
	g.s.Moves = append(g.s.Moves, Move{Cell: c, At: now, Planned: planned})
	g.s.DrawOffer = nil
	g.startTurn(now)
	return nil
}

// CheckTurn returns nil if the player of colour by may move now, else
// engine.ErrGameOver once the game has ended and ErrNotYourTurn on the
// opponent's turn. Play checks the same.
func (g *Game) CheckTurn(by engine.Color) error {
	switch {
	case g.s.Result != nil:
		return engine.ErrGameOver
	case by != g.ToMove():
		return ErrNotYourTurn
	}
	return nil
}
