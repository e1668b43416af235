package bot

import (
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
