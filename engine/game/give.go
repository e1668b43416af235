package game

import (
	"time"

	"github.com/kulami/kulami/engine"
)

// GiveStep is the most time one GiveTime adds: a day, or the move time
// if that is shorter.
const GiveStep = 24 * time.Hour

// GiveTime adds, at the wish of the player of colour by, time to the clock
// of their opponent, who is to move: GiveStep, or the move time if that is
// shorter. The clock may then hold at most twice the move time (its start,
// with an increment). A clock that ran out in a game of claims runs again
// with the time given (the claim lapses); a stopped clock (the opponent is
// away) holds it for when it starts. The deadline is set as every deadline
// (weekends, quiet hours); the reminders already sent stay sent.
//
// It returns engine.ErrGameOver once the game has ended, ErrNotAPlayer for
// the computer, ErrOwnTurn when it is by's turn, ErrNoClock when the
// opponent has no clock and ErrTimeLimit when the clock would hold more
// than twice the move time.
func (g *Game) GiveTime(by engine.Color, now time.Time) error {
	switch {
	case g.s.Result != nil:
		return engine.ErrGameOver
	case g.Player(by).IsAI():
		return ErrNotAPlayer
	case by == g.ToMove():
		return ErrOwnTurn
	case !g.clocked(g.ToMove()):
		return ErrNoClock
	}
	left := g.left(now) + min(GiveStep, g.s.MoveTime)
	if left > 2*g.s.MoveTime {
		return ErrTimeLimit
	}
	g.runClock(left, now)
	return nil
}
