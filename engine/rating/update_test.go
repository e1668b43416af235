package rating_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/rating"
)

// paperPlayer and paperGames are the worked example of Glickman's "Example of
// the Glicko-2 system": a 1500/200/0.06 player beats a 1400/30 player and
// loses to a 1550/100 and a 1700/300 player in one rating period.
var (
	paperPlayer = rating.Rating{Rating: 1500, RD: 200, Volatility: 0.06}
	paperGames  = []rating.Game{
		{Opponent: rating.Rating{Rating: 1400, RD: 30, Volatility: 0.06}, Outcome: rating.Win},
		{Opponent: rating.Rating{Rating: 1550, RD: 100, Volatility: 0.06}, Outcome: rating.Loss},
		{Opponent: rating.Rating{Rating: 1700, RD: 300, Volatility: 0.06}, Outcome: rating.Loss},
	}
)

func TestUpdatePaperExample(t *testing.T) {
	got := rating.Update(paperPlayer, paperGames)

	t.Run("paper", func(t *testing.T) {
		// The paper prints r' = 1464.06, RD' = 151.52, σ' = 0.05999. It rounds
		// every intermediate figure to four places (v = 1.7785, Δ = −0.4834,
		// μ' = −0.2069), which alone moves r' by 0.009, and it truncates σ'.
		// The tolerances are those roundings, no looser.
		assert.InDelta(t, 1464.06, got.Rating, 0.01)
		assert.InDelta(t, 151.52, got.RD, 0.005)
		assert.InDelta(t, 0.05999, got.Volatility, 0.00001)
	})
	t.Run("full precision", func(t *testing.T) {
		// The same example without intermediate rounding, confirmed outside
		// this package by solving step 5 by plain bisection to 1e-15
		// (σ' = 0.0599959844, r' = 1464.0506705391, RD' = 151.5165241243).
		// The Illinois iteration stops at |B − A| ≤ 1e-6 on ln σ'², hence
		// the tolerances.
		assert.InDelta(t, 1464.05067054, got.Rating, 1e-6)
		assert.InDelta(t, 151.51652412, got.RD, 1e-6)
		assert.InDelta(t, 0.0599959844, got.Volatility, 1e-9)
	})
}

func TestUpdateGameOrderDoesNotMatter(t *testing.T) {
	reversed := []rating.Game{paperGames[2], paperGames[1], paperGames[0]}
	want := rating.Update(paperPlayer, paperGames)
	got := rating.Update(paperPlayer, reversed)
	assert.InDelta(t, want.Rating, got.Rating, 1e-9)
	assert.InDelta(t, want.RD, got.RD, 1e-9)
	assert.InDelta(t, want.Volatility, got.Volatility, 1e-12)
}

func TestRateNewPlayers(t *testing.T) {
	// By hand, for two new players (1500/350/0.06) and a win; the volatility
	// barely moves after one game between equals, so take σ' ≈ 0.06 (the
	// code finds 0.0599997):
	//
	//	φ   = 350/173.7178                         = 2.014762, φ² = 4.059265
	//	g(φ) = 1/√(1 + 3φ²/π²) = 1/√2.233869       = 0.669069
	//	E   = 1/(1 + exp(−g·(0 − 0)))              = 0.5
	//	v   = 1/(g²·E·(1 − E)) = 1/(0.447654·0.25) = 8.935475
	//	φ*² = φ² + σ'² = 4.059265 + 0.0036         = 4.062865
	//	φ'² = 1/(1/φ*² + 1/v) = 1/(0.246132 + 0.111913) = 2.792944
	//	μ'  = 0 + φ'²·g·(1 − E) = 2.792944·0.334535 = 0.934337
	//	r'  = 1500 + 173.7178·0.934337             = 1662.31
	//	RD' = 173.7178·√2.792944 = 173.7178·1.671210 = 290.32
	//
	// The loser's sums are the same with 0 − E: 1500 − 162.31 = 1337.69. In a
	// draw 0.5 − E = 0, so both stay at 1500 and only the RDs shrink.
	tests := []struct {
		name    string
		outcome rating.Outcome
		a, b    float64 // new ratings
	}{
		{name: "win", outcome: rating.Win, a: 1662.31, b: 1337.69},
		{name: "draw", outcome: rating.Draw, a: 1500, b: 1500},
		{name: "loss", outcome: rating.Loss, a: 1337.69, b: 1662.31},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := rating.Rate(rating.New(), rating.New(), tt.outcome)
			assert.InDelta(t, tt.a, a.Rating, 0.01)
			assert.InDelta(t, tt.b, b.Rating, 0.01)
			assert.InDelta(t, 290.32, a.RD, 0.01)
			assert.InDelta(t, 290.32, b.RD, 0.01)
			assert.InDelta(t, 0.06, a.Volatility, 1e-5)
			assert.InDelta(t, 0.06, b.Volatility, 1e-5)
		})
	}
}

