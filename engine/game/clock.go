package game

import (
	"time"

	"github.com/kulami/kulami/engine"
)

// ComputerGrace is how long after the computer's turn began a scheduler
// waits before it makes sure the computer moves (Wake): the move is
// normally made at once, by a job queued when the turn began; the wake-up
// catches a move lost to a restart.
const ComputerGrace = 30 * time.Second

// reminderShares are the parts of the move time left when a reminder is
// due: at half the time, and with a tenth left.
var reminderShares = [...]time.Duration{2, 10}

// startTurn starts the clock of the player to move at now: a deadline
// MoveTime away for a person, none for the computer or once the game is
// over.
func (g *Game) startTurn(now time.Time) {
	g.s.Reminders, g.s.Deadline = 0, time.Time{}
	if g.s.Result == nil && g.clocked(g.ToMove()) {
		g.s.Deadline = now.Add(g.s.MoveTime)
	}
}

// clocked reports whether the player of colour c plays against the clock:
// a person, in a game with a move time.
func (g *Game) clocked(c engine.Color) bool {
	return !g.Player(c).IsAI() && g.s.MoveTime > 0
}

// turnStart returns when the current turn began: the last move, or the
// start of the game.
func (g *Game) turnStart() time.Time {
	if n := len(g.s.Moves); n > 0 {
		return g.s.Moves[n-1].At
	}
	return g.s.Created
}

// Reminders returns how many reminders were sent for the current turn.
func (g *Game) Reminders() int { return int(g.s.Reminders) }

// nextReminder returns when the next reminder of the turn is due, or false
// when none is left (or no clock runs).
func (g *Game) nextReminder() (time.Time, bool) {
	if g.s.Deadline.IsZero() || int(g.s.Reminders) >= len(reminderShares) {
		return time.Time{}, false
	}
	return g.s.Deadline.Add(-g.s.MoveTime / reminderShares[g.s.Reminders]), true
}

// Wake returns when a scheduler must next look at the game: the next
// reminder, else the deadline; on the computer's turn, ComputerGrace after
// it began. It is zero when nothing is to be done (the game is over, or no
// clock runs).
func (g *Game) Wake() time.Time {
	switch {
	case g.s.Result != nil:
		return time.Time{}
	case g.Player(g.ToMove()).IsAI():
		return g.turnStart().Add(ComputerGrace)
	}
	if t, ok := g.nextReminder(); ok {
		return t
	}
	return g.s.Deadline
}

// Remind marks as sent the reminders of the player to move that are due at
// time now (both, if the first was missed), so that none is sent twice. It
// returns ErrNotDue if none is due, engine.ErrGameOver if the game has
// ended.
func (g *Game) Remind(now time.Time) error {
	if g.s.Result != nil {
		return engine.ErrGameOver
	}
	sent := g.s.Reminders
	for t, ok := g.nextReminder(); ok && !t.After(now); t, ok = g.nextReminder() {
		g.s.Reminders++
	}
	if g.s.Reminders == sent {
		return ErrNotDue
	}
	return nil
}

// Extend gives the player to move d more time: the deadline moves d later,
// and the reminders with it. It is for time that was not the player's to
// use (the bot was down). ErrNotDue if no clock runs; engine.ErrGameOver if
// the game has ended.
func (g *Game) Extend(d time.Duration) error {
	switch {
	case g.s.Result != nil:
		return engine.ErrGameOver
	case g.s.Deadline.IsZero():
		return ErrNotDue
	case d <= 0:
		return invalid("an extension of %v", d)
	}
	g.s.Deadline = g.s.Deadline.Add(d)
	return nil
}
