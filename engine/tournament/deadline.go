package tournament

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
	"github.com/kulami/kulami/engine/game"
)

// The reasons of an adjudication, as Game.Reason keeps them.
const (
	ReasonSolver = "exact solver"     // the exact solver's result
	ReasonHard   = "hard evaluation " // the hard level's evaluation, followed by its chance for the player to move ("56%")
	ReasonGone   = "no game"          // the game was gone: a draw
)

// Verdict is the result an adjudication gives a game, and how it was
// reached (a Reason).
type Verdict struct {
	Result Result
	Reason string
}

// EndOnTime ends g, the game ref of the current round left unfinished at
// the round's deadline (now is at or after it), if its clocks decide it:
// a player who has not made their first move forfeits it (game.Unstarted,
// recorded by GameEnded as a Forfeit), and a clock that ran out before the
// deadline loses on time (a claim not made is made for the opponent).
// That is game.Game.Timeout at the game's cutoff, the round's deadline
// (set here on a game opened without it). It reports whether g ended; a
// game in which both players moved is left to Judge (false, nil). It
// returns ErrNoSuchGame for a game not of the current round and
// ErrRoundNotComplete before the deadline.
func (t *Tournament) EndOnTime(ref GameRef, g *game.Game, now time.Time) (bool, error) {
	if _, err := t.Game(ref); err != nil || ref.Round != len(t.s.Rounds) {
		return false, ErrNoSuchGame
	}
	deadline := t.s.Rounds[ref.Round-1].Deadline
	if now.Before(deadline) {
		return false, ErrRoundNotComplete
	}
	if err := g.Cut(deadline); err != nil {
		return false, err
	}
	switch err := g.Timeout(now); {
	case errors.Is(err, game.ErrNotDue):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// Judge adjudicates g, the game ref, left unfinished at the round's
// deadline after both players moved in it: with 20 holes or fewer left,
// the exact solver's result if it proves it in time; otherwise the result
// the hard level's evaluation of the position favours: a win for the side
// it gives more than half the chances, a draw at exactly half. think is
// the search's time (package ai's default if 0). It returns the Verdict
// for Adjudicate, ErrNotAdjudicable for a game in which a player has not
// moved (EndOnTime forfeits it: a player who never moved never wins by
// an evaluation), ErrNotInGame for a game of other players, and ctx's
// error.
func (t *Tournament) Judge(ctx context.Context, ref GameRef, g *game.Game, think time.Duration) (Verdict, error) {
	tg, err := t.Game(ref)
	if err != nil {
		return Verdict{}, err
	}
	if g.Player(g.First()).UserID != tg.First {
		return Verdict{}, ErrNotInGame
	}
	if g.Ply() < 2 {
		return Verdict{}, ErrNotAdjudicable
	}
	cfg := ai.Hard.Config()
	if think > 0 {
		cfg.Time = think
	}
	pos := g.Position()
	if engine.MaxPly-pos.Ply() <= cfg.SolvePlies {
		cfg.SolveAlongside = false // the solver first, with half the time
	}
	m, err := cfg.Move(ctx, pos, g.Rules())
	if err != nil {
		return Verdict{}, err
	}
	mover := g.Player(pos.ToMove()).UserID
	res := Drawn
	switch {
	case m.WinChance > 0.5 && mover == tg.First, m.WinChance < 0.5 && mover != tg.First:
		res = FirstWon
	case m.WinChance != 0.5:
		res = SecondWon
	}
	if m.Proven {
		return Verdict{Result: res, Reason: ReasonSolver}, nil
	}
	return Verdict{Result: res, Reason: fmt.Sprintf("%s%.0f%%", ReasonHard, 100*m.WinChance)}, nil
}

// Gone adjudicates the game ref, which was gone at the round's deadline
// (it ended without a result: its channel was deleted), as a draw.
func (t *Tournament) Gone(ref GameRef, now time.Time) error {
	return t.Adjudicate(ref, Drawn, ReasonGone, now)
}
