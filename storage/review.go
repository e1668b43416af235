package storage

import (
	"context"
	"encoding/json"
	"fmt"
)

// SaveReview stores data, the analysis of the finished game with the ID
// gameID of the guild, replacing any earlier one, and drops the mark of
// its pending review (QueueReview). It returns an error
// wrapping ErrNotFound if there is no such finished game, and ErrInvalid
// if data is not a JSON value.
func (s *Core) SaveReview(ctx context.Context, guildID string, gameID uint64, data []byte) error {
	err := s.b.Update(ctx, func(tx Tx) error {
		if ok, err := tx.HasFinished(guildID, gameID); err != nil {
			return err
		} else if !ok {
			return fmt.Errorf("finished game %d: %w", gameID, ErrNotFound)
		}
		if !json.Valid(data) {
			return fmt.Errorf("%w: the review is not JSON", ErrInvalid)
		}
		if err := tx.PutReview(guildID, gameID, data); err != nil {
			return err
		}
		return tx.DeletePendingReview(guildID, gameID)
	})
	if err != nil {
		return fmt.Errorf("save the review of game %d in guild %s: %w", gameID, guildID, err)
	}
	return nil
}

// Review returns the analysis stored by SaveReview for the finished game
// with the ID gameID of the guild, or an error wrapping ErrNotFound if
// there is none yet.
func (s *Core) Review(ctx context.Context, guildID string, gameID uint64) ([]byte, error) {
	data, err := inTx(ctx, s.b.View, func(tx Tx) ([]byte, error) { return tx.Review(guildID, gameID) })
	if err != nil {
		return nil, fmt.Errorf("guild %s: %w", guildID, err)
	}
	return data, nil
}

// LastFinishedGame returns the finished game of the guild played in the
// channel that was made last (the highest ID), or an error wrapping
// ErrNotFound if the channel has none.
func (s *Core) LastFinishedGame(ctx context.Context, guildID, channelID string) (*FinishedGame, error) {
	f, err := inTx(ctx, s.b.View, func(tx Tx) (*FinishedGame, error) { return tx.LastFinished(guildID, channelID) })
	if err != nil {
		return nil, fmt.Errorf("guild %s: %w", guildID, err)
	}
	return f, nil
}
