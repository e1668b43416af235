package bot

import (
	"context"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/review"
)

// SetReviewer replaces review.Analyse in the bot's reviews, so that tests
// control when a review runs and ends.
func (b *Bot) SetReviewer(f func(context.Context, *engine.Record, review.Options) (*review.Analysis, error)) {
	b.reviews.reviewer = f
}

// QueuedMoves is the number of the computer's moves waiting for the
// search worker.
func (b *Bot) QueuedMoves() int { return b.runner.Len(jobMove) }

// ResumeReviews does what RunScheduler does first for the reviews: queue
// again those pending in the store.
func (b *Bot) ResumeReviews(ctx context.Context) { b.reviews.resume(ctx) }
