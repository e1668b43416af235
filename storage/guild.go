package storage

import (
	"cmp"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// GuildGames returns the active games played in the guild, newest first
// (by ID: IDs grow as games are made). It reads every active game of
// every guild, since active games are keyed by channel: a store holds one
// game a channel at most, so that is a scan of a few thousand records at
// worst, which is read-only and blocks no write.
func (s *Store) GuildGames(guildID string) ([]*Game, error) {
	games, err := inTx(s.db.View, func(tx *bolt.Tx) ([]*Game, error) {
		var out []*Game
		err := tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
			// Only the guild is needed to skip a game: read it without
			// replaying the game's moves.
			var place struct {
				GuildID string `json:"guild"`
			}
			if err := decode(v, &place); err != nil {
				return fmt.Errorf("game of channel %s: %w", k, err)
			}
			if place.GuildID != guildID {
				return nil
			}
			r := new(gameRecord)
			if err := decode(v, r); err != nil {
				return fmt.Errorf("game of channel %s: %w", k, err)
			}
			s.boards.apply(r)
			g, err := r.game()
			if err != nil {
				return err
			}
			out = append(out, g)
			return nil
		})
		return out, err
	})
	if err != nil {
		return nil, fmt.Errorf("games of guild %s: %w", guildID, err)
	}
	slices.SortFunc(games, func(a, b *Game) int { return cmp.Compare(b.ID, a.ID) })
	return games, nil
}
