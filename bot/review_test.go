package bot_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine/review"
	"github.com/kulami/kulami/storage"
)

// hasFile reports whether a message has an attachment named name.
func hasFile(name string) func(*discordtest.Message) bool {
	return func(m *discordtest.Message) bool {
		for _, f := range m.Files {
			if f.Name == name {
				return true
			}
		}
		return false
	}
}

// TestReview: /kulami review analyses the channel's last finished game
// once, in the background, posts the review with its chart, mistakes and
// buttons to step through the game, and the buttons work after a restart.
func TestReview(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	ch := h.channel.ID
	h.refused(h.command(ch, h.carol, "review"), "No game has finished in this channel yet")
	h.refused(h.command(ch, h.carol, "review", discordtest.IntegerOption("game", 99)), "There is no finished game #99 in this server")

	g := h.challengeAndAccept()
	id := strconv.FormatUint(g.ID, 10)
	h.finishByResigning(g) // one move, then a resignation
	commits := h.commits()

	ask := h.command(ch, h.carol, "review")
	r := h.dc.WaitResponse(t, ask.ID)
	assert.True(t, r.Ephemeral(), "only the asker is told to wait")
	assert.Regexp(t, `^I'm reviewing game #`+id+` \(1 move\) with the computer\. The review will be posted in this channel, ready <t:\d+:R> or so`, r.Content)
	rev := messageAfter(t, h.dc, ask, ch, "the review", hasFile("review.png"))
	assert.Contains(t, rev.Content, "**Review of game #"+id+"**")
	assert.Contains(t, rev.Content, "biggest mistakes:")
	assert.Contains(t, rev.Content, "of win chance or more", "lost win chance, not points")
	require.Len(t, rev.Files, 1)
	assert.Regexp(t, `^Chart of .+'s chance to win after each move of game #`+id+`: \d+% at the start, \d+% at the end\.`, rev.Files[0].Description, "alt text")
	assert.Empty(t, rev.Notified, "a review pings nobody")
	steps := buttons(rev.Components)
	for _, label := range []string{"⏮", "◀", "▶", "⏭"} {
		assert.Contains(t, steps, label)
	}
	data, err := h.store.Review(t.Context(), h.dc.GuildID(), g.ID)
	require.NoError(t, err, "the analysis is stored with the game")
	var a review.Analysis
	require.NoError(t, json.Unmarshal(data, &a))
	assert.Len(t, a.Moves, 1)
	assert.Equal(t, commits+2, h.commits(), "one commit marks the review pending, one stores it")

	renders := h.jobsStarted("render")
	again := h.command(ch, h.alice, "review", discordtest.IntegerOption("game", int64(g.ID)))
	assert.False(t, h.dc.WaitResponse(t, again.ID).Ephemeral())
	m := h.dc.WaitOriginal(t, again.ID, hasFile("review.png"))
	assert.Equal(t, renders+1, h.jobsStarted("render"), "its chart is drawn within the render bound, a core at a time")
	assert.False(t, m.Ephemeral(), "a review already made is the answer itself")
	assert.Equal(t, rev.Content, m.Content)
	assert.Equal(t, commits+2, h.commits(), "computed once")

	h.restart()
	step := h.click(rev.ID, h.bob, steps["▶"])
	sm := h.dc.WaitOriginal(t, step.ID, hasFile("board.png"))
	assert.True(t, sm.Ephemeral(), "each viewer steps through the game on their own")
	assert.Contains(t, sm.Content, "**Game #"+id+", move 1 of 1.**")
	require.Len(t, sm.Files, 1)
	assert.Regexp(t, `^Kulami board of game #`+id+` after move 1 of 1: .+ played [A-Z]\d+\.$`, sm.Files[0].Description, "alt text")
	assert.Regexp(t, `played \*\*[A-Z]\d+\*\*: their chance to win went from \d+% to \d+%`, sm.Content)
	stepsThere := buttons(sm.Components)
	first := h.click(sm.ID, h.bob, stepsThere["⏮"])
	assert.Contains(t, h.dc.WaitOriginal(t, first.ID, hasFile("board.png")).Content, "The start:")

	gone := strings.Replace(steps["▶"], ":"+id+":", ":999:", 1)
	h.refused(h.click(rev.ID, h.bob, gone), "I no longer have that game")
}

// TestReviewRefusals: a game without moves has nothing to review; a step
// button of a game whose review is not stored says how to get it.
func TestReviewRefusals(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	ch := h.channel.ID
	h.abortAtStart()
	h.refused(h.command(ch, h.carol, "review"), "ended before anyone moved: there is nothing to review")

	other := h.challengeAndAccept()
	final := h.finishByResigning(other)
	_, err := h.store.Review(t.Context(), h.dc.GuildID(), other.ID)
	require.ErrorIs(t, err, storage.ErrNotFound)
	forged := "kulami:review-step:" + ch + ":" + strconv.FormatUint(other.ID, 10) + ":1:3"
	h.refused(h.click(final.ID, h.carol, forged), "I no longer have the review of game #"+strconv.FormatUint(other.ID, 10))
}
