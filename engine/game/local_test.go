package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/game"
)

func TestParseQuiet(t *testing.T) {
	tests := []struct {
		in   string
		want game.Quiet
		err  error
	}{
		{"22-08", game.Quiet{From: 22, To: 8}, nil},
		{"00-06", game.Quiet{From: 0, To: 6}, nil},
		{"13-01", game.Quiet{From: 13, To: 1}, nil},
		{"20-08", game.Quiet{From: 20, To: 8}, nil},
		{"", game.Quiet{}, game.ErrQuietForm},
		{"22-8", game.Quiet{}, game.ErrQuietForm},
		{"22:08", game.Quiet{}, game.ErrQuietForm},
		{"2a-08", game.Quiet{}, game.ErrQuietForm},
		{"22-08 ", game.Quiet{}, game.ErrQuietForm},
		{"24-08", game.Quiet{}, game.ErrQuietHour},
		{"22-99", game.Quiet{}, game.ErrQuietHour},
		{"08-08", game.Quiet{}, game.ErrQuietLength},
		{"00-00", game.Quiet{}, game.ErrQuietLength},
		{"19-08", game.Quiet{}, game.ErrQuietLength},
		{"08-22", game.Quiet{}, game.ErrQuietLength},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := game.ParseQuiet(tt.in)
			if tt.err != nil {
				assert.ErrorIs(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, tt.in, got.String())
		})
	}
}

func FuzzParseQuiet(f *testing.F) {
	for _, s := range []string{"22-08", "00-06", "24-00", "08-08", "00-00", "2a-08", "-----"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := game.ParseQuiet(s)
		if err != nil {
			return
		}
		again, err := game.ParseQuiet(q.String())
		require.NoError(t, err)
		assert.Equal(t, q, again)
		assert.Equal(t, s, q.String(), "there is one way to write quiet hours")
	})
}

// weekends makes a game whose clocks stop over weekends, red living in
// zone.
func weekends(zone *time.Location) func(*game.Config) {
	return func(c *game.Config) {
		c.Weekends, c.MoveTime = true, 72*time.Hour
		c.Zones[red] = zone
	}
}

