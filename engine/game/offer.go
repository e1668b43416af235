package game

import (
	"time"

	"github.com/kulami/kulami/engine"
)

// OfferDraw records a draw offer by the player of colour by, standing
// until the next move. It returns engine.ErrGameOver if the game has
// ended, ErrComputerDeclines in a game against the computer and
// ErrDrawOffered if an offer already stands (by either player: see
// DrawOffer for whose).
func (g *Game) OfferDraw(by engine.Color, now time.Time) error {
	switch {
	case g.s.Result != nil:
		return engine.ErrGameOver
	case g.Player(by.Other()).IsAI():
		return ErrComputerDeclines
	case g.DrawOffer() != nil:
		return ErrDrawOffered
	}
	g.s.DrawOffer = &DrawOffer{By: by & 1, Ply: g.Ply()}
	return nil
}

// AnswerDraw answers, for the player of colour by, the draw offer made at
// ply seen: accepting ends the game drawn at time now; declining withdraws
// the offer (the player who made it may decline it too, to take it back).
// It returns engine.ErrGameOver if the game has ended, ErrNoDrawOffer if
// no offer of ply seen stands (a move was made, or it was answered), and
// ErrOwnDrawOffer if by accepts their own offer.
func (g *Game) AnswerDraw(by engine.Color, seen int, accept bool, now time.Time) error {
	d := g.DrawOffer()
	switch {
	case g.s.Result != nil:
		return engine.ErrGameOver
	case d == nil || d.Ply != seen:
		return ErrNoDrawOffer
	case accept && d.By == by:
		return ErrOwnDrawOffer
	}
	if accept {
		return g.finish(DrawAgreed, 0, false, now)
	}
	g.s.DrawOffer = nil
	return nil
}
