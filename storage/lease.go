package storage

import (
	"context"
	"fmt"
	"time"
)

// Lease is a process's claim on the work of one wake (see Claim).
type Lease struct {
	Wake  Wake
	Owner string    // the process that holds it
	Until time.Time // when it lapses
}

// Claim claims for the process owner the work of the due wake w (a
// reminder, a timeout, an expiry, the computer's move) for d from now,
// and reports whether it got it: false if another process holds an
// unexpired lease on the same wake. Processes that share a store claim
// each wake before they handle it, so that one does the work; a lease
// that lapses (its process died) lets another take the work over. Claim
// is not what makes the work happen once: a wake's work is an update that
// checks it is still due, so a second attempt changes nothing; the lease
// spares the second attempt (the computer's search, above all).
//
// A store remembers only the last lease of a channel's game or
// challenge; leases are not part of Export, since they end with their
// processes. The backend keeps them (Backend.Leases): a bbolt store in
// memory, since only one process opens its file, so that a claim costs
// no commit; PostgreSQL in a table that its processes share. owner must
// be a usable ID and d positive (ErrInvalid).
func (s *Core) Claim(ctx context.Context, w Wake, owner string, now time.Time, d time.Duration) (bool, error) {
	if err := checkID("lease owner", owner); err != nil {
		return false, err
	}
	if d <= 0 {
		return false, fmt.Errorf("%w: the lease of %v must last a positive time", ErrInvalid, d)
	}
	got, err := inTx(ctx, s.b.Leases, func(tx LeaseTx) (bool, error) {
		l, err := tx.Lease(w.Kind, w.ChannelID)
		switch {
		case err == nil && l.Owner != owner && l.Wake.At.Equal(w.At) && now.Before(l.Until):
			return false, nil
		case err != nil && !isNotFound(err):
			return false, err
		}
		return true, tx.PutLease(&Lease{Wake: w, Owner: owner, Until: now.Add(d)})
	})
	if err != nil {
		return false, fmt.Errorf("claim the %s of channel %s: %w", w.Kind, w.ChannelID, err)
	}
	return got, nil
}