func TestWeekendDeadline(t *testing.T) {
	// A 3-day clock that stops from Saturday 00:00 to Monday 00:00 in the
	// player's own time zone: the deadline is read on their wall clock.
	tests := []struct {
		zone     string
		start    [5]int // y, m, d, h, min local: when the turn begins
		deadline [5]int
		half     [5]int // the first reminder: 36h of the clock left
	}{
		// Friday noon: 12h to Saturday, 60h from Monday.
		{"UTC", [5]int{2026, 11, 20, 12, 0}, [5]int{2026, 11, 25, 12, 0}, [5]int{2026, 11, 24, 0, 0}},
		{"Asia/Tokyo", [5]int{2026, 11, 20, 12, 0}, [5]int{2026, 11, 25, 12, 0}, [5]int{2026, 11, 24, 0, 0}},
		// Wednesday noon: 60h to Saturday, 12h from Monday; the first
		// reminder, 36h before, falls before the weekend.
		{"Europe/Paris", [5]int{2026, 11, 18, 12, 0}, [5]int{2026, 11, 23, 12, 0}, [5]int{2026, 11, 20, 0, 0}},
		// Across the weekends of the daylight-saving changes, whose Sunday
		// has 23 or 25 hours: the weekend still ends on Monday 00:00.
		{"Europe/Paris", [5]int{2026, 3, 27, 12, 0}, [5]int{2026, 4, 1, 12, 0}, [5]int{2026, 3, 31, 0, 0}},
		{"Europe/Paris", [5]int{2026, 10, 21, 12, 0}, [5]int{2026, 10, 26, 12, 0}, [5]int{2026, 10, 23, 0, 0}},
		{"America/New_York", [5]int{2026, 3, 6, 12, 0}, [5]int{2026, 3, 11, 12, 0}, [5]int{2026, 3, 10, 0, 0}},
		{"America/New_York", [5]int{2026, 10, 30, 12, 0}, [5]int{2026, 11, 4, 12, 0}, [5]int{2026, 11, 3, 0, 0}},
		{"Pacific/Auckland", [5]int{2026, 4, 3, 12, 0}, [5]int{2026, 4, 8, 12, 0}, [5]int{2026, 4, 7, 0, 0}},
		{"Pacific/Auckland", [5]int{2026, 9, 25, 12, 0}, [5]int{2026, 9, 30, 12, 0}, [5]int{2026, 9, 29, 0, 0}},
		// A turn that begins on a Sunday starts on Monday 00:00.
		{"Pacific/Auckland", [5]int{2026, 9, 27, 12, 0}, [5]int{2026, 10, 1, 0, 0}, [5]int{2026, 9, 29, 12, 0}},
		// A clock that runs out on Saturday 00:00 sharp runs out then.
		{"Asia/Tokyo", [5]int{2026, 11, 18, 0, 0}, [5]int{2026, 11, 21, 0, 0}, [5]int{2026, 11, 19, 12, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.zone+"/"+localDate(tt.start), func(t *testing.T) {
			z := mustZone(t, tt.zone)
			at := func(v [5]int) time.Time { return time.Date(v[0], time.Month(v[1]), v[2], v[3], v[4], 0, 0, z) }
			g := mustNewAt(t, at(tt.start), weekends(z))
			require.True(t, g.Weekends())
			assert.True(t, g.Deadline().Equal(at(tt.deadline)), "deadline %v", g.Deadline().In(z))
			assert.True(t, g.Wake().Equal(at(tt.half)), "first reminder %v", g.Wake().In(z))
			assert.Equal(t, 72*time.Hour, g.TimeLeft(red, at(tt.start)))
			restored(t, g)
		})
	}
}

// localDate writes the date of v, for a test's name.
func localDate(v [5]int) string {
	return time.Date(v[0], time.Month(v[1]), v[2], 0, 0, 0, 0, time.UTC).Format(time.DateOnly)
}

func TestWeekendTimeLeft(t *testing.T) {
	// Paris, Friday 27 March 2026 noon: the clock stops for the weekend
	// of the change to summer time (47 hours) and runs again on Monday.
	paris := mustZone(t, "Europe/Paris")
	start := time.Date(2026, 3, 27, 12, 0, 0, 0, paris)
	g := mustNewAt(t, start, weekends(paris))
	tests := []struct {
		at   time.Time
		left time.Duration
	}{
		{start, 72 * time.Hour},
		{time.Date(2026, 3, 27, 23, 0, 0, 0, paris), 61 * time.Hour},
		{time.Date(2026, 3, 28, 0, 0, 0, 0, paris), 60 * time.Hour},
		{time.Date(2026, 3, 29, 12, 0, 0, 0, paris), 60 * time.Hour},
		{time.Date(2026, 3, 30, 0, 0, 0, 0, paris), 60 * time.Hour},
		{time.Date(2026, 3, 31, 0, 0, 0, 0, paris), 36 * time.Hour},
		{time.Date(2026, 4, 1, 12, 0, 0, 0, paris), 0},
		{time.Date(2026, 4, 2, 12, 0, 0, 0, paris), 0},
	}
	for _, tt := range tests {
		t.Run(tt.at.Format(time.DateTime), func(t *testing.T) {
			assert.Equal(t, tt.left, g.TimeLeft(red, tt.at))
		})
	}
}

func TestWeekendPause(t *testing.T) {
	// Paris, Friday 27 March 2026 noon: red's clock pauses from Saturday
	// 00:00 to Monday 00:00 in Paris, a weekend of 47 hours.
	paris := mustZone(t, "Europe/Paris")
	start := time.Date(2026, 3, 27, 12, 0, 0, 0, paris)
	monday := time.Date(2026, 3, 30, 0, 0, 0, 0, paris)
	g := mustNewAt(t, start, weekends(paris))
	saturday := time.Date(2026, 3, 28, 0, 0, 0, 0, paris)
	tests := []struct {
		name   string
		at     time.Time
		until  time.Time // zero: not paused
		change time.Time // when the answer next changes
	}{
		{"on Friday", start, time.Time{}, saturday},
		{"at Saturday 00:00", saturday, monday, monday},
		{"on Sunday, summer time", time.Date(2026, 3, 29, 12, 0, 0, 0, paris), monday, monday},
		{"at Monday 00:00", monday, time.Time{}, time.Time{}}, // the deadline, Wednesday noon, comes first
		{"Friday 23:30 UTC, Saturday in Paris", time.Date(2026, 3, 27, 23, 30, 0, 0, time.UTC), monday, monday},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			until, ok := g.WeekendPause(tt.at)
			assert.Equal(t, !tt.until.IsZero(), ok)
			assert.True(t, until.Equal(tt.until), "until %v", until)
			assert.True(t, g.PauseChange(tt.at).Equal(tt.change), "PauseChange %v", g.PauseChange(tt.at))
		})
	}
	plain := mustNewAt(t, start)
	_, ok := plain.WeekendPause(time.Date(2026, 3, 28, 12, 0, 0, 0, paris))
	assert.False(t, ok, "a game without the weekend pause")
	assert.True(t, plain.PauseChange(start).IsZero(), "nor a change of it")
	require.NoError(t, g.Away(red, start))
	assert.True(t, g.PauseChange(start).IsZero(), "a clock stopped does not pause")
}

