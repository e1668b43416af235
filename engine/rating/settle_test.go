package rating

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestGamesToSettle(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		r    Rating
		want int
	}{
		{"a new player", New(), 13},
		{"settled", Rating{Rating: 1700, RD: 60, Volatility: 0.06}, 0},
		{"just under the threshold", Rating{Rating: 1500, RD: ProvisionalRD - 0.01, Volatility: 0.06}, 0},
		{"at the threshold", Rating{Rating: 1500, RD: ProvisionalRD, Volatility: 0.06}, 1},
		{"back after a long absence", Rating{Rating: 1800, RD: 130, Volatility: 0.06}, 4},
		{"an absurd volatility never settles", Rating{Rating: 1500, RD: MaxRD, Volatility: 5}, settleLimit},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, GamesToSettle(c.r))
		})
	}
}

// TestGamesToSettleIsTheLeast checks on random ratings that the estimate
// is the fewest such games: after it the rating is settled, one fewer
// leaves it provisional.
func TestGamesToSettleIsTheLeast(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(31, 1))
	for range 500 {
		r := Rating{Rating: 800 + 1400*rnd.Float64(), RD: 30 + (MaxRD-30)*rnd.Float64(), Volatility: 0.03 + 0.06*rnd.Float64()}
		n := GamesToSettle(r)
		played := r
		for k := 0; k < n; k++ {
			if !assert.True(t, Provisional(played), "%+v still provisional after %d of %d games", r, k, n) {
				return
			}
			played, _ = Rate(played, played, Draw)
		}
		if n < settleLimit {
			assert.False(t, Provisional(played), "%+v settled after %d games", r, n)
		}
	}
}
