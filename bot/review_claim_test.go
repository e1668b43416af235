package bot_test

import (
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// TestPendingReviewMadeByOneBot, on PostgreSQL: two bots on one store
// that both start while a review is pending (the second while the first
// makes it) make it once between them, and post it once.
func TestPendingReviewMadeByOneBot(t *testing.T) {
	t.Parallel()
	pg, err := postgres.Open(pgtest.Schema(t), storage.Options{})
	require.NoError(t, err)
	h := newHarnessWith(t, "gateway", func(h *harness) { h.wrap = func(*storage.Store) bot.Store { return pg } })
	t.Cleanup(func() { h.stop(); pg.Close() })
	ch, _ := h.startGame(pg, "reviews")
	g, err := pg.Game(t.Context(), ch)
	require.NoError(t, err)
	h.finishByResigning(g)
	guild := h.dc.GuildID()
	require.NoError(t, pg.QueueReview(t.Context(), storage.PendingReview{GuildID: guild, GameID: g.ID, ChannelID: ch, Lang: "en", UserID: h.alice.ID}))

	gate := &gatedReviewer{started: make(chan uint64, 2), release: map[uint64]chan struct{}{g.ID: make(chan struct{})}}
	s, err := bot.NewSession(h.dc.Token(), h.dc.APIURL())
	require.NoError(t, err)
	other := bot.New(s, bot.Options{Store: pg, Logger: slog.New(slog.NewTextHandler(h.logs, nil)), Clock: h.clock, MoveTime: h.moveTime, ChallengeExpiry: h.expiry})
	for _, b := range []*bot.Bot{h.bot, other} {
		b.SetReviewer(gate.analyse)
		b.ResumeReviews(t.Context())
	}
	assert.Equal(t, g.ID, <-gate.started, "one bot makes the review")
	close(gate.release[g.ID])
	other.Close(10 * time.Second)
	h.stop()

	assert.Zero(t, len(gate.started), "the other bot skips the review the first holds")
	_, err = pg.Review(t.Context(), guild, g.ID)
	require.NoError(t, err, "the review is stored")
	var posted int
	for _, m := range h.dc.Messages(ch) {
		if hasFile("review.png")(m) {
			posted++
		}
	}
	assert.Equal(t, 1, posted, "the review is posted once")
	pending, err := pg.PendingReviews(t.Context())
	require.NoError(t, err)
	assert.Empty(t, pending, "nothing is left to resume")
}
