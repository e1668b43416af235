package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/game"
)

// policyRule checks one pause or comfort on a game of clock m: it
// reports whether it applied, and checks that a rule that did not apply
// left the clock as it runs without it.
type policyRule func(t *testing.T, m game.MoveTime) bool

// policyGame starts a test game of clock m at start (see config).
func policyGame(t *testing.T, m game.MoveTime, start time.Time, changes ...func(*game.Config)) *game.Game {
	t.Helper()
	clock := func(c *game.Config) { c.MoveTime, c.Increment, c.Kind = m.Start, m.Increment, m.Kind }
	return mustNewAt(t, start, append([]func(*game.Config){clock}, changes...)...)
}

// ranOut returns a game of clock m and timeouts, in which both players
// moved once and alice's clock then ran out.
func ranOut(t *testing.T, m game.MoveTime, timeouts game.Timeouts) *game.Game {
	t.Helper()
	g := policyGame(t, m, t0, func(c *game.Config) { c.Timeouts = timeouts })
	play(t, g, t0)
	play(t, g, t0)
	require.NoError(t, g.Timeout(g.Deadline()))
	return g
}

// policyRules are the columns of the table of doc.go, "Clocks, pauses
// and comforts", each as it is exercised.
var policyRules = []struct {
	name  string
	check policyRule
}{
	{"vacation", func(t *testing.T, m game.MoveTime) bool {
		// Alice (to move) goes away an hour into her turn.
		g := policyGame(t, m, t0)
		deadline, at := g.Deadline(), t0.Add(time.Minute)
		err := g.Away(red, at)
		if left, stopped := g.Stopped(); stopped {
			require.NoError(t, err)
			assert.Equal(t, deadline.Sub(at), left, "stopped with the time it had")
			return true
		}
		assert.ErrorIs(t, err, game.ErrLiveGame)
		assert.True(t, g.AwaySince(red).IsZero(), "not marked away")
		assert.Equal(t, deadline, g.Deadline(), "the clock runs on")
		return false
	}},
	{"weekend", func(t *testing.T, m game.MoveTime) bool {
		// A turn that begins on Friday 23:58 UTC for a player in UTC,
		// and one on Friday 15:30 UTC for a player in Tokyo (Saturday
		// 00:30 there): paused, each runs out after the weekend.
		tokyo := mustZone(t, "Asia/Tokyo")
		paused := 0
		for _, start := range []struct {
			at   time.Time
			zone *time.Location
		}{
			{time.Date(2026, 11, 20, 23, 58, 0, 0, time.UTC), time.UTC},
			{time.Date(2026, 11, 20, 15, 30, 0, 0, time.UTC), tokyo},
		} {
			g := policyGame(t, m, start.at, func(c *game.Config) { c.Weekends, c.Zones[red] = true, start.zone })
			if g.Deadline().Equal(start.at.Add(m.Start)) {
				assert.False(t, g.Weekends(), "a game that never pauses does not say it does")
				_, inPause := g.WeekendPause(start.at.Add(time.Minute))
				assert.False(t, inPause)
				continue
			}
			assert.True(t, g.Weekends())
			paused++
		}
		require.NotEqual(t, 1, paused, "both turns or neither")
		return paused == 2
	}},
	{"quiet hours", func(t *testing.T, m game.MoveTime) bool {
		// Every deadline of the table falls between 12:00 and 14:00
		// UTC: in alice's quiet hours, 12-14.
		g := policyGame(t, m, t0, func(c *game.Config) { c.Quiet[red] = game.Quiet{From: 12, To: 14} })
		want := t0.Add(m.Start)
		require.True(t, want.Hour() >= 12 && want.Hour() < 14, "the deadline %v would fall in the quiet hours", want)
		if g.Deadline().Equal(want) {
			require.NoError(t, g.Extend(time.Minute), "a deadline extended")
			assert.Equal(t, want.Add(time.Minute), g.Deadline(), "is not moved either")
			return false
		}
		return true
	}},
	{"reminders", func(t *testing.T, m game.MoveTime) bool {
		g := policyGame(t, m, t0)
		return g.Wake().Before(g.Deadline())
	}},
	{"give time", func(t *testing.T, m game.MoveTime) bool {
		g := policyGame(t, m, t0)
		if err := g.GiveTime(black, t0); err != nil {
			return false
		}
		assert.Equal(t, m.Start+min(game.GiveStep, m.Start), g.TimeLeft(red, t0))
		return true
	}},
	{"claim or wait", func(t *testing.T, m game.MoveTime) bool {
		g := ranOut(t, m, game.Claim)
		if g.Over() {
			assert.Equal(t, game.TimedOut, g.Result().Ending)
			return false
		}
		_, _, claimable := g.Claimable(g.Deadline())
		assert.True(t, claimable)
		return true
	}},
	{"timeouts auto", func(t *testing.T, m game.MoveTime) bool {
		return ranOut(t, m, game.Auto).Over()
	}},
}

// TestClockPolicy is the table of doc.go, "Clocks, pauses and comforts":
// for every kind of clock, which pauses hold it back and which comforts
// it has, each rule exercised on a game of that clock.
func TestClockPolicy(t *testing.T) {
	t.Parallel()
	// The columns, in policyRules' order.
	const y, n = true, false
	for _, row := range []struct {
		name  string
		clock game.MoveTime
		want  [7]bool // vacation, weekend, quiet hours, reminders, give time, claim or wait, timeouts auto
	}{
		{"days per move", game.MoveTime{Start: 3 * day, Kind: game.PerMove}, [7]bool{y, y, y, y, y, y, y}},
		{"days with increment", game.MoveTime{Start: 3 * day, Increment: day, Kind: game.WholeGame}, [7]bool{y, y, y, y, y, y, y}},
		{"hours per move", game.MoveTime{Start: time.Hour, Kind: game.PerMove}, [7]bool{y, y, y, y, y, y, y}},
		{"half an hour for the whole game", game.MoveTime{Start: 30 * time.Minute, Kind: game.WholeGame}, [7]bool{n, n, n, y, y, y, y}},
		{"59 minutes for the whole game", game.MoveTime{Start: 59 * time.Minute, Kind: game.WholeGame}, [7]bool{n, n, n, y, y, y, y}},
		{"live minutes", game.MoveTime{Start: 10 * time.Minute, Kind: game.WholeGame}, [7]bool{n, n, n, n, y, n, y}},
		{"live with increment", game.MoveTime{Start: 5 * time.Minute, Increment: 10 * time.Second, Kind: game.WholeGame}, [7]bool{n, n, n, n, y, n, y}},
		{"live per move (an earlier release)", game.MoveTime{Start: 5 * time.Minute, Kind: game.PerMove}, [7]bool{n, n, n, n, y, n, y}},
	} {
		require.Equal(t, row.want[0], row.clock.Pauses(), "%s: MoveTime.Pauses", row.name)
		for k, rule := range policyRules {
			t.Run(row.name+"/"+rule.name, func(t *testing.T) {
				assert.Equal(t, row.want[k], rule.check(t, row.clock))
			})
		}
	}
}
