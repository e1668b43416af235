package draw

import (
	"container/list"
	"sync"
)

// DefaultCacheBytes is the memory a Renderer's cache may hold when
// Config.CacheBytes is zero: 64 MiB, several hundred layouts at 800
// pixels (a board there takes about 75 KB, TestCacheReportsItsMemory).
const DefaultCacheBytes = 64 << 20

// cacheKey names a cached item: a board (a layout at one width and theme)
// or a kit (what the boards of one width, theme, cell size and header
// height share), which has no layout.
type cacheKey struct {
	layout string
	width  int
	theme  Theme
	cell   int // kits only
	lines  int // kits only: lines of text in a player's box
}

// sized is a cached item: it tells how many bytes it holds.
type sized interface{ bytes() int }

// cache keeps the most recently used items within a budget of bytes; an
// item evicted while a render still uses it stays valid for that render.
// An item is built once, outside the cache's lock, so that a slow build
// blocks only the renders that need that item; it counts towards the
// budget once built. A cache is safe for concurrent use.
type cache struct {
	mu     sync.Mutex
	budget int
	used   int
	order  *list.List // of *cacheEntry, most recently used first
	byKey  map[cacheKey]*list.Element
	hits   uint64 // gets of an item kept
	misses uint64 // gets that had to build it
}

type cacheEntry struct {
	key  cacheKey
	once sync.Once
	val  sized
	size int // 0 until built
}

func newCache(budget int) *cache {
	return &cache{budget: max(1, budget), order: list.New(), byKey: map[cacheKey]*list.Element{}}
}

// get returns the item of k, calling build to make it if it is not kept.
func (c *cache) get(k cacheKey, build func() sized) sized {
	c.mu.Lock()
	el, ok := c.byKey[k]
	if ok {
		c.hits++
		c.order.MoveToFront(el)
	} else {
		c.misses++
		el = c.order.PushFront(&cacheEntry{key: k})
		c.byKey[k] = el
	}
	e := el.Value.(*cacheEntry)
	c.mu.Unlock()
	e.once.Do(func() {
		v := build()
		n := v.bytes()
		c.mu.Lock()
		defer c.mu.Unlock()
		e.val = v
		if c.byKey[k] == el { // not evicted while it was built
			e.size = n
			c.used += n
			c.evict(el)
		}
	})
	return e.val
}

// evict drops the least recently used items other than keep until the
// items kept fit the budget. c.mu must be held.
func (c *cache) evict(keep *list.Element) {
	for el := c.order.Back(); c.used > c.budget && el != nil; {
		prev := el.Prev()
		if el != keep {
			e := el.Value.(*cacheEntry)
			c.used -= e.size
			delete(c.byKey, e.key)
			c.order.Remove(el)
		}
		el = prev
	}
}

// stats returns the number of items kept and the bytes they hold.
func (c *cache) stats() (items, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len(), c.used
}

// lookups returns how many gets found their item kept, and how many had
// to build it.
func (c *cache) lookups() (hits, misses uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}
