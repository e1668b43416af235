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
// their time away (MoveTime, or for the whole game what their clock holds)
// for a person, none for the computer or once the game is over. The clock
// of a player who is away starts stopped.
func (g *Game) startTurn(now time.Time) {
	g.s.Reminders, g.s.Deadline, g.s.Stopped, g.s.Late = 0, time.Time{}, 0, false
	c := g.ToMove()
	if g.s.Result != nil || !g.clocked(c) {
		return
	}
	left := g.s.MoveTime
	if g.whole() {
		left = g.s.Clocks[c]
	}
	g.runClock(left, now)
}

// runClock sets the clock of the player to move, with left on it, going
// from now; stopped instead if they are away.
func (g *Game) runClock(left time.Duration, now time.Time) {
	c := g.ToMove()
	g.s.Late = false
	if !g.s.Away[c].IsZero() {
		g.s.Deadline, g.s.Stopped = time.Time{}, left
		return
	}
	g.s.Stopped = 0
	g.s.Deadline = g.deadline(c, now, left)
}

// deadline returns when a clock of the player of colour c started at from
// with left on it runs out: left later, not counting their weekends if
// the game pauses over weekends, then moved out of their quiet hours
// (fit); a live game's, left later (MoveTime.Pauses).
func (g *Game) deadline(c engine.Color, from time.Time, left time.Duration) time.Time {
	d := from.Add(left)
	if g.s.Weekends {
		d = advance(from, left, g.zone(c))
	}
	return g.fit(c, d).In(from.Location())
}

// fit returns the deadline d of the player of colour c moved out of their
// quiet hours (Quiet.fit), or d itself in a game under an hour, whose
// players sit at the board: quiet hours hold no such clock back.
func (g *Game) fit(c engine.Color, d time.Time) time.Time {
	if !g.pauses() {
		return d
	}
	return g.s.Quiet[c&1].fit(d, g.zone(c))
}

// pauses reports whether pauses hold g's clocks back (MoveTime.Pauses):
// a vacation, weekends, quiet hours.
func (g *Game) pauses() bool { return g.Clock().Pauses() }

// zone returns the time zone of the player of colour c.
func (g *Game) zone(c engine.Color) *time.Location {
	if z := g.zones[c&1]; z != nil {
		return z
	}
	return time.UTC
}

// left returns the time left at now on the clock of the player to move:
// what a stopped clock holds, else the time it runs until the deadline;
// 0 when it ran out or no clock runs.
func (g *Game) left(now time.Time) time.Duration {
	switch {
	case g.s.Stopped > 0:
		return g.s.Stopped
	case g.s.Deadline.IsZero() || g.s.Late:
		return 0
	case g.s.Weekends:
		return running(now, g.s.Deadline, g.zone(g.ToMove()))
	}
	return max(0, g.s.Deadline.Sub(now))
}

// TimeLeft returns the time on the clock of the player of colour c at
// now: for the player to move, what is left of it (0 once it ran out);
// for the other, what their next turn starts with. 0 when they have no
// clock.
func (g *Game) TimeLeft(c engine.Color, now time.Time) time.Duration {
	switch {
	case g.s.Result != nil || !g.clocked(c):
		return 0
	case c == g.ToMove():
		return g.left(now)
	case g.whole():
		return g.s.Clocks[c&1]
	}
	return g.s.MoveTime
}

// Clock returns the game's move clock: MoveTime as its start, the
// increment and the kind.
func (g *Game) Clock() MoveTime {
	return MoveTime{Start: g.s.MoveTime, Increment: g.s.Increment, Kind: g.s.Kind}
}

// whole reports whether the clocks carry over from turn to turn (a clock
// for the whole game, MoveTime.Whole): each holds what it had when its
// player last moved, plus the increment.
func (g *Game) whole() bool { return g.Clock().Whole() }

