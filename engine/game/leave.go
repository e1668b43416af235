package game

import (
	"errors"
	"time"
)

// StartVacation starts at now the vacation of the player userID, whose
// bank is v and whose running games are games: the bank opened if it
// never was (Open), started (Vacation.Start), and each game told that the
// player is away (Game.Away), so that their clock stops whenever it is
// their move. A live game's clock never stops (ErrLiveGame): StartVacation
// returns those games, which the vacation leaves running, for the player
// to be told; the others it stops. A game in which the player is away
// already stays so, and one they do not play in is left alone.
//
// It returns the refusals of Vacation.Start (ErrVacationsOff,
// ErrOnVacation, ErrBankEmpty) changing nothing; another error of Away
// leaves the bank and the games changed in part, for the caller to drop
// (as the store does when its transaction's function fails).
func StartVacation(v *Vacation, userID string, games []*Game, now time.Time, limit time.Duration) (live []*Game, err error) {
	c := *v
	c.Open(games, now)
	if err := c.Start(now, limit); err != nil {
		return nil, err
	}
	*v = c
	for _, g := range games {
		col, err := g.Seat(userID)
		if err != nil {
			continue
		}
		switch err := g.Away(col, now); {
		case errors.Is(err, ErrLiveGame):
			live = append(live, g)
		case err != nil && !errors.Is(err, ErrOnVacation):
			return nil, err
		}
	}
	return live, nil
}

// EndVacation ends at now (or when it ran out, if earlier: Vacation.End)
// the vacation of the player userID, whose bank is v and whose running
// games are games, and tells each game that they are back (Game.Back):
// their clocks run again, each with the time it held. It returns
// ErrNotOnVacation, changing nothing, if no vacation is under way; another
// error of Back leaves the bank and the games changed in part, for the
// caller to drop.
func EndVacation(v *Vacation, userID string, games []*Game, now time.Time, limit time.Duration) error {
	if err := v.End(now, limit); err != nil {
		return err
	}
	for _, g := range games {
		col, err := g.Seat(userID)
		if err != nil {
			continue
		}
		if err := g.Back(col, now); err != nil && !errors.Is(err, ErrNotOnVacation) {
			return err
		}
	}
	return nil
}
