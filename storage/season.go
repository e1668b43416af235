package storage

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
)

// endedGame is what rebuildSeasons reads of a stored finished game,
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

// rebuildSeasons fills the ladders of the seasons, empty, from every
// finished game of the store: each rated game counted on the ladder of
// its season (rating.Played.Season) by rating.Count, with the rating
// period period, in the order the games ended (then by ID), as Core.rate
// counts each game at its end. It is what a store that kept finished
// games before it had seasons runs once, in the transaction of the
// schema step that adds them (see README, "Seasons").
func rebuildSeasons(tx Tx, period time.Duration) error {
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
		return err
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
	for _, k := range slices.SortedFunc(maps.Keys(standings), func(a, b seasonKey) int {
		return cmp.Or(cmp.Compare(a.guild, b.guild), cmp.Compare(a.season, b.season), cmp.Compare(a.ladder, b.ladder), cmp.Compare(a.player, b.player))
	}) {
		p := &Profile{GuildID: k.guild, UserID: k.player, Ladder: k.ladder, Season: k.season, Standing: standings[k]}
		if err := tx.PutSeasonProfile(p, nil); err != nil {
			return err
		}
	}
	return nil
}

// RebuildSeasons runs, in one write transaction, claim and, if it reports
// true, rebuildSeasons with the store's rating period: for a backend
// whose schema steps cannot fill the seasons' ladders themselves
// (PostgreSQL's are SQL), claim takes the mark its step left, so that
// the first process to open the store after the step fills them, once.
func (s *Core) RebuildSeasons(ctx context.Context, claim func(Tx) (bool, error)) error {
	err := s.b.Update(ctx, func(tx Tx) error {
		if ok, err := claim(tx); err != nil || !ok {
			return err
		}
		return rebuildSeasons(tx, s.opt.RatingPeriod)
	})
	if err != nil {
		return fmt.Errorf("fill the seasons' ladders from the finished games: %w", err)
	}
	return nil
}