// Weekends reports whether the clocks stop over each player's weekend.
func (g *Game) Weekends() bool { return g.s.Weekends }

// WeekendPause reports whether, at now, the running clock of the player to
// move is paused for their weekend, and until when (Monday 00:00 in their
// time zone). It is false in a game without weekend pause, once the game
// is over, and when no clock runs (the computer's turn, a clock stopped
// for a vacation or run out).
func (g *Game) WeekendPause(now time.Time) (time.Time, bool) {
	if !g.s.Weekends || g.s.Result != nil || g.s.Deadline.IsZero() || g.s.Late || !now.Before(g.s.Deadline) {
		return time.Time{}, false
	}
	sat, mon := weekendOf(now, g.zone(g.ToMove()))
	if now.Before(sat) {
		return time.Time{}, false
	}
	return mon, true
}

// PauseChange returns when, after now, WeekendPause next changes its
// answer: the end (Monday 00:00 of the player to move) of the weekend
// pause under way, or the start (Saturday 00:00) of their next one if it
// comes before their deadline; zero when neither comes (no weekend pause,
// no clock running). What a board says of the clock changes then, with
// no move: its adapter may show it again.
func (g *Game) PauseChange(now time.Time) time.Time {
	if !g.s.Weekends || g.s.Result != nil || g.s.Deadline.IsZero() || g.s.Late || !now.Before(g.s.Deadline) {
		return time.Time{}
	}
	sat, mon := weekendOf(now, g.zone(g.ToMove()))
	switch {
	case !now.Before(sat):
		return mon
	case sat.Before(g.s.Deadline):
		return sat
	}
	return time.Time{}
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

// live reports whether g is played at one sitting (MoveTime.Live): no
// reminders, and a clock that runs out ends the game at once.
func (g *Game) live() bool {
	return g.Clock().Live()
}

// Reminders returns how many reminders were sent for the current turn.
func (g *Game) Reminders() int { return int(g.s.Reminders) }

// nextReminder returns when the next reminder of the turn is due, or false
// when none is left (or no clock runs).
//
// A reminder is due when the part of the move time its share says is
// left on the clock (counted as the clock runs: weekends it stops over
// do not count), or, if that falls in the player's quiet hours, when
// they end.
func (g *Game) nextReminder() (time.Time, bool) {
	if g.s.Deadline.IsZero() || g.s.Late || int(g.s.Reminders) >= len(reminderShares) || g.live() {
		return time.Time{}, false
	}
	c := g.ToMove()
	share := g.s.MoveTime / reminderShares[g.s.Reminders]
	t := g.s.Deadline.Add(-share)
	if g.s.Weekends {
		t = retreat(g.s.Deadline, share, g.zone(c))
	}
	return g.s.Quiet[c].after(t, g.zone(c)).In(g.s.Deadline.Location()), true
}

// Wake returns when a scheduler must next look at the game: the next
// reminder, else the deadline; once the clock ran out in a game of
// claims, the end of the ClaimWindow; on the computer's turn,
// ComputerGrace after it began. It is zero when nothing is to be done (the
// game is over, or no clock runs, or it is stopped).
func (g *Game) Wake() time.Time {
	switch {
	case g.s.Result != nil:
		return time.Time{}
	case g.Player(g.ToMove()).IsAI():
		return g.turnStart().Add(ComputerGrace)
	case g.s.Late:
		return g.s.Deadline.Add(ClaimWindow)
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
// and the reminders with it (then out of the player's quiet hours, as
// every deadline). It is for time that was not the player's to use (the
// bot was down). A clock that ran out in a game of claims stays run out:
// the claim window moves d later with it. ErrNotDue if no clock runs (or it
// is stopped: the player is away); engine.ErrGameOver if the game has
// ended.
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
	if !g.s.Late {
		g.s.Deadline = g.fit(g.ToMove(), g.s.Deadline).In(g.s.Deadline.Location())
	}
	return nil
}
