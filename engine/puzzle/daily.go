package puzzle

import (
	"hash/fnv"
	"time"
)

// The band of starting ratings the daily puzzle is chosen from: the
// middle of the difficulty scale (see doc.go), neither the easiest
// puzzles nor those Hard's search never finds.
const (
	DailyLow  = baseRating + ratingStep   // 1250
	DailyHigh = baseRating + 3*ratingStep // 1550
)

// Day names the UTC day of t, "2006-01-02": the day of a daily puzzle.
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// InDailyBand reports whether a puzzle of starting rating r may be a
// daily puzzle.
func InDailyBand(r int) bool { return r >= DailyLow && r <= DailyHigh }

// DailyIndex returns which of n candidates (the puzzles in the daily
// band, in the order of their IDs) is the daily puzzle of day (as Day
// writes it): a hash of the day, so that every process chooses the same
// one and consecutive days are unrelated. n must be positive.
func DailyIndex(day string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(day))
	return int(h.Sum64() % uint64(n))
}
