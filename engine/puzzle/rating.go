package puzzle

import "github.com/kulami/kulami/engine/rating"

// StartRD is the rating deviation a puzzle starts with: its starting
// Rating is an estimate from search (see doc.go), surer than nothing
// (rating.MaxRD) but to be corrected by the players' attempts.
const StartRD = 200

// StartRating returns the Glicko-2 rating a puzzle of starting
// difficulty d (Puzzle.Rating) starts with: d, StartRD, and a new
// player's volatility.
func StartRating(d int) rating.Rating {
	r := rating.New()
	r.Rating, r.RD = float64(d), StartRD
	return r
}

// Rate rates one attempt at a puzzle as a game of the player against the
// puzzle, a rating period of its own for both (rating.Rate): solved, the
// player wins; not solved, the puzzle does. It returns both new ratings.
func Rate(player, puzzle rating.Rating, solved bool) (newPlayer, newPuzzle rating.Rating) {
	outcome := rating.Loss
	if solved {
		outcome = rating.Win
	}
	return rating.Rate(player, puzzle, outcome)
}
