package storage

import (
	"testing"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReviews(t *testing.T) {
	s := mustOpen(t, Options{})
	f := mustGame(t, s, alice, bob, true, t0)

	_, err := s.Review(guild, f.ID)
	assert.ErrorIs(t, err, ErrNotFound, "no review yet")
	assert.ErrorIs(t, s.SaveReview(guild, f.ID+100, []byte(`{}`)), ErrNotFound, "no such finished game")
	assert.ErrorIs(t, s.SaveReview("2000", f.ID, []byte(`{}`)), ErrNotFound, "a game of another guild")
	assert.ErrorIs(t, s.SaveReview(guild, f.ID, []byte(`{"v":`)), ErrInvalid)

	want := []byte(`{"version":1,"moves":[]}`)
	require.NoError(t, s.SaveReview(guild, f.ID, want))
	got, err := s.Review(guild, f.ID)
	require.NoError(t, err)
	assert.JSONEq(t, string(want), string(got))
	_, err = s.Review("2000", f.ID)
	assert.ErrorIs(t, err, ErrNotFound, "reviews are kept by guild")
}

func TestLastFinishedGame(t *testing.T) {
	s := mustOpen(t, Options{})
	_, err := s.LastFinishedGame(guild, "c")
	assert.ErrorIs(t, err, ErrNotFound, "nothing finished")

	first := mustCreate(t, s, "c", alice, bob)
	mustFinish(t, s, "c", game.Resigned, engine.Red, moveTime(0))
	elsewhere := mustGame(t, s, alice, carol, false, t0) // a later game in another channel
	second := mustCreate(t, s, "c", bob, alice)
	mustPlay(t, s, "c", "D4")

	got, err := s.LastFinishedGame(guild, "c")
	require.NoError(t, err)
	assert.Equal(t, first.ID, got.ID, "the running game is not finished; the other channel's game is skipped")
	mustFinish(t, s, "c", game.Aborted, engine.Red, moveTime(1))
	got, err = s.LastFinishedGame(guild, "c")
	require.NoError(t, err)
	assert.Equal(t, second.ID, got.ID)
	assert.Equal(t, 1, len(got.Moves()))
	got, err = s.LastFinishedGame(guild, elsewhere.ChannelID)
	require.NoError(t, err)
	assert.Equal(t, elsewhere.ID, got.ID)
	_, err = s.LastFinishedGame("2000", "c")
	assert.ErrorIs(t, err, ErrNotFound, "another guild")
}

// TestMigrationAddsReviews: a file of schema version 2 (testdata/v1.db
// migrated one step) gets the bucket of reviews when it is opened, and
// its finished games can be reviewed.
func TestMigrationAddsReviews(t *testing.T) {
	path := mustCopyV1(t)
	s := mustOpenPath(t, path, Options{})
	require.NoError(t, s.SaveReview(guild, 2, []byte(`{"version":1}`)), "a finished game of the old file takes a review")
	require.NoError(t, s.Close())
	assert.Equal(t, schemaVersion(), schemaOf(t, path))
	assert.Equal(t, uint64(3), schemaVersion())
}