func TestRateDrawBetweenEquals(t *testing.T) {
	// RDs above the level where they settle (see TestRateRDSettles).
	tests := []rating.Rating{
		rating.New(),
		{Rating: 1800, RD: 100, Volatility: 0.06},
		{Rating: 900, RD: 200, Volatility: 0.09},
	}
	for _, r := range tests {
		t.Run("", func(t *testing.T) {
			a, b := rating.Rate(r, r, rating.Draw)
			assert.Equal(t, a, b, "equal players stay equal")
			assert.InDelta(t, r.Rating, a.Rating, 1e-9, "nobody was expected to win")
			assert.Less(t, a.RD, r.RD, "a game tells something about both")
		})
	}
}

func TestRateWinMovesRatings(t *testing.T) {
	tests := []struct {
		name   string
		winner rating.Rating
		loser  rating.Rating
	}{
		{name: "equals", winner: rating.New(), loser: rating.New()},
		{name: "favourite wins", winner: rating.Rating{Rating: 1900, RD: 80, Volatility: 0.06}, loser: rating.Rating{Rating: 1400, RD: 80, Volatility: 0.06}},
		{name: "upset", winner: rating.Rating{Rating: 1400, RD: 80, Volatility: 0.06}, loser: rating.Rating{Rating: 1900, RD: 80, Volatility: 0.06}},
		{name: "newcomer beats veteran", winner: rating.New(), loser: rating.Rating{Rating: 1500, RD: 50, Volatility: 0.06}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w, l := rating.Rate(tt.winner, tt.loser, rating.Win)
			assert.Greater(t, w.Rating, tt.winner.Rating)
			assert.Less(t, l.Rating, tt.loser.Rating)
		})
	}

	t.Run("upset moves more than expected win", func(t *testing.T) {
		strong := rating.Rating{Rating: 1900, RD: 80, Volatility: 0.06}
		weak := rating.Rating{Rating: 1400, RD: 80, Volatility: 0.06}
		expected, _ := rating.Rate(strong, weak, rating.Win)
		upset, _ := rating.Rate(weak, strong, rating.Win)
		assert.Greater(t, upset.Rating-weak.Rating, expected.Rating-strong.Rating)
	})
	t.Run("uncertain rating moves more", func(t *testing.T) {
		veteran := rating.Rating{Rating: 1500, RD: 50, Volatility: 0.06}
		newcomer, _ := rating.Rate(rating.New(), veteran, rating.Win)
		settled, _ := rating.Rate(veteran, veteran, rating.Win)
		assert.Greater(t, newcomer.Rating-1500, settled.Rating-1500)
	})
}

func TestRateRDSettles(t *testing.T) {
	// Each game is a rating period, so each adds σ² to φ² (step 6) before
	// the game's information takes some away (step 7). For players who
	// play each other often the two balance where 1/φ² − 1/(φ² + σ²) equals
	// the information of one game, g²·E(1 − E) ≈ 0.25: φ² ≈ σ/0.5 = 0.12,
	// RD ≈ 173.7178·√0.12 ≈ 60.
	a, b := rating.New(), rating.New()
	outcomes := []rating.Outcome{rating.Draw, rating.Win, rating.Loss}
	for i := range 300 {
		a, b = rating.Rate(a, b, outcomes[i%3])
	}
	assert.InDelta(t, 60, a.RD, 1)
	assert.InDelta(t, 60, b.RD, 1)
	assert.False(t, rating.Provisional(a))
}

