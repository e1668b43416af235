package storage

import (
	"context"
	"fmt"
)

// GuildGames returns the active games played in the guild, newest first
// (by ID: IDs grow as games are made).
func (s *Core) GuildGames(ctx context.Context, guildID string) ([]*Game, error) {
	games, err := inTx(ctx, s.b.View, func(tx Tx) ([]*Game, error) { return tx.GuildGames(guildID) })
	if err != nil {
		return nil, fmt.Errorf("games of guild %s: %w", guildID, err)
	}
	return games, nil
}
