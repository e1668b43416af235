package storage

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// groupCommit feeds bbolt's one writer: the write transactions that
// arrive while a commit is under way wait for it, then commit together,
// in one bbolt transaction and one fsync. A burst of two hundred moves
// costs a few commits instead of two hundred, and no write waits for a
// timer (bbolt's own DB.Batch waits up to 10 ms for company): a write
// that finds the writer idle commits at once, alone.
//
// The first caller that finds no commit under way leads: it commits the
// waiting writes in one batch, then hands the lead to the first write
// that came meanwhile. A write whose
// function fails (or panics) cannot stay in the batch, which bbolt cannot
// roll back in part: the batch's transaction is rolled back, the others
// run again without it, and it runs again alone in its caller's
// goroutine, where its error is its own (it may have failed because of
// an earlier write of the batch) and its panic the caller's; the first
// write of a batch, which saw only what was committed, keeps the error it
// returned. Running a write's function again is what Backend allows.
//
// It is safe for concurrent use.
type groupCommit struct {
	mu      sync.Mutex
	pending []*groupWrite
	leading bool
}

// groupWrite is one write transaction waiting for the group's commit.
type groupWrite struct {
	fn    func(*bolt.Tx) error
	ready func() error  // nil, or why the write is no longer wanted
	done  chan error    // errRunAlone, or what the commit returned
	lead  chan struct{} // the write is to lead the next batch
}

// errRunAlone tells a write that it failed in its batch and must run
// alone.
var errRunAlone = errors.New("run the write alone")

// update runs fn in a write transaction of db, with the writes waiting
// beside it: the transaction commits if every function returns nil. lock
// and unlock are held around each transaction (the board notes' order
// lock); ready, called under it before the batch runs, drops a write whose
// caller gave up (its context is done) with the error it returns.
func (g *groupCommit) update(db *bolt.DB, lock sync.Locker, ready func() error, fn func(*bolt.Tx) error) error {
	w := &groupWrite{fn: fn, ready: ready, done: make(chan error, 1), lead: make(chan struct{}, 1)}
	g.mu.Lock()
	g.pending = append(g.pending, w)
	lead := !g.leading
	g.leading = true
	g.mu.Unlock()
	for {
		if lead {
			g.lead(db, lock)
		}
		select {
		case <-w.lead:
			lead = true
			continue
		case err := <-w.done:
			if !errors.Is(err, errRunAlone) {
				return err
			}
		}
		lock.Lock()
		defer lock.Unlock()
		if err := ready(); err != nil {
			return err
		}
		return db.Update(fn)
	}
}

// lead commits one batch, the writes pending (its own among them), and
// hands the lead to the first write that came meanwhile, if one did: a
// leader leads once, so that its own caller is not kept answering for
// the writes that keep coming.
func (g *groupCommit) lead(db *bolt.DB, lock sync.Locker) {
	lock.Lock()
	g.mu.Lock()
	batch := g.pending
	g.pending = nil
	g.mu.Unlock()
	commit(db, batch)
	lock.Unlock()
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.pending) == 0 {
		g.leading = false
		return
	}
	g.pending[0].lead <- struct{}{}
}

// commit runs batch in one transaction of db and tells each write what
// became of it, taking out the writes that fail until the rest commit.
func commit(db *bolt.DB, batch []*groupWrite) {
	batch = slices.DeleteFunc(batch, func(w *groupWrite) bool {
		err := w.ready()
		if err != nil {
			w.done <- err
		}
		return err != nil
	})
	for len(batch) > 0 {
		failed, panicked := -1, false
		err := db.Update(func(tx *bolt.Tx) error {
			for i, w := range batch {
				var err error
				if panicked, err = runOne(tx, w.fn); err != nil {
					failed = i
					return err
				}
			}
			return nil
		})
		switch {
		case failed < 0:
			for _, w := range batch {
				w.done <- err
			}
			return
		case failed == 0 && !panicked:
			// It ran first, on what is committed, as if alone: its
			// error is its own.
			batch[0].done <- err
		default:
			batch[failed].done <- errRunAlone
		}
		batch = append(batch[:failed:failed], batch[failed+1:]...)
	}
}

// runOne runs fn in tx, turning a panic into an error (the write runs
// again alone, in its caller's goroutine, and panics there).
func runOne(tx *bolt.Tx, fn func(*bolt.Tx) error) (panicked bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			panicked, err = true, fmt.Errorf("panic in a write: %v", r)
		}
	}()
	return false, fn(tx)
}
