package postgres

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// pruneEvery is how often at most a Store deletes the deliveries older
// than FirstDelivery's keep: rarely enough to cost nothing per call.
const pruneEvery = time.Minute

// prunes remembers when a Store last pruned the deliveries.
type prunes struct {
	mu   sync.Mutex
	last time.Time
}

// due reports whether a prune is due at now, and if so counts it done.
func (p *prunes) due(now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if now.Sub(p.last) < pruneEvery {
		return false
	}
	p.last = now
	return true
}

// FirstDelivery records that the interaction id was delivered at now, and
// reports whether it is the first delivery of id that any process sharing
// the database recorded within keep: a signed request that an attacker
// (or a proxy) replays to another process behind a load balancer is then
// refused there too. It costs one round trip: a batch that inserts the ID
// unless it is there (ON CONFLICT DO NOTHING) and, once a minute per
// process, deletes the IDs older than keep. It commits with
// synchronous_commit off, as NoteBoard does, so no interaction waits for
// a disk flush: an ID lost to a server crash within the next fraction of
// a second only lets that one request be replayed.
func (s *Store) FirstDelivery(ctx context.Context, id string, now time.Time, keep time.Duration) (bool, error) {
	var prune *pgx.Batch
	if s.pruned.due(now) {
		prune = &pgx.Batch{}
		prune.Queue(`DELETE FROM deliveries WHERE at < $1`, now.Add(-keep).UnixNano())
	}
	n, err := s.unsynced(ctx, prune, `INSERT INTO deliveries (id, at) VALUES ($1, $2) ON CONFLICT (id) DO UPDATE SET at = EXCLUDED.at WHERE deliveries.at < $3`,
		id, now.UnixNano(), now.Add(-keep).UnixNano())
	if err != nil {
		return false, fmt.Errorf("record the delivery of interaction %s: %w", id, err)
	}
	return n == 1, nil
}