func TestWeekendsAreTheirs(t *testing.T) {
	// Black lives in Tokyo, red in New York: each clock stops over its
	// own player's weekend.
	ny, tokyo := mustZone(t, "America/New_York"), mustZone(t, "Asia/Tokyo")
	start := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC) // Friday 04:00 in New York, 18:00 in Tokyo
	g := mustNewAt(t, start, weekends(ny), func(c *game.Config) { c.Zones[black] = tokyo })
	assert.True(t, g.Deadline().Equal(time.Date(2026, 11, 25, 4, 0, 0, 0, ny)), "red: 20h on Friday, then 52h from Monday")
	play(t, g, start)
	assert.True(t, g.Deadline().Equal(time.Date(2026, 11, 25, 18, 0, 0, 0, tokyo)), "black: 6h on Friday, then 66h from Monday")
}

func TestQuietHours(t *testing.T) {
	// Red sleeps from 22:00 to 08:00 UTC: no loss on time then or in the
	// 6 hours after, and a reminder due then comes at 08:00.
	quiet := func(mt time.Duration) func(*game.Config) {
		return func(c *game.Config) { c.MoveTime, c.Quiet[red] = mt, game.Quiet{From: 22, To: 8} }
	}
	at := func(d, h, m int) time.Time { return time.Date(2026, 11, d, h, m, 0, 0, time.UTC) }
	tests := []struct {
		name          string
		moveTime      time.Duration
		start         time.Time
		deadline      time.Time
		first, second time.Time // reminders
	}{
		{"the day untouched", 10 * time.Hour, at(20, 4, 0), at(20, 14, 0), at(20, 9, 0), at(20, 13, 0)},
		{"a deadline at night moves to 14:00", 10 * time.Hour, at(20, 12, 0), at(21, 14, 0), at(21, 9, 0), at(21, 13, 0)},
		{"a deadline in the morning moves to 14:00", 10 * time.Hour, at(20, 1, 0), at(20, 14, 0), at(20, 9, 0), at(20, 13, 0)},
		{"a reminder at night comes at 08:00", 24 * time.Hour, at(20, 17, 0), at(21, 17, 0), at(21, 8, 0), at(21, 14, 36)},
		{"a short clock that would end at night", time.Hour, at(20, 21, 30), at(21, 14, 0), at(21, 13, 30), at(21, 13, 54)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNewAt(t, tt.start, quiet(tt.moveTime))
			assert.True(t, g.Deadline().Equal(tt.deadline), "deadline %v", g.Deadline())
			assert.True(t, g.Wake().Equal(tt.first), "first reminder %v", g.Wake())
			assert.ErrorIs(t, g.Remind(tt.first.Add(-time.Second)), game.ErrNotDue)
			require.NoError(t, g.Remind(tt.first))
			assert.True(t, g.Wake().Equal(tt.second), "second reminder %v", g.Wake())
			if tt.first.Hour() == 8 && tt.first.Minute() == 0 {
				assert.GreaterOrEqual(t, g.Deadline().Sub(tt.first), game.QuietMargin, "a reminder held back by the night comes at least 6h before a loss")
			}
			restored(t, g)
		})
	}
}

