package bot

import (
	"context"
	"errors"
	"fmt"
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
// small share of the 3 s Discord gives the first answer, counted on the
// bot's Timer.
const deliveryWithin = 500 * time.Millisecond

// firstDelivery reports whether the interaction id, delivered over HTTP
// at now, comes for the first time to any of the processes sharing the
// store (always true for a store no other process opens). It never lets
// an interaction through unrecorded: a database that cannot tell within
// deliveryWithin (the table locked, the server slow or restarting) makes
// the bot bridge it (see bridge): the interaction is handled, recorded in
// this process (recent already refuses it here again) and written to the
// table as soon as the database answers; while the bridge lasts, the
// interactions that come are recorded the same way without waiting for
// the database, so a slow table costs one interaction deliveryWithin, not
// every one.
func (b *Bot) firstDelivery(ctx context.Context, id string, now time.Time) bool {
	if b.deliveries == nil {
		return true
	}
	if b.bridge.add(id, now) {
		return true
	}
	ctx, cancel := context.WithCancelCause(ctx)
	stop := b.opt.Timer.AfterFunc(deliveryWithin, func() { cancel(errDeliverySlow) })
	defer func() { stop(); cancel(nil) }()
	first, err := b.deliveries.FirstDelivery(ctx, id, now, tokenLife)
	if err == nil {
		return first
	}
	if errors.Is(context.Cause(ctx), errDeliverySlow) {
		err = fmt.Errorf("%w: %w", errDeliverySlow, err)
	}
	if b.bridge.start(id, now) {
		b.log.Warn("cannot check with the database that interactions are new: recording them in this process until it answers",
			"interaction", id, "err", err)
		b.inflight.Add(1)
		go func() {
			defer b.inflight.Done()
			b.flushBridge(b.baseCtx)
		}()
	}
	return true
}

// errDeliverySlow is the cause of a delivery check cut at deliveryWithin.
var errDeliverySlow = errors.New("the check of the deliveries took longer than its time")

// bridgeRetry is the pause between two tries to write the bridged
// deliveries while the database fails them.
const bridgeRetry = time.Second

// flushBridge writes the deliveries of the bridge to the database, one
// at a time, waiting as long as the database takes, until none is left,
// and then ends the bridge. A delivery another process recorded first
// was handled there too (it came to both while neither could tell): it
// is logged, as nothing can undo it now.
func (b *Bot) flushBridge(ctx context.Context) {
	written := 0
	for {
		id, at, ok := b.bridge.next()
		if !ok {
			b.log.Info("the database checks interactions again: the ones recorded in this process are written", "count", written)
			return
		}
		first, err := b.deliveries.FirstDelivery(ctx, id, at, tokenLife)
		switch {
		case ctx.Err() != nil:
			b.log.Warn("shutting down with interactions recorded in this process only", "count", b.bridge.end())
			return
		case err != nil:
			select {
			case <-ctx.Done():
			case <-time.After(bridgeRetry):
			}
			continue
		case !first:
			b.log.Warn("an interaction recorded in this process while the database could not tell was handled by another process too", "interaction", id)
		}
		b.bridge.done(id)
		written++
	}
}

// bridge holds the deliveries handled while the database could not check
// them, until they are written to it (see firstDelivery). It is safe for
// concurrent use.
type bridge struct {
	mu      sync.Mutex
	on      bool
	pending map[string]time.Time
}

// add records the delivery id at now if the bridge is on, and reports
// whether it is.
func (r *bridge) add(id string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.on {
		r.pending[id] = now
	}
	return r.on
}

// start records the delivery id at now and turns the bridge on; it
// reports whether it was off (the caller then writes the bridge out).
func (r *bridge) start(id string, now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pending == nil {
		r.pending = map[string]time.Time{}
	}
	r.pending[id] = now
	was := r.on
	r.on = true
	return !was
}

// next returns a delivery to write, or turns the bridge off if none is
// left.
func (r *bridge) next() (string, time.Time, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, at := range r.pending {
		return id, at, true
	}
	r.on = false
	return "", time.Time{}, false
}

// done forgets the delivery id, written.
func (r *bridge) done(id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.pending, id)
}

// end turns the bridge off and returns how many deliveries it held.
func (r *bridge) end() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := len(r.pending)
	r.pending, r.on = nil, false
	return n
}
