package bot

import (
	"testing"

	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
)

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

// TestBoardID: a board's pager ID reads back as the board, for every
// ladder and season, and an all-time board's ID is its ladder's, as the
// buttons of messages from before seasons say.
func TestBoardID(t *testing.T) {
	for _, l := range []storage.Ladder{storage.Human, storage.AI} {
		if got := (board{ladder: l}).id(); got != uint64(l) {
			t.Errorf("all-time %v: id %d, want %d", l, got, l)
		}
		for s := rating.Season(4); s <= 9999*4+3; s += 97 {
			b := board{ladder: l, season: s}
			if got := boardOf(b.id()); got != b {
				t.Errorf("boardOf(%v.id()) = %v", b, got)
			}
		}
	}
}
