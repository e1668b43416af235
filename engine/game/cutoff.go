package game

import (
	"time"

	"github.com/kulami/kulami/engine"
)

// Cut sets the game's cutoff at the time at, the latest moment the game
// may be decided by its players (as a tournament round's deadline; the
// doc's "Cutoff" says what it does), or moves an earlier cutoff to at
// only if at is earlier still. It returns engine.ErrGameOver once the
// game has ended, and an error wrapping ErrInvalid for a cutoff that is
// not after the game's start.
func (g *Game) Cut(at time.Time) error {
	switch {
	case g.s.Result != nil:
		return engine.ErrGameOver
	case !at.After(g.s.Created):
		return invalid("a cutoff of %v, not after the start %v", at, g.s.Created)
	}
	if g.s.Cutoff.IsZero() || at.Before(g.s.Cutoff) {
		g.s.Cutoff = at
	}
	return nil
}

// Lift removes the game's cutoff: from now on it is played out under its
// own clocks alone, as if it never had one (the time its clocks hold is
// theirs, untouched by the cutoff). It returns engine.ErrGameOver once the
// game has ended.
func (g *Game) Lift() error {
	if g.s.Result != nil {
		return engine.ErrGameOver
	}
	g.s.Cutoff = time.Time{}
	return nil
}

// Cutoff returns the game's cutoff (Cut), or zero if it has none.
func (g *Game) Cutoff() time.Time { return g.s.Cutoff }

// MoveCutoff returns the cutoff of the player to move: the game's, or,
// before the first move, the game's less the share kept for the reply
// (MaxReplyShare); zero if the game has none.
func (g *Game) MoveCutoff() time.Time { return g.limit() }

// MaxReplyShare is the most of the time before a cutoff that is kept for
// the second player's first move (replyShare).
const MaxReplyShare = 24 * time.Hour

// replyShare returns the time before the cutoff kept for the second
// player's first move: MaxReplyShare, or half the time from the game's
// start to the cutoff if that is less. The first move is due that long
// before the cutoff (limit), so that a first move made at the last moment
// leaves the opponent time to answer rather than a forfeit.
func (g *Game) replyShare() time.Duration {
	return min(MaxReplyShare, g.s.Cutoff.Sub(g.s.Created)/2)
}

// limit returns the cutoff that binds the player to move: the cutoff, or,
// before the first move, the cutoff less the reply's share (replyShare);
// zero if the game has no cutoff.
func (g *Game) limit() time.Time {
	if g.s.Cutoff.IsZero() || g.Ply() > 0 {
		return g.s.Cutoff
	}
	return g.s.Cutoff.Add(-g.replyShare())
}

// cut reports whether the cutoff of the player to move (limit) has come
// at now.
func (g *Game) cut(now time.Time) bool {
	l := g.limit()
	return !l.IsZero() && !now.Before(l)
}

// outrun reports whether the clock of the player to move runs out before
// their cutoff (limit; or the game has none), so that the clock, not the
// cutoff, decides what happens when it runs out.
func (g *Game) outrun() bool {
	l := g.limit()
	return l.IsZero() || !g.s.Deadline.IsZero() && g.s.Deadline.Before(l)
}

// due returns when the player to move must have moved: the deadline of
// their clock, or their cutoff (limit) if that comes first; zero when no
// clock runs (or it is stopped).
func (g *Game) due() time.Time {
	if g.s.Deadline.IsZero() || g.outrun() {
		return g.s.Deadline
	}
	return g.limit()
}

// cutoffWake returns when a scheduler must look at the game for its clock
// once the reminders are sent: when the clock of the player to move runs
// out before the cutoff; else at the cutoff if Timeout ends the game then
// (the player to move has not made a first move); else zero, since the
// game is then its judge's.
func (g *Game) cutoffWake() time.Time {
	switch {
	case g.outrun():
		return g.s.Deadline
	case g.unstarted():
		return g.limit()
	}
	return time.Time{}
}

// unstarted reports whether the player to move is a person who has not
// made their first move.
func (g *Game) unstarted() bool {
	return g.Ply() < 2 && !g.Player(g.ToMove()).IsAI()
}

// timeoutAtCutoff is Timeout at or after the cutoff: the player to move
// who has not made a first move forfeits (Unstarted), whatever their clock
// holds; one whose clock ran out before the cutoff (a claim waiting, or
// not yet marked late) loses on time; a game where both moved is left to
// its judge (ErrNotDue).
func (g *Game) timeoutAtCutoff(now time.Time) error {
	switch {
	case g.unstarted():
		return g.finish(Unstarted, g.ToMove(), false, now)
	case g.s.Late || g.outrun() && !g.s.Deadline.IsZero():
		return g.finish(TimedOut, g.ToMove(), false, now)
	}
	return ErrNotDue
}
