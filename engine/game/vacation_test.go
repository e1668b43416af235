package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/game"
)

func TestVacation(t *testing.T) {
	const limit = game.VacationCap
	joined := t0
	tests := []struct {
		name string
		v    func(t *testing.T) game.Vacation
		at   time.Time
		bank time.Duration
	}{
		{"a new player", func(*testing.T) game.Vacation { return game.NewVacation(joined, limit) }, joined, 14 * day},
		{"a week less a second", func(*testing.T) game.Vacation { return game.NewVacation(joined, limit) }, joined.Add(7*day - time.Second), 14 * day},
		{"a day a week", func(*testing.T) game.Vacation { return game.NewVacation(joined, limit) }, joined.Add(7 * day), 15 * day},
		{"up to the cap", func(*testing.T) game.Vacation { return game.NewVacation(joined, limit) }, joined.Add(52 * 7 * day), 30 * day},
		{"spent by the hour begun", func(t *testing.T) game.Vacation {
			v := game.NewVacation(joined, limit)
			require.NoError(t, v.Start(joined, limit))
			require.NoError(t, v.End(joined.Add(90*time.Minute), limit))
			return v
		}, joined.Add(2 * time.Hour), 14*day - 2*time.Hour},
		{"counted while on vacation", func(t *testing.T) game.Vacation {
			v := game.NewVacation(joined, limit)
			require.NoError(t, v.Start(joined, limit))
			return v
		}, joined.Add(3*day + time.Minute), 11*day - time.Hour},
		{"weeks that end on vacation add nothing", func(t *testing.T) game.Vacation {
			v := game.NewVacation(joined, limit)
			require.NoError(t, v.Start(joined.Add(6*day), limit))
			require.NoError(t, v.End(joined.Add(8*day), limit))
			return v
		}, joined.Add(13 * day), 12 * day},
		{"the next week adds again", func(t *testing.T) game.Vacation {
			v := game.NewVacation(joined, limit)
			require.NoError(t, v.Start(joined.Add(6*day), limit))
			require.NoError(t, v.End(joined.Add(8*day), limit))
			return v
		}, joined.Add(14 * day), 13 * day},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := tt.v(t)
			assert.Equal(t, tt.bank, v.Balance(tt.at, limit))
		})
	}
	t.Run("a lowered cap cuts the bank", func(t *testing.T) {
		v := game.NewVacation(joined, 10*day)
		assert.Equal(t, 10*day, v.Balance(joined, 10*day))
		assert.Equal(t, 10*day, v.Balance(joined.Add(30*day), 10*day))
	})
}

func TestVacationRunsOut(t *testing.T) {
	v := game.NewVacation(t0, game.VacationCap)
	require.NoError(t, v.Start(t0, game.VacationCap))
	assert.True(t, v.On())
	assert.Equal(t, t0.Add(14*day), v.Ends())
	require.NoError(t, v.End(t0.Add(20*day), game.VacationCap), "ended late by the scheduler: it ran out at Ends")
	assert.False(t, v.On())
	assert.Equal(t, time.Duration(0), v.Balance(t0.Add(20*day), game.VacationCap))
	assert.ErrorIs(t, v.Start(t0.Add(20*day), game.VacationCap), game.ErrBankEmpty)
	assert.Equal(t, day, v.Balance(t0.Add(21*day), game.VacationCap), "the week that ended after the vacation adds a day")
}

func TestVacationRefused(t *testing.T) {
	on := game.NewVacation(t0, game.VacationCap)
	require.NoError(t, on.Start(t0, game.VacationCap))
	tests := []struct {
		name   string
		v      game.Vacation
		change func(v *game.Vacation) error
		err    error
	}{
		{"turned off", game.NewVacation(t0, game.VacationCap), func(v *game.Vacation) error { return v.Start(t0, 0) }, game.ErrVacationsOff},
		{"already on vacation", on, func(v *game.Vacation) error { return v.Start(t0.Add(day), game.VacationCap) }, game.ErrOnVacation},
		{"not on vacation", game.NewVacation(t0, game.VacationCap), func(v *game.Vacation) error { return v.End(t0, game.VacationCap) }, game.ErrNotOnVacation},
		{"an empty bank", game.NewVacation(t0, 0), func(v *game.Vacation) error { return v.Start(t0, game.VacationCap) }, game.ErrBankEmpty},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := tt.v
			assert.ErrorIs(t, tt.change(&v), tt.err)
			assert.Equal(t, tt.v, v, "a refused change leaves the bank alone")
		})
	}
}

func TestVacationNotice(t *testing.T) {
	tests := []struct {
		name string
		bank time.Duration // the limit, and so the bank at the start
		want time.Time
	}{
		{"a day before it runs out", game.VacationCap, t0.Add(14*day - game.VacationNotice)},
		{"at the start of a bank of less than a day", 20 * time.Hour, t0},
		{"at the start of a bank of a day", day, t0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := game.NewVacation(t0, tt.bank)
			assert.True(t, v.Notice().IsZero(), "no vacation under way")
			require.NoError(t, v.Start(t0, tt.bank))
			assert.Equal(t, tt.want, v.Notice())
		})
	}
}
