package bot_test

import (
	"log/slog"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// TestPendingReviewMadeByOneBot, on PostgreSQL: two bots on one store
// that both start while a review is pending (the second while the first
// makes it) make it once between them, and post it once.
func TestPendingReviewMadeByOneBot(t *testing.T) {
	t.Parallel()
	pg, err := postgres.OpenConfig(pgtest.Schema(t), storage.Options{}, patientPG)
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
	h.dc.WaitUntil(t, "the review posted", func() bool { return len(reviewsPosted(h, ch)) == 1 })
	other.Close(hung)
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

// TestReviewHeldWhileQueued, on PostgreSQL: a review asked of one bot is
// claimed when asked and the claim renewed while the bot holds it (by its
// scheduler, every minute), so another bot on the same store that resumes
// the reviews pending much later than the claim's first lease still
// leaves it alone; the review is made and posted once. When the first bot
// dies before making it, the other takes it over once its claim lapses.
func TestReviewHeldWhileQueued(t *testing.T) {
	t.Parallel()
	pg, err := postgres.OpenConfig(pgtest.Schema(t), storage.Options{}, patientPG)
	require.NoError(t, err)
	h := newHarnessWith(t, "gateway", func(h *harness) {
		h.manual = true
		h.wrap = func(*storage.Store) bot.Store { return pg }
	})
	t.Cleanup(func() { h.stop(); pg.Close() })
	ch, _ := h.startGame(pg, "reviews")
	g, err := pg.Game(t.Context(), ch)
	require.NoError(t, err)
	h.finishByResigning(g)

	gate := &gatedReviewer{started: make(chan uint64, 4), release: map[uint64]chan struct{}{g.ID: make(chan struct{})}}
	h.bot.SetReviewer(gate.analyse)
	h.command(ch, h.alice, "review")
	require.Equal(t, g.ID, <-gate.started, "the first bot makes the review")
	for range 4 { // 20 minutes, past the claim's first lease
		h.tick(5 * time.Minute)
	}

	s, err := bot.NewSession(h.dc.Token(), h.dc.APIURL())
	require.NoError(t, err)
	other := bot.New(s, bot.Options{Store: pg, Logger: slog.New(slog.NewTextHandler(h.logs, nil)), Clock: h.clock, MoveTime: h.moveTime, ChallengeExpiry: h.expiry})
	t.Cleanup(func() { other.Close(hung) })
	other.SetReviewer(gate.analyse)
	other.ResumeReviews(t.Context())
	close(gate.release[g.ID])
	h.dc.WaitUntil(t, "the review posted", func() bool { return len(reviewsPosted(h, ch)) == 1 })
	other.Close(hung)
	assert.Zero(t, len(gate.started), "the other bot left the review to the first")
	assert.Len(t, reviewsPosted(h, ch), 1, "the review is posted once")

	// A second review, and the first bot dies before making it.
	ch2, _ := h.startGame(pg, "more reviews")
	g2, err := pg.Game(t.Context(), ch2)
	require.NoError(t, err)
	h.finishByResigning(g2)
	gate.release[g2.ID] = make(chan struct{})
	h.command(ch2, h.bob, "review")
	require.Equal(t, g2.ID, <-gate.started, "the first bot starts the second review")
	h.stop() // it dies: the review is left pending
	third := bot.New(s, bot.Options{Store: pg, Logger: slog.New(slog.NewTextHandler(h.logs, nil)), Clock: h.clock, MoveTime: h.moveTime, ChallengeExpiry: h.expiry})
	t.Cleanup(func() { third.Close(hung) })
	third.SetReviewer(gate.analyse)
	third.ResumeReviews(t.Context())
	assert.Zero(t, len(gate.started), "the dead bot's claim has not lapsed yet")
	h.clock.Advance(16 * time.Minute)
	third.ResumeReviews(t.Context())
	require.Equal(t, g2.ID, <-gate.started, "the claim lapsed: the other bot takes the review over")
	third.ResumeReviews(t.Context())
	close(gate.release[g2.ID])
	h.dc.WaitUntil(t, "the second review posted", func() bool { return len(reviewsPosted(h, ch2)) == 1 })
	third.Close(hung)
	assert.Zero(t, len(gate.started), "made once")
	assert.Len(t, reviewsPosted(h, ch2), 1, "posted once")
}

// reviewsPosted returns the reviews posted in channel.
func reviewsPosted(h *harness, channel string) []*discordtest.Message {
	var out []*discordtest.Message
	for _, m := range h.dc.Messages(channel) {
		if hasFile("review.png")(m) {
			out = append(out, m)
		}
	}
	return out
}
