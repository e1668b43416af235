package storage

import (
	"testing"

	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/require"
)

// BenchmarkLoadGame reads the active game of a channel: a game of 40
// moves.
func BenchmarkLoadGame(b *testing.B) {
	s := mustOpen(b, Options{})
	g := newGame(b, "c", alice, bob)
	r := engine.NewRand(2)
	for g.Ply() < 40 {
		require.NoError(b, play(g, randomMove(b, g.Game, &r)))
		require.False(b, g.Over(), "the game ended before 40 moves; pick another seed")
	}
	require.NoError(b, s.CreateGame(b.Context(), g))
	for b.Loop() {
		if _, err := s.Game(b.Context(), "c"); err != nil {
			b.Fatal(err)
		}
	}
}
