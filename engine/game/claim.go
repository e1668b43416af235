package game

import (
	"time"

	"github.com/kulami/kulami/engine"
)

// ClaimWindow is how long the opponent of a player who ran out of time
// has to claim the win in a game of claims; a claim not made by then is
// made for them (the game ends as under Auto).
const ClaimWindow = 7 * 24 * time.Hour

// Timeouts is what a clock that runs out does.
type Timeouts uint8

// The ways a game treats a clock that runs out.
const (
	// Auto ends the game at once: the late player loses on time.
	Auto Timeouts = iota
	// Claim ends it only when the opponent claims the win (or after the
	// ClaimWindow); until then the late player may still move.
	Claim
)

var timeoutsNames = [...]string{"auto", "claim"}

// String returns the name: auto or claim.
func (t Timeouts) String() string { return name(timeoutsNames[:], "Timeouts", t) }

// MarshalText writes t's name.
func (t Timeouts) MarshalText() ([]byte, error) { return marshalName(timeoutsNames[:], "timeouts", t) }

// UnmarshalText reads a name that MarshalText writes.
func (t *Timeouts) UnmarshalText(b []byte) error {
	return unmarshalName(timeoutsNames[:], "timeouts", b, t)
}

// Timeouts returns what the game does when a clock runs out.
func (g *Game) Timeouts() Timeouts { return g.s.Timeouts }

// Claimable returns, in a game of claims whose clock ran out, when it
// ran out and who may claim the win (the opponent of the player to move);
// ok is false otherwise (also when the clock runs out only at or after
// the game's cutoff, which decides instead). It answers from the clock at
// now, so the claim is open from the deadline on, before Timeout marks it.
func (g *Game) Claimable(now time.Time) (since time.Time, by engine.Color, ok bool) {
	switch {
	case g.s.Result != nil || g.s.Timeouts != Claim || g.s.Deadline.IsZero() || g.Ply() < 2 || !g.outrun():
		return time.Time{}, 0, false
	case !g.s.Late && now.Before(g.s.Deadline):
		return time.Time{}, 0, false
	}
	return g.s.Deadline, g.ToMove().Other(), true
}

// Claim ends the game at time now as a win on time for the player of
// colour by, claimed (Result.Claimed): the clock of their opponent, to
// move, ran out in a game of claims. It returns engine.ErrGameOver once
// the game has ended, ErrNotClaimable if no clock ran out (or the game
// ends by itself: Auto, or before both players moved) and ErrNotClaimant
// if by is the late player.
func (g *Game) Claim(by engine.Color, now time.Time) error {
	if g.s.Result != nil {
		return engine.ErrGameOver
	}
	_, claimant, ok := g.Claimable(now)
	switch {
	case !ok:
		return ErrNotClaimable
	case by != claimant:
		return ErrNotClaimant
	}
	if err := g.finish(TimedOut, claimant.Other(), false, now); err != nil {
		return err
	}
	g.s.Result.Claimed = true
	return nil
}
