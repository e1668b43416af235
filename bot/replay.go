package bot

import (
	"context"
	"sync"
	"time"
)

// tokenLife is how long Discord keeps an interaction usable: its token
// expires 15 minutes after it was sent.
const tokenLife = 15 * time.Minute

// recent remembers the interactions the bot received in the last
// tokenLife, so that one delivered again (the gateway replays events after
// a resume; a proxy may retry) is not acted on twice. It is safe for
// concurrent use.
type recent struct {
	mu    sync.Mutex
	seen  map[string]time.Time // interaction ID → when it came first
	prune time.Time            // when seen was last pruned
}

// first reports whether the interaction id comes for the first time at
// now, and remembers it.
func (r *recent) first(id string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.seen == nil {
		r.seen = map[string]time.Time{}
	}
	if now.Sub(r.prune) > time.Minute {
		for k, at := range r.seen {
			if now.Sub(at) > tokenLife {
				delete(r.seen, k)
			}
		}
		r.prune = now
	}
	if at, ok := r.seen[id]; ok && now.Sub(at) <= tokenLife {
		return false
	}
	r.seen[id] = now
	return true
}

// forget forgets id, so that it counts as new when it comes again.
func (r *recent) forget(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.seen, id)
}

// deliveries is a store that several processes share (PostgreSQL): it
// records the interactions delivered over HTTP, so that a signed request
// replayed to another process behind a load balancer is refused there as
// by the process that took it first (see firstDelivery). A bbolt store
// needs none: only one process opens its file (storage.ErrLocked), so
// what that process's recent remembers is every delivery there is.
// Gateway events need none either: Discord sends each to one session.
type deliveries interface {
	// FirstDelivery records that the interaction id was delivered at
	// now, and reports whether no process recorded it within keep.
	FirstDelivery(ctx context.Context, id string, now time.Time, keep time.Duration) (bool, error)
}

// deliveryWithin bounds firstDelivery's round trip to the database, a
// small share of the 3 s Discord gives the first answer.
const deliveryWithin = 500 * time.Millisecond

// firstDelivery reports whether the interaction id, delivered over HTTP
// at now, comes for the first time to any of the processes sharing the
// store (always true for a store no other process opens). A database that
// cannot tell in time lets the interaction through, logged: refusing it
// would fail a player's click for a fault of the database, which the
// handlers meet anyway; only replays within that fault slip through.
func (b *Bot) firstDelivery(ctx context.Context, id string, now time.Time) bool {
	if b.deliveries == nil {
		return true
	}
	ctx, cancel := context.WithTimeout(ctx, deliveryWithin)
	defer cancel()
	first, err := b.deliveries.FirstDelivery(ctx, id, now, tokenLife)
	if err != nil {
		b.log.Warn("cannot check with the database that an interaction is new: handling it", "interaction", id, "err", err)
		return true
	}
	return first
}
