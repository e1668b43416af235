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
	return g.finish(Resigned, by, now)
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
	return g.finish(Aborted, by, now)
}

// Timeout ends the game at time now if the player to move has run out of
// time: they lose (TimedOut) or, if they have not made their first move
// yet, the game never really started and counts for nobody (Unstarted, as
// the large chess servers do). ErrNotDue if no clock runs or time is left;
// engine.ErrGameOver if the game has ended.
func (g *Game) Timeout(now time.Time) error {
	switch {
	case g.s.Result != nil:
		return engine.ErrGameOver
	case g.s.Deadline.IsZero() || now.Before(g.s.Deadline):
		return ErrNotDue
	case g.Ply() < 2:
		return g.finish(Unstarted, g.ToMove(), now)
	}
	return g.finish(TimedOut, g.ToMove(), now)
}

// Abandon ends the game at time now because it cannot go on (the place
// where it was played is gone): it counts for nobody. engine.ErrGameOver if
// the game has ended.
func (g *Game) Abandon(now time.Time) error {
	return g.finish(Abandoned, 0, now)
}

// finish ends the game at time now as ending says; loser is the player who
// resigned or ran out of time, ignored for the other endings.
func (g *Game) finish(ending Ending, loser engine.Color, now time.Time) error {
	if g.s.Result != nil {
		return engine.ErrGameOver
	}
	r, err := newResult(&g.pos, g.s.Rules, ending, loser, now)
	if err != nil {
		return err
	}
	g.s.Result, g.s.DrawOffer = r, nil
	g.startTurn(now)
	return nil
}
