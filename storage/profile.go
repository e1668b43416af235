package storage

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
)

// Tally counts the outcomes of rated games.
type Tally struct {
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	Draws  int `json:"draws"`
}

// Games returns the number of games counted.
func (t Tally) Games() int { return t.Wins + t.Losses + t.Draws }

// add counts one game of outcome o; a game without contest counts for
// nothing.
func (t *Tally) add(o game.Outcome) {
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
	OpponentID     string  `json:"opponent"` // the opponent's Player.ProfileID
	OpponentName   string  `json:"opponent_name"`
	OpponentRating float64 `json:"opponent_rating"`
}

// Profile is a player's standing on one ladder of one guild. A profile
// exists from the player's first game that counted (aborted games do not).
// It is a plain value, not safe for concurrent use.
type Profile struct {
	GuildID string `json:"guild,omitempty"`
	// UserID is the player's Player.ProfileID: a Discord user ID, or
	// "ai:" and the level for the computer opponent.
	UserID string        `json:"user"`
	Name   string        `json:"name"` // as in the player's latest game
	Ladder Ladder        `json:"ladder"`
	Rating rating.Rating `json:"rating"`
	Tally
	// Streak is the current run of wins (positive) or losses (negative);
	// 0 after a draw.
	Streak     int       `json:"streak"`
	BestWin    *BestWin  `json:"best_win,omitempty"`
	LastPlayed time.Time `json:"last_played"`
}

// RatingChange is a player's rating before and after a game. Before
// includes the growth of the rating deviation since the player's previous
// game (see Options.RatingPeriod).
type RatingChange struct {
	Before rating.Rating `json:"before"`
	After  rating.Rating `json:"after"`
}

// RatingPoint is a player's rating after one game, for a trend.
type RatingPoint struct {
	GameID uint64
	At     time.Time
	Rating rating.Rating
}

// RankKey returns the key that orders profiles on a leaderboard, bytes
// compared in order: by rating (higher first), games played (more first),
// name (ignoring case) and ID. Backends index profiles by it.
func (p *Profile) RankKey() []byte {
	return key(nil).u64(^orderedFloat(p.Rating.Rating)).u64(^uint64(p.Games())).
		str(strings.ToLower(p.Name)).str(p.UserID)
}

// orderedFloat maps f to a number that sorts as f does.
func orderedFloat(f float64) uint64 {
	b := math.Float64bits(f)
	if b>>63 == 0 {
		return b | 1<<63
	}
	return ^b
}

// outcomeScore returns o as a Glicko-2 game score.
func outcomeScore(o game.Outcome) rating.Outcome {
	switch o {
	case game.Won:
		return rating.Win
	case game.Drawn:
		return rating.Draw
	}
	return rating.Loss
}

// rate updates the profiles of both players of the finished game g and
// returns their rating changes. g must not be aborted.
func (s *Core) rate(tx Tx, g *Game) ([2]RatingChange, error) {
	var (
		change  [2]RatingChange
		p, old  [2]*Profile
		ladder  = g.Ladder()
		res     = g.Result()
		players = g.Players()
	)
	for c := range p {
		id := ProfileID(players[c])
		stored, err := tx.Profile(g.GuildID, ladder, id)
		switch {
		case isNotFound(err):
			p[c] = &Profile{GuildID: g.GuildID, UserID: id, Ladder: ladder, Rating: rating.New()}
		case err != nil:
			return change, err
		default:
			old[c] = stored
			n := *stored
			p[c] = &n
		}
		change[c].Before = s.decay(p[c].Rating, p[c].LastPlayed, res.At)
	}
	change[engine.Red].After, change[engine.Black].After = rating.Rate(
		change[engine.Red].Before, change[engine.Black].Before, outcomeScore(res.Outcome(engine.Red)))
	for c := range p {
		c := engine.Color(c)
		p[c].count(g.ID, players, res, c, change[c].After, change[c.Other()].Before)
		if err := tx.PutProfile(p[c], old[c]); err != nil {
			return change, err
		}
	}
	return change, nil
}

// count adds the finished game gameID between players, which ended with
// res, played as colour c, to p: the new rating, the tally, the streak and
// the best win (against an opponent rated opponent before the game).
func (p *Profile) count(gameID uint64, players [2]game.Player, res *game.Result, c engine.Color, after, opponent rating.Rating) {
	o := res.Outcome(c)
	p.Name, p.Rating, p.LastPlayed = players[c].Name, after, res.At
	p.Tally.add(o)
	switch o {
	case game.Won:
		p.Streak = max(p.Streak, 0) + 1
		if p.BestWin == nil || opponent.Rating > p.BestWin.OpponentRating {
			op := players[c.Other()]
			p.BestWin = &BestWin{GameID: gameID, OpponentID: ProfileID(op), OpponentName: op.Name, OpponentRating: opponent.Rating}
		}
	case game.Lost:
		p.Streak = min(p.Streak, 0) - 1
	default:
		p.Streak = 0
	}
}

// Profile returns the profile of the player with Player.ProfileID userID
// on a ladder of the guild, or an error wrapping ErrNotFound if no game of
// theirs has counted there.
func (s *Core) Profile(guildID, userID string, ladder Ladder) (*Profile, error) {
	p, err := inTx(s.b.View, func(tx Tx) (*Profile, error) { return tx.Profile(guildID, ladder, userID) })
	if err != nil {
		return nil, fmt.Errorf("guild %s, %s ladder: %w", guildID, ladder, err)
	}
	return p, nil
}

// Leaderboard returns up to limit profiles of a ladder of the guild,
// skipping the first offset, in rank order: by rating, higher first; ties
// by games played, more first, then by name and ID. total is the number
// of profiles on the ladder. limit must be positive and offset not
// negative (ErrInvalid).
func (s *Core) Leaderboard(guildID string, ladder Ladder, offset, limit int) (page []Profile, total int, err error) {
	if offset < 0 || limit <= 0 {
		return nil, 0, fmt.Errorf("leaderboard: %w: offset %d and limit %d; the offset may not be negative and the limit must be positive", ErrInvalid, offset, limit)
	}
	err = s.b.View(func(tx Tx) error {
		page, total, err = tx.Leaderboard(guildID, ladder, offset, limit)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("leaderboard of guild %s: %w", guildID, err)
	}
	return page, total, nil
}
