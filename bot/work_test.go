package bot_test

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/review"
)

// gatedReviewer is a review.Analyse that waits, game by game, until the
// test lets it go: it tells started the game's seed (its number), then
// waits for release to be closed.
type gatedReviewer struct {
	started chan uint64
	release map[uint64]chan struct{}
}

func (r *gatedReviewer) analyse(ctx context.Context, rec *engine.Record, opt review.Options) (*review.Analysis, error) {
	r.started <- opt.Seed
	select {
	case <-r.release[opt.Seed]:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	opt.Playouts = 200 // a real analysis, small
	return quickReview(ctx, rec, opt)
}

// TestMoveNotHeldBehindReviews: the computer's move goes before the
// reviews waiting for the computer. With a review running and two queued,
// the move waits for the running review's position only; the queued
// reviews are told how many jobs come before theirs; a user with a review
// queued is refused a second one, in their language.
func TestMoveNotHeldBehindReviews(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	ch := h.channel.ID
	var games []uint64
	for range 4 { // three to review, a fourth that alice may not ask for yet
		g := h.challengeAndAccept()
		h.finishByResigning(g)
		games = append(games, g.ID)
	}
	gate := &gatedReviewer{started: make(chan uint64, 3), release: map[uint64]chan struct{}{}}
	for _, id := range games[:3] {
		gate.release[id] = make(chan struct{})
	}
	h.bot.SetReviewer(gate.analyse)
	review := func(user int, game uint64) string {
		who := [...]*discordgo.User{h.alice, h.bob, h.carol}[user]
		return h.reply(h.command(ch, who, "review", discordtest.IntegerOption("game", int64(game))))
	}
	assert.NotContains(t, review(0, games[0]), "before it", "the first review runs at once")
	require.Equal(t, games[0], <-gate.started)
	assert.NotContains(t, review(1, games[1]), "before it", "the second is next")
	assert.Contains(t, review(2, games[2]), "1 job of the computer comes before it.", "the third is told its place")

	refused := h.refused(h.commandWith(speaking("fr", "fr"), ch, h.alice, "review", discordtest.IntegerOption("game", int64(games[1]))))
	assert.Contains(t, refused, "J’analyse déjà la partie n° "+strconv.FormatUint(games[1], 10), "a game queued is not queued twice")
	refused = h.refused(h.commandWith(speaking("fr", "fr"), ch, h.alice, "review", discordtest.IntegerOption("game", int64(games[3]))))
	assert.Contains(t, refused, "Vous avez déjà une analyse en cours", "one review at a time a user, said in their language")

	ai := h.dc.AddChannel("computer")
	h.command(ai.ID, h.bob, "play", discordtest.StringOption("level", "easy"), discordtest.StringOption("first", "them"))
	require.Eventually(t, func() bool { return h.bot.QueuedMoves() == 1 }, hung, time.Millisecond, "the computer's move is queued")
	close(gate.release[games[0]]) // the first review's search ends
	// The computer moves before the reviews waiting: the second review's
	// search has not been let go, so a move behind it would never come.
	h.boardAt(ai.ID, 1)
	select {
	case id := <-gate.started:
		assert.Equal(t, games[1], id, "the reviews go on in order")
	default:
	}
	for _, id := range games[1:3] {
		close(gate.release[id])
	}
	for _, id := range games[:3] {
		n := strconv.FormatUint(id, 10)
		h.dc.WaitUntil(t, "the review of game #"+n, func() bool {
			_, err := h.store.Review(t.Context(), h.dc.GuildID(), id)
			return err == nil
		})
	}
}

// TestReviewsResumedAfterRestart: a review running when the bot shuts
// down, and one still queued, are not lost: nothing says they failed, and
// the bot that starts next on the same file makes and posts both, once.
func TestReviewsResumedAfterRestart(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	ch := h.channel.ID
	var games []uint64
	for range 2 {
		g := h.challengeAndAccept()
		h.finishByResigning(g)
		games = append(games, g.ID)
	}
	gate := &gatedReviewer{started: make(chan uint64, 2), release: map[uint64]chan struct{}{}} // never released
	h.bot.SetReviewer(gate.analyse)
	var asks []*discordgo.Interaction
	for k, u := range []*discordgo.User{h.alice, h.bob} {
		ask := h.command(ch, u, "review", discordtest.IntegerOption("game", int64(games[k])))
		h.reply(ask)
		asks = append(asks, ask)
	}
	require.Equal(t, games[0], <-gate.started)
	h.stop() // waits for the reviews its grace allows, then stops them
	for _, m := range h.dc.Messages(ch) {
		assert.NotContains(t, m.Content, "I could not finish the review", "a review stopped by the shutdown is not a failure")
	}

	h.start() // the same file: the reviews pending are made now
	for k, id := range games {
		n := strconv.FormatUint(id, 10)
		messageAfter(t, h.dc, asks[k], ch, "the review of game #"+n, func(m *discordtest.Message) bool {
			return hasFile("review.png")(m) && strings.Contains(m.Content, "**Review of game #"+n+"**")
		})
		_, err := h.store.Review(t.Context(), h.dc.GuildID(), id)
		require.NoError(t, err, "the review of game #%s is stored", n)
	}
	pending, err := h.store.PendingReviews(t.Context())
	require.NoError(t, err)
	assert.Empty(t, pending, "nothing is left to resume")
	h.restart()
	var reviews int
	for _, m := range h.dc.Messages(ch) {
		if hasFile("review.png")(m) {
			reviews++
		}
	}
	assert.Equal(t, 2, reviews, "each review is posted once, not again at the next start")
}
