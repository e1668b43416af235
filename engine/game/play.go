package game

import (
	"time"

	"github.com/kulami/kulami/engine"
)

// Play places a marble of colour by at cell c at time now, for a player
// who saw the game at ply seen (the board they clicked; the current ply for
// a typed move). It returns, and leaves the game unchanged:
// engine.ErrGameOver once the game has ended, ErrStale if the game has
// moved past seen, ErrNotYourTurn if by is not to move, and the engine's
// rule error (engine.ErrOffBoard, ErrOccupied, ErrNotInLine, ErrSamePanel,
// ErrPreviousPanel) for an illegal hole.
//
// A move withdraws any draw offer and starts the opponent's clock. A move
// that ends the game (RULES.md: all marbles placed, or no legal hole for
// the next player) sets the Result, ending Normal.
func (g *Game) Play(by engine.Color, seen int, c engine.Cell, now time.Time) error {
	switch {
	case g.s.Result != nil:
		return engine.ErrGameOver
	case seen != g.Ply():
		return ErrStale
	}
	if err := g.CheckTurn(by); err != nil {
		return err
	}
	next := g.pos
	if err := next.Play(c); err != nil {
		return err
	}
	if next.IsOver() {
		r, err := newResult(&next, g.s.Rules, Normal, 0, now)
		if err != nil {
			return err
		}
		g.s.Result = r
	}
	g.pos = next
	g.s.Moves = append(g.s.Moves, Move{Cell: c, At: now})
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
