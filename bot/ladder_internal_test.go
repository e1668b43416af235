package bot

import "testing"

func TestRatingDiff(t *testing.T) {
	for _, c := range []struct {
		d    float64
		want string
	}{
		{161.62, "+162"}, {-161.62, "-162"}, {0.49, "+0"}, {0, "+0"},
		{-0.058, "+0"}, // a draw between established players 2 points apart: never "-0"
		{-0.5, "-1"}, {0.5, "+1"}, {-3.2, "-3"},
	} {
		if got := ratingDiff(c.d); got != c.want {
			t.Errorf("ratingDiff(%v) = %q, want %q", c.d, got, c.want)
		}
	}
}
