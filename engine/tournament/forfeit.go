package tournament

import (
	"fmt"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

// Side is what a tournament game that ended as a forfeit (game.Unstarted)
// was for one of its players: the one truth a player's history and the
// game's record tell, as the board, the pairings and the standings do.
type Side uint8

const (
	NotForfeited  Side = iota // the game did not end as a forfeit
	WonByForfeit              // the opponent did not make their first move
	LostByForfeit             // the player did not make theirs, or neither player of the pairing did (a double forfeit)
)

// ForfeitSide returns what a tournament game that ended as res was for
// the player of colour c; double says its pairing was a double forfeit
// (Pairing.DoubleForfeit), where both players lose.
func ForfeitSide(res *game.Result, c engine.Color, double bool) Side {
	switch {
	case res == nil || res.Ending != game.Unstarted:
		return NotForfeited
	case double || res.Winner != c:
		return LostByForfeit
	}
	return WonByForfeit
}

// ForfeitResult is the Result tag of the record (RECORD.md) of a
// tournament game that ended as res, a forfeit: "Black wins by forfeit,
// Red did not make a first move", or, for a pairing that was a double
// forfeit, "Double forfeit, Red did not make a first move"; "" when the
// game did not end as a forfeit (its own tag, game.Result.String, says it).
func ForfeitResult(res *game.Result, double bool) string {
	if res == nil || res.Ending != game.Unstarted {
		return ""
	}
	w, l := res.Winner, res.Winner.Other()
	if double {
		return fmt.Sprintf("Double forfeit, %s did not make a first move", l.Title())
	}
	return fmt.Sprintf("%s wins by forfeit, %s did not make a first move", w.Title(), l.Title())
}
