package storagetest

import (
	"context"
	"testing"
	"time"

	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testCancelledContext: a call whose context is cancelled before it
// begins fails with an error wrapping context.Canceled, a read and a
// write alike, and the write stores nothing.
func testCancelledContext(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	g := mustCreate(t, s, "c1", alice, bob)
	w := storage.Wake{Kind: storage.WakeGame, ChannelID: "c1", At: t0}
	before := counts(t, s)
	cancelled, cancel := context.WithCancel(t.Context())
	cancel()

	tests := []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"Game", func(ctx context.Context) error {
			_, err := s.Game(ctx, "c1")
			return err
		}},
		{"Export", func(ctx context.Context) error {
			return s.Export(ctx, func(storage.Record) error { return nil })
		}},
		{"CreateGame", func(ctx context.Context) error { return s.CreateGame(ctx, newGame(t, "c2", alice, bob)) }},
		{"UpdateGame", func(ctx context.Context) error {
			_, err := s.UpdateGame(ctx, "c1", func(g *storage.Game) error { return play(g, mustCell(t, "D4")) })
			return err
		}},
		{"NoteBoard", func(ctx context.Context) error { return s.NoteBoard(ctx, "c1", g.ID, 0, "100") }},
		{"Claim", func(ctx context.Context) error {
			_, err := s.Claim(ctx, w, "a", t0, time.Minute)
			return err
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.ErrorIs(t, tt.call(cancelled), context.Canceled)
		})
	}

	stored, err := s.Game(t.Context(), "c1")
	require.NoError(t, err)
	assert.Zero(t, stored.Ply(), "the move was not stored")
	assert.Empty(t, stored.BoardMessageID, "the board was not noted")
	_, err = s.Game(t.Context(), "c2")
	assert.ErrorIs(t, err, storage.ErrNotFound, "the game was not created")
	assert.True(t, mustClaim(t, s, w, "b", t0), "the lease was not taken")
	assert.Equal(t, before, counts(t, s), "nothing was written")
}
