package loadtest

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// The faults a run can inject (Fault.Kind).
const (
	faultNone        = "none"        // nothing goes wrong
	faultDiscord500  = "discord500"  // the proxy answers a share of the bot's REST calls 500
	faultDiscordHang = "discordhang" // the proxy holds a share of them, unanswered, until the bot gives up
	faultPGRestart   = "pgrestart"   // PostgreSQL ends all the bot's connections, now and then
	faultPGLock      = "pglock"      // a side transaction locks one game's row at a time
	faultReviews     = "reviews"     // extra users ask for /kulami review of finished games all the time
	faultGIFs        = "gifs"        // extra users click Replay (GIF) on finished games all the time
	faultBurst       = "burst"       // every table starts within burstWithin, and the bot restarts inside it
)

// faultKinds are the faults, as -fault names them.
var faultKinds = []string{faultNone, faultDiscord500, faultDiscordHang, faultPGRestart, faultPGLock, faultReviews, faultGIFs, faultBurst}

// burstWithin is the time within which a burst's tables send their first
// challenges (each at a random moment of it) and accept them.
const burstWithin = 2 * time.Second

// Fault is the fault a run injects while the players play (until
// Config.Duration ends; the grace period after it is fault-free).
type Fault struct {
	Kind string // one of faultKinds; "" is none
	// Rate is the share of the bot's REST calls that discord500 and
	// discordhang hit.
	Rate float64
	// Every is how often pgrestart ends the bot's connections, and how
	// long pglock waits between two locks.
	Every time.Duration
	// Hold is how long pglock keeps a game's row locked.
	Hold time.Duration
	// Users is how many users storm the bot with reviews or GIFs.
	Users int
	// RestartAt is when, after the start, burst restarts the bot (stops
	// it, then starts it again on the same database).
	RestartAt time.Duration
}

// on reports whether the run injects a fault.
func (f Fault) on() bool { return f.Kind != "" && f.Kind != faultNone }

// needsPostgres reports whether the fault is PostgreSQL's.
func (f Fault) needsPostgres() bool { return f.Kind == faultPGRestart || f.Kind == faultPGLock }

// String describes the fault and its setting, for the report.
func (f Fault) String() string {
	switch f.Kind {
	case faultDiscord500, faultDiscordHang:
		return fmt.Sprintf("%s (%.0f%% of REST calls)", f.Kind, 100*f.Rate)
	case faultPGRestart:
		return fmt.Sprintf("%s (every %v)", f.Kind, f.Every)
	case faultPGLock:
		return fmt.Sprintf("%s (one game's row for %v, every %v)", f.Kind, f.Hold, f.Every)
	case faultReviews, faultGIFs:
		return fmt.Sprintf("%s (%d users)", f.Kind, f.Users)
	case faultBurst:
		return fmt.Sprintf("%s (every table starts within %v, the bot restarts at %v)", f.Kind, burstWithin, f.RestartAt)
	}
	return faultNone
}

// check reports the first setting of the fault that cannot work.
func (f Fault) check(backend string) error {
	switch {
	case f.Kind != "" && !slices.Contains(faultKinds, f.Kind):
		return fmt.Errorf("fault %q is none of %s", f.Kind, strings.Join(faultKinds, ", "))
	case f.needsPostgres() && backend != "postgres":
		return fmt.Errorf("fault %s needs the backend postgres", f.Kind)
	case (f.Kind == faultDiscord500 || f.Kind == faultDiscordHang) && (f.Rate <= 0 || f.Rate > 1):
		return fmt.Errorf("fault rate is %v; it is a share above 0, at most 1", f.Rate)
	case f.needsPostgres() && f.Every <= 0:
		return fmt.Errorf("fault every is %v; it must be positive", f.Every)
	case f.Kind == faultPGLock && f.Hold <= 0:
		return fmt.Errorf("fault hold is %v; it must be positive", f.Hold)
	case (f.Kind == faultReviews || f.Kind == faultGIFs) && f.Users < 1:
		return fmt.Errorf("storm users is %d; at least one is needed", f.Users)
	case f.Kind == faultBurst && f.RestartAt <= 0:
		return fmt.Errorf("restart at is %v; it must be positive", f.RestartAt)
	}
	return nil
}

// pgRecovery is how long after PostgreSQL ended the bot's connections a
// move counts as under the fault: the pool finds its dead connections
// as it uses them.
const pgRecovery = time.Second

// faultLog is what a run's fault did: how many times it struck, and when
// and where, so that a late board can be told apart as under the fault or
// not. It is safe for concurrent use.
type faultLog struct {
	mu      sync.Mutex
	served  int // faults served: REST calls failed or held, terminations, locks, storm requests
	windows []faultWindow
}

// faultWindow is a time when a fault held a channel's game (or every
// game, for channel "").
type faultWindow struct {
	channel  string
	from, to time.Time
}

// struck notes a fault served on channel ("": every channel, "-": none
// that a game is played in) from from to to.
func (l *faultLog) struck(channel string, from, to time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.served++
	if channel != "-" {
		l.windows = append(l.windows, faultWindow{channel: channel, from: from, to: to})
	}
}

// count returns how many faults were served.
func (l *faultLog) count() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.served
}

// hits reports whether a fault held the game of channel at some time
// between from and to.
func (l *faultLog) hits(channel string, from, to time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.ContainsFunc(l.windows, func(w faultWindow) bool {
		return (w.channel == "" || w.channel == channel) && !w.from.After(to) && !w.to.Before(from)
	})
}
