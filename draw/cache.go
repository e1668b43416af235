package draw

import (
	"sync"

	"github.com/kulami/kulami/draw/lru"
)

// DefaultCacheBytes is the memory a Renderer's cache may hold when
// Config.CacheBytes is zero: 64 MiB, several hundred layouts at 800
// pixels (a board there takes about 75 KB, TestCacheReportsItsMemory).
const DefaultCacheBytes = 64 << 20

// cacheKey names a cached item: a board (a layout at one width, theme and
// set of marbles, packed into their palette) or a kit (what the boards of
// one width, theme, set of marbles, cell size and header height share),
// which has no layout.
type cacheKey struct {
	layout  string
	width   int
	theme   Theme
	marbles Marbles
	cell    int // kits only
	lines   int // kits only: lines of text in a player's box
}

// sized is a cached item: it tells how many bytes it holds.
type sized interface{ bytes() int }

// cache keeps the most recently used boards and kits within a budget of
// bytes (lru.Cache); an item is built once, outside the cache's lock, so
// that a slow build blocks only the renders that need that item, and
// counts towards the budget once built.
type cache struct {
	*lru.Cache[cacheKey, *slot]
}

// slot holds an item once built.
type slot struct {
	once sync.Once
	val  sized
}

func newCache(budget int) cache {
	return cache{lru.New[cacheKey, *slot](budget)}
}

func newSlot() *slot { return new(slot) }

// get returns the item of k, calling build to make it if it is not kept.
func (c cache) get(k cacheKey, build func() sized) sized {
	e := c.Get(k, newSlot)
	e.Value.once.Do(func() {
		e.Value.val = build()
		c.Size(e, e.Value.val.bytes())
	})
	return e.Value.val
}
