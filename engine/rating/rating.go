package rating

// MaxRD is the largest rating deviation a Rating can have: the RD of a new,
// unrated player (Glickman's step 1). Inactivity and surprising results can
// only make a rating as uncertain as knowing nothing about the player, so RD
// is clamped here, as Glicko-1 does ("RD = min(..., 350)") and as lichess
// clamps at its own initial RD. The Glicko-2 paper sets no bound.
const MaxRD = 350

// ProvisionalRD is the rating deviation at or above which a rating is
// provisional. It is the threshold lichess uses for the "?" after a rating:
// a 95% interval of ±220 points is too wide to rank a player by. A new
// player (RD 350) gets below it after 10 to 15 games.
const ProvisionalRD = 110

// Rating is a player's Glicko-2 rating on the familiar (Glicko-1) scale:
// Rating around 1500, RD its standard deviation, Volatility the expected
// fluctuation of the rating between periods. The player is believed to be
// within Rating ± 2·RD with about 95% confidence.
//
// A valid Rating has finite fields, 0 < RD ≤ MaxRD and Volatility > 0; New
// returns one, and the functions of this package keep it valid. Rating is a
// plain value, safe to copy and to use from many goroutines.
type Rating struct {
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
}

// New returns the rating of a player who has never played: 1500, RD 350,
// volatility 0.06, the values of Glickman's step 1.
func New() Rating {
	return Rating{Rating: 1500, RD: MaxRD, Volatility: 0.06}
}

// Provisional reports whether r is still too uncertain to rank the player,
// that is whether its RD is at least ProvisionalRD. The leaderboard marks
// such players (lichess shows "1500?").
func Provisional(r Rating) bool {
	return r.RD >= ProvisionalRD
}
