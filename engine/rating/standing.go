package rating

import (
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

// Tally counts the outcomes of rated games.
type Tally struct {
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	Draws  int `json:"draws"`
}

// Games returns the number of games counted.
func (t Tally) Games() int { return t.Wins + t.Losses + t.Draws }

// Add counts one game of outcome o; a game without contest counts for
// nothing.
func (t *Tally) Add(o game.Outcome) {
	switch o {
	case game.Won:
		t.Wins++
	case game.Lost:
		t.Losses++
	case game.Drawn:
		t.Draws++
	}
}

// BestWin is the highest-rated opponent a player has beaten, with the
// opponent's rating at the time of the game.
type BestWin struct {
	GameID         uint64  `json:"game"`
	OpponentID     string  `json:"opponent"` // the opponent's ID on the ladder
	OpponentName   string  `json:"opponent_name"`
	OpponentRating float64 `json:"opponent_rating"`
}

// Standing is a player's record on one ladder: their rating, the outcomes
// of their rated games, their streak and best win. The zero Standing is
// that of a player who has not played: Count starts it at New(). It is a
// plain value, JSON-friendly for storage.
type Standing struct {
	Name   string `json:"name"` // as in the player's latest game
	Rating Rating `json:"rating"`
	Tally
	// Streak is the current run of wins (positive) or losses (negative);
	// 0 after a draw.
	Streak     int       `json:"streak"`
	BestWin    *BestWin  `json:"best_win,omitempty"`
	LastPlayed time.Time `json:"last_played"`
}

// Change is a player's rating before and after a game. Before includes
// the growth of the rating deviation since the player's previous game
// (see Count).
type Change struct {
	Before Rating `json:"before"`
	After  Rating `json:"after"`
}

// Played is a finished game as a ladder counts it.
type Played struct {
	ID      uint64         // the game's ID, for a best win
	Players [2]game.Player // by colour
	IDs     [2]string      // the players' IDs on the ladder, by colour
	Result  *game.Result
}

// Count returns the standings of the red and black players after the
// finished game p, from their standings s before it, both players'
// rating changes, and whether the game counted. Only a rated game
// (game.Result.Rated: not aborted nor abandoned) counts; any other leaves
// s unchanged, with zero changes, and the players need no standing.
//
// For a rated game each player's rating deviation first grows by the
// periods of length period since their last game (Decay; no growth if
// period is not positive), then both ratings are updated by Rate. Each
// player's name and last game become the game's, the outcome is added to
// their tally, a win lengthens a winning streak (or starts one) and a
// loss a losing one, a draw ends either, and a win against a higher-rated
// opponent (by the opponent's rating before the game) than any before is
// the new best win.
func Count(s [2]Standing, p Played, period time.Duration) ([2]Standing, [2]Change, bool) {
	var change [2]Change
	res := p.Result
	if res == nil || !res.Rated() {
		return s, change, false
	}
	for c := range s {
		if s[c].Rating == (Rating{}) {
			s[c].Rating = New()
		}
		change[c].Before = decayed(s[c].Rating, s[c].LastPlayed, res.At, period)
	}
	change[engine.Red].After, change[engine.Black].After = Rate(
		change[engine.Red].Before, change[engine.Black].Before, score(res.Outcome(engine.Red)))
	for c := range s {
		c := engine.Color(c)
		s[c].count(p, c, change[c].After, change[c.Other()].Before)
	}
	return s, change, true
}

// decayed returns r grown by the periods of length period from last to
// now.
func decayed(r Rating, last, now time.Time, period time.Duration) Rating {
	if period <= 0 || last.IsZero() || !now.After(last) {
		return r
	}
	return Decay(r, float64(now.Sub(last))/float64(period))
}

// score returns o as a Glicko-2 game score.
func score(o game.Outcome) Outcome {
	switch o {
	case game.Won:
		return Win
	case game.Drawn:
		return Draw
	}
	return Loss
}

// count adds the rated game p, played as colour c, to s: the new rating
// after, the tally, the streak and the best win (against an opponent
// rated opponent before the game).
func (s *Standing) count(p Played, c engine.Color, after, opponent Rating) {
	o := p.Result.Outcome(c)
	s.Name, s.Rating, s.LastPlayed = p.Players[c].Name, after, p.Result.At
	s.Tally.Add(o)
	switch o {
	case game.Won:
		s.Streak = max(s.Streak, 0) + 1
		if s.BestWin == nil || opponent.Rating > s.BestWin.OpponentRating {
			s.BestWin = &BestWin{GameID: p.ID, OpponentID: p.IDs[c.Other()], OpponentName: p.Players[c.Other()].Name, OpponentRating: opponent.Rating}
		}
	case game.Lost:
		s.Streak = min(s.Streak, 0) - 1
	default:
		s.Streak = 0
	}
}
