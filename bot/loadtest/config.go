package loadtest

import (
	"fmt"
	"strings"
	"time"
)

// Config is the load of a run.
type Config struct {
	Games    int           // tables playing at once, each in its own channel
	Duration time.Duration // how long the players go on starting interactions
	Latency  Latency       // how long every REST call of the bot takes
	// Think is how long a player thinks before each answer, on average
	// (each wait is random, between half and one and a half times it); 0
	// answers at once.
	Think   time.Duration
	Layouts []string // the boards of the tables, in turn: square, random, irregular
	Typed   float64  // the share of moves typed with /kulami move instead of clicked
	Bot     string   // the kulamibot binary; "" builds it
	// Processes is how many kulamibot processes serve the interactions,
	// which go to them in turn, as from a round-robin load balancer.
	Processes int
	// Backend is where the bot keeps its games: "bbolt" (a file; one
	// process only) or "postgres" (a fresh schema on the test server of
	// storage/postgres/pgtest, which all processes share).
	Backend string
	// Pin runs each process on one CPU of its own (the k-th process on
	// CPU k modulo their number) with GOMAXPROCS=1, so that runs with one
	// and with several processes compare processes, not how the scheduler
	// of one process spreads over the cores. The fake Discord, the load
	// and PostgreSQL are not pinned.
	Pin bool
	// Fault is the fault injected while the players play.
	Fault Fault
	// UntilStruck keeps the players playing past Duration, until the
	// fault has struck and they have played a move after that (without a
	// fault, until they have played a move), or until struckWithin has
	// passed, which only stops a run that hangs: a short run, such as CI's
	// TestFaults and TestLoad, is then never in vain, however slow the
	// machine; the throughput is still counted over Duration.
	UntilStruck bool
	// Burn is how many busy loops run beside the bot (see burn): other
	// work on the machine, which keeps it busy; 2 on 2 cores, with the
	// players and the bot, keeps the load average at about 4.
	Burn int
	// Wait is how long a player waits for the new board of a move, and
	// the run, after the players stopped, for the boards they did not
	// see (the grace period); 0 is boardWait.
	Wait time.Duration
}

// wait is Config.Wait, or its default.
func (c Config) wait() time.Duration {
	if c.Wait > 0 {
		return c.Wait
	}
	return boardWait
}

// Latency is a range of durations, written "50ms-100ms" (or "50ms" for a
// fixed one). It is a flag.Value.
type Latency struct{ Min, Max time.Duration }

// String writes the range as Set reads it.
func (l *Latency) String() string {
	if l.Min == l.Max {
		return l.Min.String()
	}
	return l.Min.String() + "-" + l.Max.String()
}

// Set reads a range such as "50ms-100ms" or "50ms".
func (l *Latency) Set(s string) error {
	lo, hi, isRange := strings.Cut(s, "-")
	if !isRange {
		hi = lo
	}
	min, err1 := time.ParseDuration(strings.TrimSpace(lo))
	max, err2 := time.ParseDuration(strings.TrimSpace(hi))
	if err1 != nil || err2 != nil || min < 0 || max < min {
		return fmt.Errorf("latency %q is not a duration or a range like 50ms-100ms", s)
	}
	l.Min, l.Max = min, max
	return nil
}

// check reports the first setting that cannot work.
func (c Config) check() error {
	switch {
	case c.Games < 1:
		return fmt.Errorf("games is %d; at least one is needed", c.Games)
	case c.Duration <= 0:
		return fmt.Errorf("duration is %v; it must be positive", c.Duration)
	case c.Think < 0:
		return fmt.Errorf("think is %v; it must not be negative", c.Think)
	case c.Typed < 0 || c.Typed > 1:
		return fmt.Errorf("typed is %v; it is a share between 0 and 1", c.Typed)
	case c.Burn < 0:
		return fmt.Errorf("burn is %d; it must not be negative", c.Burn)
	case c.Processes < 1:
		return fmt.Errorf("processes is %d; at least one is needed", c.Processes)
	case c.Backend != "bbolt" && c.Backend != "postgres":
		return fmt.Errorf("backend %q is neither bbolt nor postgres", c.Backend)
	case c.Processes > 1 && c.Fault.Kind == faultBurst:
		return fmt.Errorf("the burst restarts one bot process, not %d", c.Processes)
	case c.Processes > 1 && c.Backend != "postgres":
		return fmt.Errorf("%d processes cannot share a bbolt file: use the backend postgres", c.Processes)
	case len(c.Layouts) == 0:
		return fmt.Errorf("no layouts: name at least one of square, random, irregular")
	}
	if err := c.Fault.check(c.Backend); err != nil {
		return err
	}
	for _, l := range c.Layouts {
		if l != "square" && l != "random" && l != "irregular" {
			return fmt.Errorf("layout %q is none of square, random, irregular", l)
		}
	}
	return nil
}

// struckWithin bounds how long a run with UntilStruck waits for its fault
// to strike and its players to move: only a run that hangs gets there.
const struckWithin = 5 * time.Minute
