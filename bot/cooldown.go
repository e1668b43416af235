package bot

import (
	"sync"
	"time"
)

// requestCooldown is how long a user waits between two requests of one
// kind that make the bot work: a replay drawn or posted, a review
// computed.
const requestCooldown = 30 * time.Second

// cooldowns are when each user may next ask for work of each kind. It is
// safe for concurrent use.
type cooldowns struct {
	mu    sync.Mutex
	next  map[string]time.Time // kind + ":" + user → when they may ask again
	prune time.Time            // when next was last pruned
}

// ready reports whether user may ask for work of kind at now, and if not,
// when they may.
func (cs *cooldowns) ready(kind, user string, now time.Time) (time.Time, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	at := cs.next[kind+":"+user]
	return at, !now.Before(at)
}

// take starts user's cooldown for kind at now.
func (cs *cooldowns) take(kind, user string, now time.Time) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.next == nil {
		cs.next = map[string]time.Time{}
	}
	if now.Sub(cs.prune) > requestCooldown {
		for k, at := range cs.next {
			if !now.Before(at) {
				delete(cs.next, k)
			}
		}
		cs.prune = now
	}
	cs.next[kind+":"+user] = now.Add(requestCooldown)
}
