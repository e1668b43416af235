package storage

import (
	"context"
	"fmt"
)

// PendingReview is a review asked for and not made yet: the mark that lets
// a bot that stopped before making it make it after its restart.
type PendingReview struct {
	GuildID   string `json:"guild"`
	GameID    uint64 `json:"game"`
	ChannelID string `json:"channel"` // where the review is posted
	Lang      string `json:"lang"`    // the language it is posted in
	UserID    string `json:"user"`    // who asked for it
}

// QueueReview marks the review p asked for as pending, replacing any mark
// of the same game, until SaveReview stores the review or DropReview
// drops the mark. It returns an error wrapping ErrNotFound if there is no
// such finished game.
func (s *Core) QueueReview(ctx context.Context, p PendingReview) error {
	err := s.b.Update(ctx, func(tx Tx) error {
		if ok, err := tx.HasFinished(p.GuildID, p.GameID); err != nil {
			return err
		} else if !ok {
			return fmt.Errorf("finished game %d: %w", p.GameID, ErrNotFound)
		}
		return tx.PutPendingReview(&p)
	})
	if err != nil {
		return fmt.Errorf("queue the review of game %d in guild %s: %w", p.GameID, p.GuildID, err)
	}
	return nil
}

// DropReview drops the mark of the pending review of the finished game
// gameID of the guild, if there is one.
func (s *Core) DropReview(ctx context.Context, guildID string, gameID uint64) error {
	if err := s.b.Update(ctx, func(tx Tx) error { return tx.DeletePendingReview(guildID, gameID) }); err != nil {
		return fmt.Errorf("drop the review of game %d in guild %s: %w", gameID, guildID, err)
	}
	return nil
}

// PendingReviews returns the reviews marked pending, by guild and game.
func (s *Core) PendingReviews(ctx context.Context) ([]PendingReview, error) {
	out, err := inTx(ctx, s.b.View, func(tx Tx) ([]PendingReview, error) { return tx.PendingReviews() })
	if err != nil {
		return nil, fmt.Errorf("pending reviews: %w", err)
	}
	return out, nil
}
