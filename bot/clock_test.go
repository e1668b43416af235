package bot_test

import (
	"sync"
	"testing"
	"time"
)

// fakeClock is a bot.Clock whose time moves only when a test says, so a
// test can play days of a game in milliseconds.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []waiter
	sleeps  []time.Duration // every duration After was asked for
	asked   chan struct{}   // closed (and replaced) when After adds a waiter
}

type waiter struct {
	at time.Time
	ch chan time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC), asked: make(chan struct{})}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sleeps = append(c.sleeps, d)
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, waiter{c.now.Add(d), ch})
	close(c.asked)
	c.asked = make(chan struct{})
	return ch
}

// AdvanceWaited waits until someone waits on the clock (After), then
// moves the time on by d, as Advance does.
func (c *fakeClock) AdvanceWaited(tb testing.TB, d time.Duration) {
	tb.Helper()
	timeout := time.After(hung)
	for {
		c.mu.Lock()
		n, asked := len(c.waiters), c.asked
		c.mu.Unlock()
		if n > 0 {
			c.Advance(d)
			return
		}
		select {
		case <-asked:
		case <-timeout:
			tb.Fatalf("nobody waited on the clock")
		}
	}
}

// Advance moves the time on by d and wakes whoever waits until then.
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			kept = append(kept, w)
			continue
		}
		w.ch <- c.now
	}
	c.waiters = kept
}

// Sleeps returns the durations the scheduler asked to sleep so far.
func (c *fakeClock) Sleeps() []time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]time.Duration(nil), c.sleeps...)
}

// Waiting returns how many waits on the clock (After) are not over yet.
func (c *fakeClock) Waiting() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}
