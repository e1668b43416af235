package draw

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/kulami/kulami/draw/drawtest"
	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxItemBytes bounds what one cached item holds at 800 pixels, for the
// tests of the budget.
const maxItemBytes = 400 << 10

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
	items, _ := r.cache.Stats()
	require.GreaterOrEqual(t, items, n, "every board is kept")
	perBoard := added / float64(items-1)
	t.Logf("%d boards: %.0f KB reported, heap grew by %.0f KB; %.0f KB a board", items, added/1024, grown/1024, perBoard/1024)
	assert.InEpsilon(t, grown, added, 0.25, "reported %.0f bytes, the heap grew by %.0f", added, grown)
	assert.Less(t, perBoard, float64(maxItemBytes), "a board at 800 pixels is small")
}
