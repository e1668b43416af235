package lru

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCacheKeepsWithinItsBudget(t *testing.T) {
	c := New[string, int](100)
	made := 0
	get := func(k string, n int) *Entry[string, int] {
		e := c.Get(k, func() int { made++; return n })
		c.Size(e, e.Value)
		return e
	}
	a := get("a", 40)
	get("b", 40)
	assert.Same(t, a, get("a", 40), "a is kept, now the most recent")
	assert.Equal(t, 2, made)
	get("d", 40) // over budget: evicts b, the least recently used
	entries, used := c.Stats()
	assert.Equal(t, 2, entries)
	assert.Equal(t, 80, used)
	get("a", 40)
	assert.Equal(t, 3, made, "a stayed")
	get("b", 40)
	assert.Equal(t, 4, made, "b was evicted and is made again")
	get("huge", 500)
	entries, used = c.Stats()
	assert.Equal(t, 1, entries, "an entry over the whole budget is kept alone")
	assert.Equal(t, 500, used)
	hits, misses := c.Lookups()
	assert.Equal(t, uint64(2), hits)
	assert.Equal(t, uint64(5), misses)
}

func TestCacheCountsAnUnsizedEntryAsNothing(t *testing.T) {
	c := New[int, string](10)
	pending := c.Get(1, func() string { return "drawing" })
	big := c.Get(2, func() string { return "big" })
	c.Size(big, 10)
	entries, used := c.Stats()
	assert.Equal(t, 2, entries, "an entry not sized yet costs nothing and is not evicted for it")
	assert.Equal(t, 10, used)
	c.Size(pending, 6) // now over budget: big, the least recently used, goes
	entries, used = c.Stats()
	assert.Equal(t, 1, entries)
	assert.Equal(t, 6, used)
	assert.NotSame(t, big, c.Get(2, func() string { return "again" }))
}

func TestCacheIgnoresTheSizeOfAnEvictedEntry(t *testing.T) {
	c := New[int, int](10)
	old := c.Get(1, func() int { return 1 })
	c.Size(old, 8)
	c.Size(c.Get(2, func() int { return 2 }), 8) // evicts old
	c.Size(old, 5)                               // old's work finished after its eviction
	entries, used := c.Stats()
	assert.Equal(t, 1, entries)
	assert.Equal(t, 8, used, "an evicted entry is not counted again")
	assert.Equal(t, 1, old.Value, "it stays valid for whoever holds it")
}

func TestCacheResizes(t *testing.T) {
	c := New[int, int](100)
	e := c.Get(1, func() int { return 0 })
	c.Size(e, 30)
	c.Size(e, 50)
	_, used := c.Stats()
	assert.Equal(t, 50, used, "a new size replaces the old")
}

func TestCacheIsSafeForConcurrentUse(t *testing.T) {
	c := New[int, *sync.Once](1000)
	var mu sync.Mutex
	built := map[int]int{}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				k := (g*7 + i) % 30
				e := c.Get(k, func() *sync.Once { return new(sync.Once) })
				e.Value.Do(func() {
					mu.Lock()
					built[k]++
					mu.Unlock()
					c.Size(e, 100+k)
				})
			}
		})
	}
	wg.Wait()
	entries, used := c.Stats()
	require.Positive(t, entries)
	assert.LessOrEqual(t, used, 1000, "within the budget once all are sized")
	hits, misses := c.Lookups()
	assert.Equal(t, uint64(8*200), hits+misses)
	total := 0
	for _, n := range built {
		total += n
	}
	assert.Equal(t, int(misses), total, "one build for each miss")
}
