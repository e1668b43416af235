package storagetest

import (
	"slices"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/require"
)

// BenchmarkCommitMove commits one move per iteration on s, as the bot
// does: a transaction that reads the game, checks the ply, plays the move
// (replaying the game) and writes it back, durably. The game that ends is
// moved to the finished games and rated in that same commit; a new one is
// created outside the timing. It reports the median and 99th percentile
// of the commits' durations.
func BenchmarkCommitMove(b *testing.B, s Store) {
	r := engine.NewRand(1)
	mustCreate(b, s, "c", alice, bob)
	var took []time.Duration
	for b.Loop() {
		start := time.Now()
		g, err := s.UpdateGame(b.Context(), "c", func(g *storage.Game) error {
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