func TestRateSymmetry(t *testing.T) {
	players := []rating.Rating{
		rating.New(),
		{Rating: 1720, RD: 65, Volatility: 0.059},
		{Rating: 1210, RD: 180, Volatility: 0.07},
	}
	for _, a := range players {
		for _, b := range players {
			for _, o := range []rating.Outcome{rating.Win, rating.Draw, rating.Loss} {
				gotA, gotB := rating.Rate(a, b, o)
				swappedB, swappedA := rating.Rate(b, a, 1-o)
				assert.Equal(t, gotA, swappedA, "%v vs %v, %v", a, b, o)
				assert.Equal(t, gotB, swappedB, "%v vs %v, %v", a, b, o)
				assert.Equal(t, gotA, rating.Update(a, []rating.Game{{Opponent: b, Outcome: o}}),
					"Rate is one rating period per player")
			}
		}
	}
}

func TestUpdateNoGames(t *testing.T) {
	// By hand: RD' = √(RD² + (173.7178·σ)²) = √(50² + 10.423068²)
	// = √(2500 + 108.6403) = √2608.6403 = 51.0748.
	r := rating.Rating{Rating: 1612, RD: 50, Volatility: 0.06}
	got := rating.Update(r, nil)
	assert.InDelta(t, 51.0748, got.RD, 0.0001)
	assert.Equal(t, r.Rating, got.Rating, "rating does not move without games")
	assert.Equal(t, r.Volatility, got.Volatility, "volatility does not move without games")
	assert.Equal(t, rating.Decay(r, 1), got)

	assert.Equal(t, rating.New(), rating.Update(rating.New(), nil), "RD is clamped at 350")
}

func TestDecay(t *testing.T) {
	settled := rating.Rating{Rating: 1612, RD: 60, Volatility: 0.06}
	tests := []struct {
		name    string
		periods float64
		rd      float64
	}{
		{name: "none", periods: 0, rd: 60},
		{name: "negative", periods: -3, rd: 60},
		// √(60² + 2.5·108.6403) = √3871.6008 = 62.2222
		{name: "fractional", periods: 2.5, rd: 62.2222},
		// lichess's 0.21436 periods a day for a year: 78.2414 periods,
		// √(3600 + 78.2414·108.6403) = √12100.17 = 110.0008
		{name: "a year", periods: 0.21436 * 365, rd: 110.0008},
		{name: "clamped", periods: 1e6, rd: 350},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := rating.Decay(settled, tt.periods)
			assert.InDelta(t, tt.rd, got.RD, 0.0001)
			assert.Equal(t, settled.Rating, got.Rating)
			assert.Equal(t, settled.Volatility, got.Volatility)
		})
	}
}

