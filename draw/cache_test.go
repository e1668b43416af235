package draw

import (
	"bytes"
	"runtime"
	"sync"
	"testing"

	"github.com/kulami/kulami/draw/drawtest"
	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxItemBytes bounds what one cached item holds at 800 pixels, for the
// tests of the budget.
const maxItemBytes = 400 << 10

// item is a cached value of a given size.
type item int

func (i item) bytes() int { return int(i) }

func TestCacheKeepsWithinItsBudget(t *testing.T) {
	c := newCache(100)
	key := func(s string) cacheKey { return cacheKey{layout: s} }
	builds := 0
	get := func(s string, n int) sized {
		return c.get(key(s), func() sized { builds++; return item(n) })
	}
	get("a", 40)
	get("b", 40)
	get("a", 40) // a is now the most recent
	assert.Equal(t, 2, builds)
	get("d", 40) // over budget: evicts b, the least recently used
	items, used := c.stats()
	assert.Equal(t, 2, items)
	assert.Equal(t, 80, used)
	get("a", 40)
	assert.Equal(t, 3, builds, "a stayed")
	get("b", 40)
	assert.Equal(t, 4, builds, "b was evicted and is built again")
	get("huge", 500)
	items, used = c.stats()
	assert.Equal(t, 1, items, "an item over the whole budget is kept alone")
	assert.Equal(t, 500, used)
}

func TestCacheIsSafeForConcurrentUse(t *testing.T) {
	c := newCache(1000)
	var wg sync.WaitGroup
	var mu sync.Mutex
	built := map[cacheKey]int{}
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				k := cacheKey{width: (g*7 + i) % 30}
				v := c.get(k, func() sized {
					mu.Lock()
					built[k]++
					mu.Unlock()
					return item(100 + k.width)
				})
				assert.Equal(t, item(100+k.width), v)
			}
		})
	}
	wg.Wait()
	items, used := c.stats()
	assert.LessOrEqual(t, used, 1000+130)
	assert.Positive(t, items)
}

// TestCacheReportsItsMemory checks that the bytes the cache reports are
// the memory its boards hold: the heap grows by about as much when they
// are built and kept.
func TestCacheReportsItsMemory(t *testing.T) {
	const n = 24
	var ps []engine.Position
	for seed := range uint64(n) {
		l := engine.RandomSquare(seed)
		if seed%2 == 1 {
			l = engine.RandomIrregular(seed)
		}
		ps = append(ps, drawtest.MustGame(t, l, seed, 10))
	}
	r := NewRenderer(Config{CacheBytes: 1 << 30, Fonts: []string{}})
	var buf bytes.Buffer
	require.NoError(t, r.Render(&buf, &ps[0], Options{})) // the palettes, pools and kit
	heap := func() uint64 {
		runtime.GC() // twice: sync.Pool's buffers go at the second
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before, reported := heap(), r.CacheBytes()
	for i := range ps[1:] {
		buf.Reset()
		require.NoError(t, r.Render(&buf, &ps[i+1], Options{}))
	}
	grown, added := float64(heap())-float64(before), float64(r.CacheBytes()-reported)
	items, _ := r.cache.stats()
	require.GreaterOrEqual(t, items, n, "every board is kept")
	perBoard := added / float64(items-1)
	t.Logf("%d boards: %.0f KB reported, heap grew by %.0f KB; %.0f KB a board", items, added/1024, grown/1024, perBoard/1024)
	assert.InEpsilon(t, grown, added, 0.25, "reported %.0f bytes, the heap grew by %.0f", added, grown)
	assert.Less(t, perBoard, float64(maxItemBytes), "a board at 800 pixels is small")
}
