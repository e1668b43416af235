package puzzle

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/engine/rating"
)

func TestDay(t *testing.T) {
	paris := time.FixedZone("CET", 3600)
	tests := []struct {
		at   time.Time
		want string
	}{
		{time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC), "2026-11-27"},
		{time.Date(2026, 11, 27, 23, 59, 59, 0, time.UTC), "2026-11-27"},
		{time.Date(2026, 11, 28, 0, 30, 0, 0, paris), "2026-11-27"}, // 23:30 UTC
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) { assert.Equal(t, tt.want, Day(tt.at)) })
	}
}

func TestDailyIndex(t *testing.T) {
	// Property: always a valid index, the same for the same day, and
	// spread over the candidates across a year.
	seen := map[int]bool{}
	day := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	for i := range 365 {
		d := Day(day.AddDate(0, 0, i))
		n := DailyIndex(d, 50)
		assert.GreaterOrEqual(t, n, 0)
		assert.Less(t, n, 50)
		assert.Equal(t, n, DailyIndex(d, 50), "deterministic")
		seen[n] = true
	}
	assert.Greater(t, len(seen), 40, "a year of days uses most of 50 candidates")
	assert.True(t, InDailyBand(1250))
	assert.True(t, InDailyBand(1550))
	assert.False(t, InDailyBand(1100))
	assert.False(t, InDailyBand(1700))
}

func TestRate(t *testing.T) {
	player := rating.New()
	start := StartRating(1400)
	assert.Equal(t, rating.Rating{Rating: 1400, RD: StartRD, Volatility: 0.06}, start)

	up, down := Rate(player, start, true)
	assert.Greater(t, up.Rating, player.Rating, "solving raises the player")
	assert.Less(t, down.Rating, start.Rating, "and lowers the puzzle")
	lo, hi := Rate(player, start, false)
	assert.Less(t, lo.Rating, player.Rating, "failing lowers the player")
	assert.Greater(t, hi.Rating, start.Rating, "and raises the puzzle")
	assert.Less(t, up.RD, player.RD, "an attempt narrows the player's RD")
}
