package bot

import (
	"container/list"
	"sync"
	"time"

	"github.com/kulami/kulami/bot/i18n"
)

// replayCacheBytes is the memory the animated replays kept may hold: 32
// MiB, some hundred replays (a whole game at draw.DefaultAnimationWidth is
// a few hundred KB).
const replayCacheBytes = 32 << 20

// replayRepost is how long after its replay was posted a click on Replay
// (GIF) is answered with a link to it, only for the clicker; a click
// later posts the replay kept again, since the first has scrolled away.
const replayRepost = time.Hour

// replayKey names an animated replay: a finished game of a guild, drawn
// in a language (its frames show the players' names and the outcome in
// words).
type replayKey struct {
	guild string
	game  uint64
	lang  i18n.Lang
}

// replay is the animated replay of a game, and where it was posted. Its
// fields are the holder's of turn: one click at a time draws it or posts
// it, and the others wait for their turn, then link to the post.
type replay struct {
	key    replayKey
	turn   chan struct{} // holds a token while a click works on the replay
	gif    []byte        // nil until drawn
	link   string        // the message it was posted in; "" until then
	posted time.Time     // when
	size   int           // the bytes counted for it in the cache
}

// replays keeps the animated replays drawn, the most recently used within
// a budget of bytes, so that a game's replay is drawn once: a finished
// game never changes, so a replay kept is never stale. A replay evicted
// while a click works on it stays valid for that click. It is safe for
// concurrent use.
type replays struct {
	mu     sync.Mutex
	budget int
	used   int
	order  *list.List // of *replay, most recently used first
	byKey  map[replayKey]*list.Element
}

// newReplays returns an empty cache of budget bytes.
func newReplays(budget int) *replays {
	return &replays{budget: budget, order: list.New(), byKey: map[replayKey]*list.Element{}}
}

// get returns the replay of k, new and empty if it is not kept.
func (rs *replays) get(k replayKey) *replay {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if el, ok := rs.byKey[k]; ok {
		rs.order.MoveToFront(el)
		return el.Value.(*replay)
	}
	r := &replay{key: k, turn: make(chan struct{}, 1)}
	rs.byKey[k] = rs.order.PushFront(r)
	return r
}

// drawn counts r's GIF, just drawn, and evicts the least recently used
// replays other than r until those kept fit the budget.
func (rs *replays) drawn(r *replay) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	el, ok := rs.byKey[r.key]
	if !ok || el.Value != r { // evicted while it was drawn
		return
	}
	rs.used += len(r.gif) - r.size
	r.size = len(r.gif)
	for back := rs.order.Back(); rs.used > rs.budget && back != nil; {
		prev := back.Prev()
		if back != el {
			old := back.Value.(*replay)
			rs.used -= old.size
			delete(rs.byKey, old.key)
			rs.order.Remove(back)
		}
		back = prev
	}
}
