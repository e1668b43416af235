package storage

import (
	"slices"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/require"
)

// BenchmarkCommitMove commits one move per iteration, fsync on, as the bot
// does: a transaction that reads the game, checks the ply, plays the move
// (replaying the game) and writes it back. The game that ends is moved to
// the finished games and rated in that same commit; a new one is created
// outside the timing. It reports the median and 99th percentile of the
// commits' durations.
func BenchmarkCommitMove(b *testing.B) {
	s := mustOpen(b, Options{})
	r := engine.NewRand(1)
	mustCreate(b, s, "c", alice, bob)
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		g, err := s.UpdateGame("c", func(g *Game) error {
			p := g.Position()
			return g.Play(g.ToMove(), g.Ply(), p.Layout().Cell(r.Pick(p.Legal())), start)
		})
		took = append(took, time.Since(start))
		require.NoError(b, err)
		if g.Over() {
			b.StopTimer()
			mustCreate(b, s, "c", alice, bob)
			b.StartTimer()
		}
	}
	slices.Sort(took)
	ms := func(q float64) float64 { return float64(took[int(q*float64(len(took)-1))]) / 1e6 }
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
}

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
	require.NoError(b, s.CreateGame(g))
	for b.Loop() {
		if _, err := s.Game("c"); err != nil {
			b.Fatal(err)
		}
	}
}
