package tournament

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// BenchmarkPairRound256 pairs the fourth round of a 256-player tournament.
func BenchmarkPairRound256(b *testing.B) {
	rng := rand.New(rand.NewPCG(256, 4))
	set := Settings{Name: "bench", Rounds: 8, DaysPerRound: 3, MaxPlayers: MaxPlayersLimit, Start: t0.Add(time.Hour)}
	tour, err := New(set, "p0", t0)
	require.NoError(b, err)
	for i := range MaxPlayersLimit {
		require.NoError(b, tour.Join(fmt.Sprintf("p%d", i), 1000+rng.IntN(1500), t0))
	}
	now := set.Start
	require.NoError(b, tour.Start(now))
	for k := 1; k <= 3; k++ {
		for _, p := range tour.Rounds()[k-1].Pairings {
			require.NoError(b, tour.Record(GameRef{Round: k, Board: p.Board, Game: 1}, Result(1+rng.IntN(3)), now))
		}
		if k < 3 {
			require.NoError(b, tour.PairNext(now))
		}
	}
	es := tour.entrants()
	b.ResetTimer()
	for b.Loop() {
		pair(es, false, 6)
	}
}
