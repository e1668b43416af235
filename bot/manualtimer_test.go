package bot

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// ManualTimer is a Timer whose time moves only when a test says
// (Advance), so that a test of an interaction's limits (its deferral, the
// deadlines of its storage calls) checks their order, not how fast the
// machine runs it. It is safe for concurrent use.
type ManualTimer struct {
	mu      sync.Mutex
	now     time.Duration // since the timer was made
	timers  []*manualTimed
	changed chan struct{} // closed (and replaced) when a timer starts or stops
}

// manualTimed is a timer of a ManualTimer, started and neither fired nor
// stopped.
type manualTimed struct {
	at time.Duration
	f  func()
}

// NewManualTimer returns a ManualTimer whose time has not moved yet.
func NewManualTimer() *ManualTimer { return &ManualTimer{changed: make(chan struct{})} }

// AfterFunc implements Timer: f is called by the Advance that reaches d
// from now.
func (m *ManualTimer) AfterFunc(d time.Duration, f func()) func() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := &manualTimed{at: m.now + d, f: f}
	m.timers = append(m.timers, t)
	m.change()
	return func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		k := slices.Index(m.timers, t)
		if k < 0 {
			return false
		}
		m.timers = slices.Delete(m.timers, k, k+1)
		m.change()
		return true
	}
}

// change wakes WaitPending; call with m.mu held.
func (m *ManualTimer) change() {
	close(m.changed)
	m.changed = make(chan struct{})
}

// Advance moves the time on by d and calls the functions of the timers
// then due, in the order of their times, each returning before the next
// is called.
func (m *ManualTimer) Advance(d time.Duration) {
	m.mu.Lock()
	m.now += d
	var due []*manualTimed
	m.timers = slices.DeleteFunc(m.timers, func(t *manualTimed) bool {
		if t.at <= m.now {
			due = append(due, t)
			return true
		}
		return false
	})
	m.change()
	m.mu.Unlock()
	slices.SortStableFunc(due, func(a, b *manualTimed) int {
		switch {
		case a.at < b.at:
			return -1
		case a.at > b.at:
			return 1
		}
		return 0
	})
	for _, t := range due {
		t.f()
	}
}

// Pending returns how many timers are started and neither fired nor
// stopped.
func (m *ManualTimer) Pending() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.timers)
}

// WaitPending waits until n timers are pending: 0 once the interactions
// under way are over, 3 once one has started the timers of its limits
// (its deferral, its storage calls' two deadlines).
func (m *ManualTimer) WaitPending(tb testing.TB, n int) {
	tb.Helper()
	gaveUp := time.After(time.Minute) // only a hung test gets there
	for {
		m.mu.Lock()
		k, changed := len(m.timers), m.changed
		m.mu.Unlock()
		if k == n {
			return
		}
		select {
		case <-changed:
		case <-gaveUp:
			tb.Fatalf("%d timers pending, not %d", k, n)
		}
	}
}
