package storage

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"time"

	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
)

// endedGame is what seasonStandings reads of a stored finished game,
// without replaying its moves.
type endedGame struct {
	ID      uint64         `json:"id"`
	GuildID string         `json:"guild"`
	Players [2]game.Player `json:"players"`
	Result  *game.Result   `json:"result"`
}

// seasonKey names a profile on the ladder of a season.
type seasonKey struct {
	guild  string
	season Season
	ladder Ladder
	player string
}

// seasonStandings works out the ladders of the seasons from every
// finished game of the store: each rated game counted on the ladder of
// its season (rating.Played.Season) by rating.Count, with the rating
// period period, in the order the games ended (then by ID), as Core.rate
// counts each game at its end. It returns the profiles, by guild, season,
// ladder and player, and how many rated games it counted. It is what a
// store that kept finished games before it had seasons fills them with,
// once (see README, "Seasons", and RebuildSeasons).
func seasonStandings(tx Tx, period time.Duration) ([]*Profile, int, error) {
	var ended []endedGame
	err := tx.FinishedData(func(raw []byte) error {
		var e endedGame
		if err := decode(raw, &e); err != nil {
			return fmt.Errorf("finished game: %w", err)
		}
		if e.Result != nil && e.Result.Rated() {
			ended = append(ended, e)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	slices.SortFunc(ended, func(a, b endedGame) int {
		return cmp.Or(a.Result.At.Compare(b.Result.At), cmp.Compare(a.ID, b.ID))
	})
	standings := map[seasonKey]rating.Standing{}
	for _, e := range ended {
		p := rating.Played{ID: e.ID, Players: e.Players, Result: e.Result}
		var keys [2]seasonKey
		var before [2]rating.Standing
		for c, pl := range e.Players {
			p.IDs[c] = ProfileID(pl)
			keys[c] = seasonKey{e.GuildID, p.Season(), rating.LadderOf(e.Players), p.IDs[c]}
			before[c] = standings[keys[c]]
		}
		after, _, _ := rating.Count(before, p, period)
		for c, k := range keys {
			standings[k] = after[c]
		}
	}
	var out []*Profile
	for _, k := range slices.SortedFunc(maps.Keys(standings), func(a, b seasonKey) int {
		return cmp.Or(cmp.Compare(a.guild, b.guild), cmp.Compare(a.season, b.season), cmp.Compare(a.ladder, b.ladder), cmp.Compare(a.player, b.player))
	}) {
		out = append(out, &Profile{GuildID: k.guild, UserID: k.player, Ladder: k.ladder, Season: k.season, Standing: standings[k]})
	}
	return out, len(ended), nil
}

// seasonBatch is how many season profiles a transaction of
// RebuildSeasons writes: few enough that a transaction's changes, held
// in memory until its commit, stay small.
var seasonBatch = 2000

// seasonLogEvery is how many profiles RebuildSeasons writes between two
// lines of its log.
const seasonLogEvery = 100_000

// RebuildSeasons fills the seasons' ladders from the finished games
// (seasonStandings, with the store's rating period) if a schema step left
// the mark that asks for it: mark reports whether the mark is there and,
// if drop, drops it. It reads the games in one read transaction, then
// writes the profiles seasonBatch a transaction, each of which first
// finds the mark (a process that finished the rebuild dropped it, and
// games counted since: nothing more is written), the last dropping it.
// A rebuild that a crash stopped is done again, whole, at the next
// opening: the profiles written are written again the same (with their
// ranks, sizes and bands kept right). It logs its progress to log: when
// it has read the games, every seasonLogEvery profiles and when it is
// done.
func (s *Core) RebuildSeasons(ctx context.Context, mark func(tx Tx, drop bool) (bool, error), log *slog.Logger) error {
	var profiles []*Profile
	var games int
	var pending bool
	err := s.b.View(ctx, func(tx Tx) error {
		var err error
		if pending, err = mark(tx, false); err != nil || !pending {
			return err
		}
		profiles, games, err = seasonStandings(tx, s.opt.RatingPeriod)
		return err
	})
	if err != nil || !pending {
		return wrapRebuild(err)
	}
	log.Info("storage upgrade: filling the seasons' ladders from the finished games", "games", games, "profiles", len(profiles))
	for start := 0; start == 0 || start < len(profiles); start += seasonBatch {
		batch := profiles[start:min(start+seasonBatch, len(profiles))]
		last := start+seasonBatch >= len(profiles)
		err := s.b.Update(ctx, func(tx Tx) error {
			var err error
			if pending, err = mark(tx, last); err != nil || !pending {
				return err
			}
			for _, p := range batch {
				old, err := tx.SeasonProfile(p.GuildID, p.Season, p.Ladder, p.UserID)
				if errors.Is(err, ErrNotFound) {
					old = nil
				} else if err != nil {
					return err
				}
				if err := tx.PutSeasonProfile(p, old); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil || !pending {
			return wrapRebuild(err)
		}
		if done := start + len(batch); last || done/seasonLogEvery > start/seasonLogEvery {
			log.Info("storage upgrade: filling the seasons' ladders from the finished games", "profiles", done, "done", last)
		}
	}
	return nil
}

// wrapRebuild says that err, if not nil, is RebuildSeasons'.
func wrapRebuild(err error) error {
	if err != nil {
		return fmt.Errorf("fill the seasons' ladders from the finished games: %w", err)
	}
	return nil
}
