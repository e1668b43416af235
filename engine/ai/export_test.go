package ai

import "time"

// WithClock returns c searching by the clock now instead of the system's.
func (c Config) WithClock(now func() time.Time) Config {
	c.clock = &clock{read: now}
	return c
}

// WithClock returns a searching by the clock now instead of the system's.
func (a AlphaBeta) WithClock(now func() time.Time) AlphaBeta {
	a.clock = &clock{read: now}
	return a
}
