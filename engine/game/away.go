package game

import (
	"time"

	"github.com/kulami/kulami/engine"
)

// Away tells the game that the player of colour c is away (on vacation:
// see Vacation) from time now: while it is their turn, their clock is
// stopped, holding the time it had; it starts stopped when their turn
// comes. Their opponent's clock runs as usual. A clock that has already
// run out is not stopped. It returns engine.ErrGameOver once the game has
// ended, ErrNotAPlayer for the computer, ErrLiveGame for a game played
// at one sitting (MoveTime.Pauses: no pause holds its clocks back, and
// the player is not marked away in it) and ErrOnVacation if c is away already.
func (g *Game) Away(c engine.Color, now time.Time) error {
	c &= 1
	switch {
	case g.s.Result != nil:
		return engine.ErrGameOver
	case g.Player(c).IsAI():
		return ErrNotAPlayer
	case !g.pauses():
		return ErrLiveGame
	case !g.s.Away[c].IsZero():
		return ErrOnVacation
	}
	g.s.Away[c] = now
	if c == g.ToMove() && !g.s.Deadline.IsZero() && !g.s.Late && now.Before(g.s.Deadline) {
		g.s.Stopped, g.s.Deadline = g.left(now), time.Time{}
	}
	return nil
}

// Back tells the game that the player of colour c is back at time now: a
// clock of theirs that was stopped runs again from now with the time it
// held (its deadline set as every deadline: weekends, quiet hours). It
// returns engine.ErrGameOver once the game has ended and ErrNotOnVacation
// if c was not away.
func (g *Game) Back(c engine.Color, now time.Time) error {
	c &= 1
	switch {
	case g.s.Result != nil:
		return engine.ErrGameOver
	case g.s.Away[c].IsZero():
		return ErrNotOnVacation
	}
	g.s.Away[c] = time.Time{}
	if c == g.ToMove() && g.s.Stopped > 0 {
		g.runClock(g.s.Stopped, now)
	}
	return nil
}

// AwaySince returns since when the player of colour c is away; zero if
// they are not.
func (g *Game) AwaySince(c engine.Color) time.Time { return g.s.Away[c&1] }

// Stopped reports whether the clock of the player to move is stopped
// because they are away, and the time it holds.
func (g *Game) Stopped() (time.Duration, bool) { return g.s.Stopped, g.s.Stopped > 0 }
