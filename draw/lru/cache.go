package lru

import (
	"container/list"
	"sync"
)

// Cache keeps entries within a budget of bytes, the most recently used
// first. An entry counts towards the budget once its size is known
// (Cache.Size): values are made outside the cache's lock, so that a slow
// one holds up only those who need it. An entry evicted while someone
// still uses it stays valid for them. A Cache is safe for concurrent use.
type Cache[K comparable, V any] struct {
	mu     sync.Mutex
	budget int
	used   int
	order  *list.List // of *Entry[K, V], most recently used first
	byKey  map[K]*list.Element
	hits   uint64 // gets of an entry kept
	misses uint64 // gets that made a new one
}

// Entry is a value kept under a key.
type Entry[K comparable, V any] struct {
	Value V
	key   K
	el    *list.Element // its place in the cache's order
	size  int           // the bytes counted for it; 0 until sized
}

// New returns an empty cache of budget bytes (at least one).
func New[K comparable, V any](budget int) *Cache[K, V] {
	return &Cache[K, V]{budget: max(1, budget), order: list.New(), byKey: map[K]*list.Element{}}
}

// Get returns the entry of k, now the most recently used; if none is
// kept, a new one holding fresh(), which is called under the cache's lock
// and must be quick (make the costly value later, then call Size).
func (c *Cache[K, V]) Get(k K, fresh func() V) *Entry[K, V] {
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.byKey[k]; ok {
		c.hits++
		c.order.MoveToFront(el)
		return el.Value.(*Entry[K, V])
	}
	c.misses++
	e := &Entry[K, V]{Value: fresh(), key: k}
	e.el = c.order.PushFront(e)
	c.byKey[k] = e.el
	return e
}

// Size counts n bytes for e, then evicts the least recently used entries
// other than e until those kept fit the budget (an entry larger than the
// whole budget is kept alone). An entry evicted before it was sized is
// not counted.
func (c *Cache[K, V]) Size(e *Entry[K, V], n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byKey[e.key] != e.el {
		return
	}
	c.used += n - e.size
	e.size = n
	for el := c.order.Back(); c.used > c.budget && el != nil; {
		prev := el.Prev()
		if el != e.el {
			old := el.Value.(*Entry[K, V])
			c.used -= old.size
			delete(c.byKey, old.key)
			c.order.Remove(el)
		}
		el = prev
	}
}

// Stats returns the number of entries kept and the bytes counted for them.
func (c *Cache[K, V]) Stats() (entries, bytes int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len(), c.used
}

// Lookups returns how many gets found their entry kept, and how many made
// a new one.
func (c *Cache[K, V]) Lookups() (hits, misses uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}
