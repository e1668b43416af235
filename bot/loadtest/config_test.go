package loadtest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLatencySet(t *testing.T) {
	cases := []struct {
		in       string
		min, max time.Duration
		bad      bool
	}{
		{in: "50ms-100ms", min: 50 * time.Millisecond, max: 100 * time.Millisecond},
		{in: "50ms", min: 50 * time.Millisecond, max: 50 * time.Millisecond},
		{in: "0", min: 0, max: 0},
		{in: " 1s - 2s ", min: time.Second, max: 2 * time.Second},
		{in: "100ms-50ms", bad: true},
		{in: "-50ms", bad: true},
		{in: "fast", bad: true},
		{in: "", bad: true},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			var l Latency
			err := l.Set(c.in)
			if c.bad {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, Latency{c.min, c.max}, l)
		})
	}
}

// FuzzLatency checks that a latency Set accepts is a range, and that
// String writes it back as Set reads it.
func FuzzLatency(f *testing.F) {
	for _, s := range []string{"50ms-100ms", "50ms", "0", "1h-2h", "x-y", "3s-1s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var l Latency
		if l.Set(s) != nil {
			return
		}
		assert.LessOrEqual(t, l.Min, l.Max)
		assert.GreaterOrEqual(t, l.Min, time.Duration(0))
		var again Latency
		require.NoError(t, again.Set(l.String()))
		assert.Equal(t, l, again)
	})
}

func TestConfigCheck(t *testing.T) {
	ok := Config{Games: 1, Duration: time.Second, Layouts: []string{"square"}, Typed: 0.5, Processes: 1, Backend: "bbolt"}
	require.NoError(t, ok.check())
	cases := map[string]func(*Config){
		"no games":                        func(c *Config) { c.Games = 0 },
		"no duration":                     func(c *Config) { c.Duration = 0 },
		"negative think":                  func(c *Config) { c.Think = -time.Second },
		"typed over 1":                    func(c *Config) { c.Typed = 1.5 },
		"no layouts":                      func(c *Config) { c.Layouts = nil },
		"an unknown layout":               func(c *Config) { c.Layouts = []string{"square", "hex"} },
		"no processes":                    func(c *Config) { c.Processes = 0 },
		"an unknown backend":              func(c *Config) { c.Backend = "mysql" },
		"two processes on one bbolt file": func(c *Config) { c.Processes = 2 },
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			c := ok
			change(&c)
			assert.Error(t, c.check())
		})
	}
}
