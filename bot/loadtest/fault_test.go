package loadtest

import (
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFaults runs each fault briefly against a few games: the fault is
// injected and seen by the run (REST calls failed or held, connections
// ended, locks held, storm requests sent), the report counts what the
// players met, and nothing acknowledged is lost: every board a player saw
// is a move the database holds, in order. No timing is asserted, nor the
// figures the faults aim at (they depend on the machine). A storm strikes
// only once a game has ended, and on a loaded machine the players may not
// get to a move between restarts in a few seconds: each run goes on until
// its fault has struck and the players have moved (UntilStruck), however
// slow the machine.
func TestFaults(t *testing.T) {
	bin := *botBin
	if bin == "" {
		bin = buildBot(t)
	}
	short := Config{Games: 3, Duration: 3 * time.Second, Latency: Latency{Min: 20 * time.Millisecond, Max: 40 * time.Millisecond},
		Layouts: []string{"square"}, Typed: 0.2, Processes: 1, Backend: "bbolt", Bot: bin, Wait: 10 * time.Second, UntilStruck: true}
	cases := []struct {
		name   string
		fault  Fault
		config func(*Config)
	}{
		{"discord500", Fault{Kind: faultDiscord500, Rate: 0.2}, nil},
		{"discordhang", Fault{Kind: faultDiscordHang, Rate: 0.1}, nil},
		{"pgrestart", Fault{Kind: faultPGRestart, Every: 500 * time.Millisecond}, func(c *Config) { c.Backend = "postgres" }},
		{"pglock", Fault{Kind: faultPGLock, Every: 200 * time.Millisecond, Hold: time.Second}, func(c *Config) { c.Backend = "postgres" }},
		// The storms need finished games: a square game takes 28 moves.
		{"reviews", Fault{Kind: faultReviews, Users: 2}, func(c *Config) { c.Latency = Latency{} }},
		{"gifs", Fault{Kind: faultGIFs, Users: 2}, func(c *Config) { c.Latency = Latency{} }},
		{"burst", Fault{Kind: faultBurst, RestartAt: 600 * time.Millisecond}, nil},
		{"burst-postgres", Fault{Kind: faultBurst, RestartAt: 600 * time.Millisecond}, func(c *Config) { c.Backend = "postgres" }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := short
			cfg.Fault = tc.fault
			if tc.config != nil {
				tc.config(&cfg)
			}
			rep := Run(t, cfg)
			rep.Print(os.Stdout)
			assert.Empty(t, rep.Problems, "nothing lost or doubled, nothing Discord would refuse")
			assert.Positive(t, rep.FaultsServed, "the fault struck")
			assert.Positive(t, rep.Moves, "the players got to play")
			assert.GreaterOrEqual(t, rep.Failures, rep.StoredAnsweredFailed-rep.StoredAnsweredLate, "a stored move answered as a failure is a failure the players met")
			if tc.fault.Kind != faultPGLock {
				// Only a row locked past the lock timeout is answered
				// "busy": a burst, a restart or a slow Discord is not.
				assert.Zero(t, rep.BusyUnlocked, "interactions refused as busy while no game was locked")
			}
		})
	}
}

func TestFaultCheck(t *testing.T) {
	cases := []struct {
		name    string
		fault   Fault
		backend string
		bad     bool
	}{
		{"none", Fault{}, "bbolt", false},
		{"named none", Fault{Kind: faultNone}, "bbolt", false},
		{"unknown", Fault{Kind: "meteor"}, "bbolt", true},
		{"500s", Fault{Kind: faultDiscord500, Rate: 0.05}, "bbolt", false},
		{"500s without a rate", Fault{Kind: faultDiscord500}, "bbolt", true},
		{"hangs over all", Fault{Kind: faultDiscordHang, Rate: 1.5}, "bbolt", true},
		{"restarts on bbolt", Fault{Kind: faultPGRestart, Every: time.Second}, "bbolt", true},
		{"restarts", Fault{Kind: faultPGRestart, Every: time.Second}, "postgres", false},
		{"restarts never", Fault{Kind: faultPGRestart}, "postgres", true},
		{"locks without hold", Fault{Kind: faultPGLock, Every: time.Second}, "postgres", true},
		{"locks", Fault{Kind: faultPGLock, Every: time.Second, Hold: time.Second}, "postgres", false},
		{"storm of nobody", Fault{Kind: faultGIFs}, "bbolt", true},
		{"storm", Fault{Kind: faultReviews, Users: 3}, "bbolt", false},
		{"burst without a restart", Fault{Kind: faultBurst}, "bbolt", true},
		{"burst", Fault{Kind: faultBurst, RestartAt: time.Second}, "postgres", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.fault.check(tc.backend)
			if tc.bad {
				assert.Error(t, err)
			} else {
				assert.NoError(t, err)
			}
		})
	}
}

func TestFaultLogHits(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	var l faultLog
	l.struck("a", at(10), at(20)) // a lock of channel a
	l.struck("", at(30), at(31))  // every channel, a restart
	l.struck("-", at(40), at(41)) // a storm request: no game's
	require.Equal(t, 3, l.count())
	cases := []struct {
		channel  string
		from, to float64
		hit      bool
	}{
		{"a", 5, 9, false},
		{"a", 5, 10, true},
		{"a", 12, 13, true},
		{"a", 20, 25, true},
		{"a", 21, 25, false},
		{"b", 12, 13, false},
		{"b", 29, 30.5, true},
		{"a", 31.5, 35, false},
		{"b", 40, 41, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.hit, l.hits(c.channel, at(c.from), at(c.to)), "%s from %v to %v", c.channel, c.from, c.to)
	}
}

func TestShownPly(t *testing.T) {
	boards := []postedBoard{
		{channel: "a", game: 1, ply: 0},
		{channel: "a", game: 1, ply: 2},
		{channel: "a", game: 1, ply: 1},
		{channel: "a", game: 2, ply: 5},
		{channel: "b", game: 3, ply: 7, over: true},
	}
	assert.Equal(t, 2, shownPly(boards, "a", 1, 3), "the last board shown")
	assert.Equal(t, 5, shownPly(boards, "a", 2, 5))
	assert.Equal(t, 9, shownPly(boards, "b", 3, 9), "a final board shows every move")
	assert.Equal(t, -1, shownPly(boards, "b", 1, 4), "no board of the game")
}