func TestQuietHolds(t *testing.T) {
	paris := mustZone(t, "Europe/Paris")
	night, day := game.Quiet{From: 22, To: 8}, game.Quiet{From: 12, To: 14}
	tests := []struct {
		name string
		q    game.Quiet
		at   time.Time
		loc  *time.Location
		want bool
	}{
		{"none", game.Quiet{}, time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC), nil, false},
		{"at their start", night, time.Date(2026, 11, 20, 22, 0, 0, 0, time.UTC), nil, true},
		{"after midnight", night, time.Date(2026, 11, 21, 7, 59, 0, 0, time.UTC), nil, true},
		{"at their end", night, time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC), nil, false},
		{"in their zone", night, time.Date(2026, 11, 20, 21, 30, 0, 0, time.UTC), paris, true},
		{"not in UTC's", night, time.Date(2026, 11, 20, 21, 30, 0, 0, time.UTC), nil, false},
		{"within a day", day, time.Date(2026, 11, 20, 13, 0, 0, 0, paris), paris, true},
		{"outside a day's", day, time.Date(2026, 11, 20, 23, 0, 0, 0, paris), paris, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, tt.q.Holds(tt.at, tt.loc))
			clear := tt.q.Clear(tt.at, tt.loc)
			assert.Equal(t, tt.want, !clear.Equal(tt.at), "Clear moves a time in them, and only such a time")
			assert.False(t, tt.q.Holds(clear, tt.loc), "to one out of them")
		})
	}
}

func TestQuietHoursInTheirZone(t *testing.T) {
	// Quiet hours 23-07 in Auckland, across the end of summer time (5
	// April 2026, 03:00 → 02:00).
	auckland := mustZone(t, "Pacific/Auckland")
	start := time.Date(2026, 4, 4, 14, 0, 0, 0, auckland)
	g := mustNewAt(t, start, func(c *game.Config) {
		c.MoveTime, c.Zones[red], c.Quiet[red] = 12*time.Hour, auckland, game.Quiet{From: 23, To: 7}
	})
	assert.True(t, g.Deadline().Equal(time.Date(2026, 4, 5, 13, 0, 0, 0, auckland)), "02:00 (or 03:00) is quiet: 07:00 + 6h, %v", g.Deadline().In(auckland))
}

func TestSetLocal(t *testing.T) {
	g := mustNew(t)
	before := g.Deadline()
	paris := mustZone(t, "Europe/Paris")
	require.NoError(t, g.SetLocal(red, paris, game.Quiet{From: 22, To: 8}))
	z, q := g.Local(red)
	assert.Equal(t, paris, z)
	assert.Equal(t, game.Quiet{From: 22, To: 8}, q)
	assert.Equal(t, before, g.Deadline(), "the deadline that stands is kept")
	restored(t, g)

	refuse(t, g, game.ErrInvalid, func() error { return g.SetLocal(red, nil, game.Quiet{From: 8, To: 8}) })
	refuse(t, g, game.ErrInvalid, func() error { return g.SetLocal(red, time.FixedZone("X", 3600), game.Quiet{}) })
	s := g.State()
	s.Zones[black] = "Mars/Olympus"
	_, err := game.Restore(s)
	assert.ErrorIs(t, err, game.ErrInvalid)
}

// TestHushes: a notice is hushed in the player's quiet hours, in their
// time zone, unless its game is played at one sitting; a game without a
// clock is hushed as any notice of no game.
func TestHushes(t *testing.T) {
	paris, err := time.LoadLocation("Europe/Paris")
	require.NoError(t, err)
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	require.NoError(t, err)
	q := game.Quiet{From: 21, To: 9}
	night := time.Date(2026, 12, 1, 22, 30, 0, 0, time.UTC) // 23:30 in Paris
	day := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		m    game.MoveTime
		at   time.Time
		loc  *time.Location
		want bool
	}{
		{"days, at night", game.MoveTime{Start: 72 * time.Hour}, night, paris, true},
		{"days, by day", game.MoveTime{Start: 72 * time.Hour}, day, paris, false},
		{"an hour a move, at night", game.MoveTime{Start: time.Hour}, night, paris, true},
		{"30 minutes, at night: one sitting", game.MoveTime{Start: 30 * time.Minute}, night, paris, false},
		{"live, at night", game.MoveTime{Start: 5 * time.Minute, Increment: 10 * time.Second}, night, paris, false},
		{"no clock, at night", game.MoveTime{}, night, paris, true},
		{"at night in UTC, by day in Tokyo", game.MoveTime{Start: 72 * time.Hour}, time.Date(2026, 12, 1, 2, 0, 0, 0, time.UTC), tokyo, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.m.Hushes(q, tc.at, tc.loc))
		})
	}
	assert.False(t, game.MoveTime{Start: 72 * time.Hour}.Hushes(game.Quiet{}, night, paris), "no quiet hours, no hush")
}
