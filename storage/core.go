package storage

import (
	"context"
	"time"
)

// Core is what every backend of kulami's storage shares: each method of
// the bot's store (see doc.go) as checks and writes over a Backend's
// transactions. A backend (Store for bbolt, storage/postgres for
// PostgreSQL) implements Tx and Backend and embeds a Core made by NewCore;
// what a game's end, a challenge's acceptance or a restart writes is
// decided here once, so the backends cannot differ in it.
//
// A Core is safe for concurrent use if its Backend is.
type Core struct {
	b   Backend
	opt Options
}

// NewCore returns the Core of backend b with the options opt (only
// RatingPeriod, the defaults of settings and Updated count here).
func NewCore(b Backend, opt Options) *Core {
	if opt.RatingPeriod == 0 {
		opt.RatingPeriod = DefaultRatingPeriod
	}
	if opt.Updated != nil {
		b = timedBackend{Backend: b, updated: opt.Updated}
	}
	return &Core{b: b, opt: opt}
}

// timedBackend is a Backend whose write transactions are timed for
// Options.Updated.
type timedBackend struct {
	Backend
	updated func(time.Duration, error)
}

// Update implements Backend, timing b's Update.
func (b timedBackend) Update(ctx context.Context, fn func(Tx) error) error {
	start := time.Now()
	err := b.Backend.Update(ctx, fn)
	b.updated(time.Since(start), err)
	return err
}
