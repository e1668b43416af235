package storagetest

import (
	"testing"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testReviews(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	f := mustGame(t, s, alice, bob, true, t0)

	_, err := s.Review(t.Context(), guild, f.ID)
	assert.ErrorIs(t, err, storage.ErrNotFound, "no review yet")
	assert.ErrorIs(t, s.SaveReview(t.Context(), guild, f.ID+100, []byte(`{}`)), storage.ErrNotFound, "no such finished game")
	assert.ErrorIs(t, s.SaveReview(t.Context(), "2000", f.ID, []byte(`{}`)), storage.ErrNotFound, "a game of another guild")
	assert.ErrorIs(t, s.SaveReview(t.Context(), guild, f.ID, []byte(`{"v":`)), storage.ErrInvalid)

	want := []byte(`{"version":1,"moves":[]}`)
	require.NoError(t, s.SaveReview(t.Context(), guild, f.ID, want))
	got, err := s.Review(t.Context(), guild, f.ID)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(got))
	_, err = s.Review(t.Context(), "2000", f.ID)
	assert.ErrorIs(t, err, storage.ErrNotFound, "reviews are kept by guild")
}

func testPendingReviews(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	f := mustGame(t, s, alice, bob, true, t0)
	g := mustGame(t, s, alice, carol, true, t0)
	pending := func() []storage.PendingReview {
		t.Helper()
		ps, err := s.PendingReviews(t.Context())
		require.NoError(t, err)
		return ps
	}
	assert.Empty(t, pending(), "none yet")
	assert.ErrorIs(t, s.QueueReview(t.Context(), storage.PendingReview{GuildID: guild, GameID: f.ID + 100}), storage.ErrNotFound, "no such finished game")

	pf := storage.PendingReview{GuildID: guild, GameID: f.ID, ChannelID: "c", Lang: "fr", UserID: "u"}
	pg := storage.PendingReview{GuildID: guild, GameID: g.ID, ChannelID: "d", Lang: "en", UserID: "v"}
	require.NoError(t, s.QueueReview(t.Context(), pg))
	require.NoError(t, s.QueueReview(t.Context(), pf))
	assert.Equal(t, []storage.PendingReview{pf, pg}, pending(), "by guild and game")

	require.NoError(t, s.SaveReview(t.Context(), guild, f.ID, []byte(`{}`)))
	assert.Equal(t, []storage.PendingReview{pg}, pending(), "a review made is no longer pending")
	require.NoError(t, s.DropReview(t.Context(), guild, g.ID))
	require.NoError(t, s.DropReview(t.Context(), guild, g.ID), "dropping no mark is no error")
	assert.Empty(t, pending())
}

func testLastFinishedGame(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	_, err := s.LastFinishedGame(t.Context(), guild, "c")
	assert.ErrorIs(t, err, storage.ErrNotFound, "nothing finished")

	first := mustCreate(t, s, "c", alice, bob)
	mustFinish(t, s, "c", game.Resigned, engine.Red, moveTime(0))
	elsewhere := mustGame(t, s, alice, carol, false, t0) // a later game in another channel
	second := mustCreate(t, s, "c", bob, alice)
	mustPlay(t, s, "c", "D4")

	got, err := s.LastFinishedGame(t.Context(), guild, "c")
	require.NoError(t, err)
	assert.Equal(t, first.ID, got.ID, "the running game is not finished; the other channel's game is skipped")
	mustFinish(t, s, "c", game.Aborted, engine.Red, moveTime(1))
	got, err = s.LastFinishedGame(t.Context(), guild, "c")
	require.NoError(t, err)
	assert.Equal(t, second.ID, got.ID)
	assert.Equal(t, 1, len(got.Moves()))
	got, err = s.LastFinishedGame(t.Context(), guild, elsewhere.ChannelID)
	require.NoError(t, err)
	assert.Equal(t, elsewhere.ID, got.ID)
	_, err = s.LastFinishedGame(t.Context(), "2000", "c")
	assert.ErrorIs(t, err, storage.ErrNotFound, "another guild")
}
