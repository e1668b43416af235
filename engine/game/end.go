package game

import (
	"time"

	"github.com/kulami/kulami/engine"
)

// AbortPlies is the number of moves before which a game may be aborted:
// until each player has made two moves.
const AbortPlies = 4

// Resign ends the game at time now: the player of colour by resigns and
// loses. engine.ErrGameOver if the game has ended.
func (g *Game) Resign(by engine.Color, now time.Time) error {
	return g.finish(Resigned, by, false, now)
}

// Abort calls the game off at time now without a result for anyone, at the
// wish of the player of colour by: possible only before each player has
// made two moves (ErrTooLateToAbort). engine.ErrGameOver if the game has
// ended.
func (g *Game) Abort(by engine.Color, now time.Time) error {
	switch {
	case g.s.Result != nil:
		return engine.ErrGameOver
	case g.Ply() >= AbortPlies:
		return ErrTooLateToAbort
	}
	return g.finish(Aborted, by, false, now)
}

// Timeout ends the game at time now if the player to move has run out of
// time: they lose (TimedOut) or, if they have not made their first move
// yet, the game never really started and counts for nobody (Unstarted, as
// the large chess servers do).
//
// In a game of claims (Claim) a player who has moved runs out of time
// without losing: Timeout marks the game late instead (Claimable says
// since when and who may claim), and the late player may still move. Once
// the ClaimWindow has passed with no claim and no move, Timeout ends the
// game as under Auto (TimedOut, not claimed).
//
// At or after the game's cutoff (Cut) the player to move who has not made
// their first move forfeits (Unstarted), even with a clock stopped or
// time left; one whose clock ran out before the cutoff loses on time (a
// claim not made by the cutoff is made for the opponent); a game in which
// both players moved and whose clock ran on to the cutoff is its judge's
// (ErrNotDue: Adjudicate ends it).
//
// ErrNotDue if no clock runs or time is left (or the ClaimWindow is not
// over); engine.ErrGameOver if the game has ended.
func (g *Game) Timeout(now time.Time) error {
	switch {
	case g.s.Result != nil:
		return engine.ErrGameOver
	case g.cut(now):
		return g.timeoutAtCutoff(now)
	case g.s.Late && now.Before(g.s.Deadline.Add(ClaimWindow)):
		return ErrNotDue
	case g.s.Late:
		return g.finish(TimedOut, g.ToMove(), false, now)
	case g.s.Deadline.IsZero() || now.Before(g.s.Deadline):
		return ErrNotDue
	case g.Ply() < 2:
		return g.finish(Unstarted, g.ToMove(), false, now)
	case g.s.Timeouts == Claim:
		g.s.Late = true
		return nil
	}
	return g.finish(TimedOut, g.ToMove(), false, now)
}

// Abandon ends the game at time now because it cannot go on (the place
// where it was played is gone): it counts for nobody. engine.ErrGameOver if
// the game has ended.
func (g *Game) Abandon(now time.Time) error {
	return g.finish(Abandoned, 0, false, now)
}

// Adjudicate ends the game at time now with the result a judge gave it,
// as a tournament does to a game unfinished at its round's deadline: the
// player of colour winner wins or, with draw, the game is drawn (winner is
// then ignored). It counts for the ratings as a game played out does.
// engine.ErrGameOver if the game has ended, an error wrapping ErrInvalid
// for a winner neither red nor black.
func (g *Game) Adjudicate(winner engine.Color, draw bool, now time.Time) error {
	return g.finish(Adjudicated, winner.Other(), draw, now)
}

// finish ends the game at time now as ending says; loser is the player who
// resigned, ran out of time or was judged to lose, and draw says an
// adjudicated game was judged drawn (see newResult).
func (g *Game) finish(ending Ending, loser engine.Color, draw bool, now time.Time) error {
	if g.s.Result != nil {
		return engine.ErrGameOver
	}
	r, err := newResult(&g.pos, g.s.Rules, ending, loser, draw, now)
	if err != nil {
		return err
	}
	g.s.Result, g.s.DrawOffer, g.s.Plans = r, nil, [2][]Line{}
	g.startTurn(now)
	return nil
}
