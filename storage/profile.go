package storage

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/kulami/kulami/engine/rating"
)

// Tally counts the outcomes of rated games (see rating.Tally).
type Tally = rating.Tally

// BestWin is the highest-rated opponent a player has beaten (see
// rating.BestWin); its OpponentID is the opponent's Player.ProfileID.
type BestWin = rating.BestWin

// Profile is a player's standing on one ladder of one guild: a
// rating.Standing and whose it is. A profile exists from the player's
// first game that counted (aborted games do not). It is a plain value,
// not safe for concurrent use.
type Profile struct {
	GuildID string `json:"guild,omitempty"`
	// UserID is the player's Player.ProfileID: a Discord user ID, or
	// "ai:" and the level for the computer opponent.
	UserID string `json:"user"`
	Ladder Ladder `json:"ladder"`
	// Season is the season of a profile on a seasonal ladder; zero on
	// the all-time ladder (see rating.Season).
	Season Season `json:"season,omitzero"`
	rating.Standing
}

// RatingChange is a player's rating before and after a game (see
// rating.Change). Before includes the growth of the rating deviation
// since the player's previous game (see Options.RatingPeriod).
type RatingChange = rating.Change

// RatingPoint is a player's rating after one game, for a trend.
type RatingPoint struct {
	GameID uint64
	At     time.Time
	Rating rating.Rating
}

// RankKey returns the key that orders profiles on a leaderboard, bytes
// compared in order: by rating (higher first), games played (more first),
// name (ignoring case) and ID. Backends index profiles by it.
func (p *Profile) RankKey() []byte { return MarkOf(p).RankKey(p) }

// orderedFloat maps f to a number that sorts as f does.
func orderedFloat(f float64) uint64 {
	b := math.Float64bits(f)
	if b>>63 == 0 {
		return b | 1<<63
	}
	return ^b
}

// rate counts the finished game g on both players' profiles
// (rating.Count): on the all-time ladder, and on the ladder of its season
// (rating.Played.Season), in the same transaction. It returns their
// all-time rating changes: zero, and no profile written, for a game that
// does not count.
func (s *Core) rate(tx Tx, g *Game) ([2]RatingChange, error) {
	players := g.Players()
	p := rating.Played{ID: g.ID, Players: players, Result: g.Result()}
	for c := range players {
		p.IDs[c] = ProfileID(players[c])
	}
	change, counted, err := s.count(tx, g.GuildID, 0, p)
	if err != nil || !counted {
		return change, err
	}
	_, _, err = s.count(tx, g.GuildID, p.Season(), p)
	return change, err
}

// count counts the finished game p on the profiles of its players on its
// ladder of the guild, in the season (zero: the all-time ladder), and
// returns their rating changes and whether it counted.
func (s *Core) count(tx Tx, guild string, season Season, p rating.Played) ([2]RatingChange, bool, error) {
	var (
		standing [2]rating.Standing
		old      [2]*Profile
		ladder   = rating.LadderOf(p.Players)
	)
	for c, id := range p.IDs {
		stored, err := profileIn(tx, guild, season, ladder, id)
		switch {
		case isNotFound(err): // the player's first game on the ladder
		case err != nil:
			return [2]RatingChange{}, false, err
		default:
			old[c], standing[c] = stored, stored.Standing
		}
	}
	after, change, counted := rating.Count(standing, p, s.opt.RatingPeriod)
	if !counted {
		return change, false, nil
	}
	for c := range after {
		np := &Profile{GuildID: guild, UserID: p.IDs[c], Ladder: ladder, Season: season, Standing: after[c]}
		put := tx.PutProfile
		if season != 0 {
			put = tx.PutSeasonProfile
		}
		if err := put(np, old[c]); err != nil {
			return change, false, err
		}
	}
	return change, true, nil
}

// profileIn returns a profile on a ladder of the guild in the season
// (zero: the all-time ladder).
func profileIn(tx Tx, guild string, season Season, ladder Ladder, player string) (*Profile, error) {
	if season != 0 {
		return tx.SeasonProfile(guild, season, ladder, player)
	}
	return tx.Profile(guild, ladder, player)
}

// Profile returns the profile of the player with Player.ProfileID userID
// on a ladder of the guild, or an error wrapping ErrNotFound if no game of
// theirs has counted there.
func (s *Core) Profile(ctx context.Context, guildID, userID string, ladder Ladder) (*Profile, error) {
	p, err := inTx(ctx, s.b.View, func(tx Tx) (*Profile, error) { return tx.Profile(guildID, ladder, userID) })
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
func (s *Core) Leaderboard(ctx context.Context, guildID string, ladder Ladder, offset, limit int) (page []Profile, total int, err error) {
	return s.leaderboard(ctx, guildID, offset, limit, func(tx Tx) ([]Profile, int, error) {
		return tx.Leaderboard(guildID, ladder, offset, limit)
	})
}

// SeasonLeaderboard is Leaderboard for the ladder of a season: the
// profiles of the players whose games counted in that season, ranked by
// their season's rating (see rating.Season). season must be valid
// (ErrInvalid).
func (s *Core) SeasonLeaderboard(ctx context.Context, guildID string, season Season, ladder Ladder, offset, limit int) (page []Profile, total int, err error) {
	if !season.Valid() {
		return nil, 0, fmt.Errorf("leaderboard: %w: season number %d", ErrInvalid, int32(season))
	}
	return s.leaderboard(ctx, guildID, offset, limit, func(tx Tx) ([]Profile, int, error) {
		return tx.SeasonLeaderboard(guildID, season, ladder, offset, limit)
	})
}

// LeaderboardFrom returns up to limit profiles of a ladder of the guild
// (all-time if season is zero), in rank order, that come after the mark
// (before it if before is set: the last limit ranks above the mark), and
// the number of profiles on the ladder. It reads the ranks from the mark
// on, not those before it. Errors: ErrInvalid for a limit that is not
// positive or a season that is neither zero nor valid; ErrNotFound if the
// mark's player has no profile on the ladder (a stale or forged mark).
func (s *Core) LeaderboardFrom(ctx context.Context, guildID string, season Season, ladder Ladder, from Mark, before bool, limit int) (page []Profile, total int, err error) {
	if season != 0 && !season.Valid() {
		return nil, 0, fmt.Errorf("leaderboard: %w: season number %d", ErrInvalid, int32(season))
	}
	return s.leaderboard(ctx, guildID, 0, limit, func(tx Tx) ([]Profile, int, error) {
		return tx.LeaderboardFrom(guildID, season, ladder, from, before, limit)
	})
}

// leaderboard checks offset and limit and returns what read reads of a
// leaderboard of the guild.
func (s *Core) leaderboard(ctx context.Context, guildID string, offset, limit int, read func(Tx) ([]Profile, int, error)) (page []Profile, total int, err error) {
	if offset < 0 || limit <= 0 {
		return nil, 0, fmt.Errorf("leaderboard: %w: offset %d and limit %d; the offset may not be negative and the limit must be positive", ErrInvalid, offset, limit)
	}
	err = s.b.View(ctx, func(tx Tx) error {
		page, total, err = read(tx)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("leaderboard of guild %s: %w", guildID, err)
	}
	return page, total, nil
}
