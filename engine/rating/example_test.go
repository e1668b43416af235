package rating_test

import (
	"fmt"
	"time"

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

func ExampleSeasonOf() {
	// 00:30 on 1 October in Paris is still 30 September in UTC.
	paris := time.FixedZone("CEST", 2*3600)
	s := rating.SeasonOf(time.Date(2026, 10, 1, 0, 30, 0, 0, paris))
	text, _ := s.MarshalText()
	fmt.Println(s, string(text))
	fmt.Println(s.Start().Format(time.DateOnly), "to", s.End().Format(time.DateOnly))
	fmt.Println("next:", s+1, "previous:", s-1)
	// Output:
	// 2026 Q3 2026-Q3
	// 2026-07-01 to 2026-10-01
	// next: 2026 Q4 previous: 2026 Q2
}
