package rating_test

import (
	"fmt"

	"github.com/kulami/kulami/engine/rating"
)

func ExampleRate() {
	alice, bob := rating.New(), rating.New()
	alice, bob = rating.Rate(alice, bob, rating.Win) // Alice won

	for _, p := range []struct {
		name string
		r    rating.Rating
	}{{"Alice", alice}, {"Bob", bob}} {
		fmt.Printf("%s: %.0f RD %.0f provisional %t\n", p.name, p.r.Rating, p.r.RD, rating.Provisional(p.r))
	}
	// Output:
	// Alice: 1662 RD 290 provisional true
	// Bob: 1338 RD 290 provisional true
}

func ExampleUpdate() {
	// The worked example of Glickman's paper: one rating period, three games.
	player := rating.Rating{Rating: 1500, RD: 200, Volatility: 0.06}
	r := rating.Update(player, []rating.Game{
		{Opponent: rating.Rating{Rating: 1400, RD: 30, Volatility: 0.06}, Outcome: rating.Win},
		{Opponent: rating.Rating{Rating: 1550, RD: 100, Volatility: 0.06}, Outcome: rating.Loss},
		{Opponent: rating.Rating{Rating: 1700, RD: 300, Volatility: 0.06}, Outcome: rating.Loss},
	})
	fmt.Printf("%.2f %.2f %.7f\n", r.Rating, r.RD, r.Volatility)
	// Output: 1464.05 151.52 0.0599960
}