// checkRate checks the properties every rated game must have, whatever the
// (valid) ratings: finite results, RD within (0, MaxRD], positive volatility,
// ratings moving in the direction of the result, and symmetry.
func checkRate(t *testing.T, a, b rating.Rating, o rating.Outcome) {
	t.Helper()
	newA, newB := rating.Rate(a, b, o)
	for _, r := range []rating.Rating{newA, newB} {
		require.False(t, math.IsNaN(r.Rating) || math.IsInf(r.Rating, 0), "rating of %v vs %v, %v: %v", a, b, o, r)
		require.False(t, math.IsNaN(r.RD) || math.IsInf(r.RD, 0), "RD of %v vs %v, %v: %v", a, b, o, r)
		require.False(t, math.IsNaN(r.Volatility) || math.IsInf(r.Volatility, 0), "volatility of %v vs %v, %v: %v", a, b, o, r)
		assert.Greater(t, r.RD, 0.0, "%v vs %v, %v", a, b, o)
		assert.LessOrEqual(t, r.RD, float64(rating.MaxRD), "%v vs %v, %v", a, b, o)
		assert.Greater(t, r.Volatility, 0.0, "%v vs %v, %v", a, b, o)
	}
	// a's rating moves by φ'²·g·(s − E): towards the result. Converting
	// to μ and back may move a rating by a rounding error (seen for a draw
	// between ratings one ulp apart), hence the slack.
	const slack = 1e-9
	switch o {
	case rating.Win:
		assert.GreaterOrEqual(t, newA.Rating-a.Rating, -slack, "%v beats %v", a, b)
		assert.LessOrEqual(t, newB.Rating-b.Rating, slack, "%v beats %v", a, b)
	case rating.Loss:
		assert.LessOrEqual(t, newA.Rating-a.Rating, slack, "%v loses to %v", a, b)
		assert.GreaterOrEqual(t, newB.Rating-b.Rating, -slack, "%v loses to %v", a, b)
	case rating.Draw:
		towards := func(from, to, got float64) float64 { return (got - from) * math.Copysign(1, to-from) }
		assert.GreaterOrEqual(t, towards(a.Rating, b.Rating, newA.Rating), -slack, "%v draws %v", a, b)
		assert.GreaterOrEqual(t, towards(b.Rating, a.Rating, newB.Rating), -slack, "%v draws %v", a, b)
	}
	swappedB, swappedA := rating.Rate(b, a, 1-o)
	assert.Equal(t, newA, swappedA)
	assert.Equal(t, newB, swappedB)
}

// Sane bounds for stored ratings: far wider than any guild will see.
const (
	minRating, maxRating         = 0, 4000
	minRD, maxRD                 = 1, rating.MaxRD
	minVolatility, maxVolatility = 0.01, 0.2
)

func TestRateRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	between := func(lo, hi float64) float64 { return lo + rng.Float64()*(hi-lo) }
	random := func() rating.Rating {
		return rating.Rating{
			Rating:     between(minRating, maxRating),
			RD:         between(minRD, maxRD),
			Volatility: between(minVolatility, maxVolatility),
		}
	}
	outcomes := []rating.Outcome{rating.Loss, rating.Draw, rating.Win}
	for range 10000 {
		checkRate(t, random(), random(), outcomes[rng.IntN(3)])
		if t.Failed() {
			return
		}
	}
}

func FuzzRate(f *testing.F) {
	f.Add(1500.0, 350.0, 0.06, 1500.0, 350.0, 0.06, uint8(2))
	f.Add(0.0, 1.0, 0.01, 4000.0, 1.0, 0.01, uint8(2))     // the weakest beats the strongest
	f.Add(4000.0, 350.0, 0.2, 0.0, 1.0, 0.2, uint8(0))     // and the other way round
	f.Add(1500.0, 1.0, 0.01, 1500.0, 350.0, 0.2, uint8(1)) // certain vs. uncertain draw
	f.Fuzz(func(t *testing.T, ra, rda, va, rb, rdb, vb float64, o uint8) {
		a, okA := within(ra, rda, va)
		b, okB := within(rb, rdb, vb)
		if !okA || !okB {
			t.Skip("not finite")
		}
		checkRate(t, a, b, rating.Outcome(float64(o%3)/2))
	})
}

// within folds arbitrary finite fuzz input into the sane bounds.
func within(r, rd, v float64) (rating.Rating, bool) {
	fold := func(x, lo, hi float64) float64 { return lo + math.Mod(math.Abs(x), hi-lo) }
	for _, x := range []float64{r, rd, v} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return rating.Rating{}, false
		}
	}
	return rating.Rating{
		Rating:     fold(r, minRating, maxRating),
		RD:         fold(rd, minRD, maxRD),
		Volatility: fold(v, minVolatility, maxVolatility),
	}, true
}

func BenchmarkRate(b *testing.B) {
	a, c := rating.New(), rating.Rating{Rating: 1720, RD: 65, Volatility: 0.059}
	for b.Loop() {
		rating.Rate(a, c, rating.Win)
	}
}

func BenchmarkUpdatePaperExample(b *testing.B) {
	for b.Loop() {
		rating.Update(paperPlayer, paperGames)
	}
}
