package storage

import (
	"context"
	"fmt"
)

// GuildGames returns the first limit active games played in the guild,
// newest first (by ID: IDs grow as games are made), and how many the
// guild has: an index read, whatever the number of games stored. limit
// must be positive (ErrInvalid).
func (s *Core) GuildGames(ctx context.Context, guildID string, limit int) (games []*Game, total int, err error) {
	if limit <= 0 {
		return nil, 0, fmt.Errorf("games of guild %s: %w: the limit %d must be positive", guildID, ErrInvalid, limit)
	}
	err = s.b.View(ctx, func(tx Tx) error {
		games, total, err = tx.GuildGames(guildID, limit)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("games of guild %s: %w", guildID, err)
	}
	return games, total, nil
}
