package draw

import (
	"container/list"
	"sync"

	"github.com/kulami/kulami/engine"
)

// boardKey names a board: the canonical layout string, the width and the
// theme.
type boardKey struct {
	layout string
	width  int
	theme  Theme
}

// boardCache keeps the most recently used boards, at most cap of them; a
// board evicted while a render still uses it stays valid for that render.
// A boardCache is safe for concurrent use.
type boardCache struct {
	mu    sync.Mutex
	cap   int
	order *list.List // of *boardEntry, most recently used first
	byKey map[boardKey]*list.Element
}

// boardEntry builds its board once, outside the cache's lock, so that a
// slow build blocks only the renders that need that board.
type boardEntry struct {
	key   boardKey
	once  sync.Once
	board *board
}

func newBoardCache(capacity int) *boardCache {
	return &boardCache{cap: max(1, capacity), order: list.New(), byKey: map[boardKey]*list.Element{}}
}

// get returns the board of l at width and theme, building it if needed.
func (c *boardCache) get(l *engine.Layout, width int, theme Theme) *board {
	k := boardKey{l.String(), width, theme}
	c.mu.Lock()
	el, ok := c.byKey[k]
	if ok {
		c.order.MoveToFront(el)
	} else {
		el = c.order.PushFront(&boardEntry{key: k})
		c.byKey[k] = el
		for c.order.Len() > c.cap {
			old := c.order.Back()
			delete(c.byKey, old.Value.(*boardEntry).key)
			c.order.Remove(old)
		}
	}
	e := el.Value.(*boardEntry)
	c.mu.Unlock()
	e.once.Do(func() { e.board = newBoard(l, width, theme) })
	return e.board
}

// len returns the number of boards kept.
func (c *boardCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
