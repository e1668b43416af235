package draw

import (
	"bytes"
	"io"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/kulami/kulami/draw/drawtest"
	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/require"
)

// BenchmarkRender draws and encodes a mid-game 8×8 board with 40 marbles
// at 800 pixels, and reports the PNG's size. On "hit" the board is in the
// cache, as for a game in progress; on "miss" every image has a layout the
// cache does not hold, as for the first image of a random or irregular
// game, or one whose board was evicted.
func BenchmarkRender(b *testing.B) {
	opt := Options{Names: [2]string{"alice", "bob"}, Rules: engine.Full}
	b.Run("hit", func(b *testing.B) {
		p := drawtest.MustGame(b, engine.Square(), 7, 40)
		require.False(b, p.IsOver())
		r := NewRenderer(Config{})
		var buf bytes.Buffer
		require.NoError(b, r.Render(&buf, &p, opt)) // warm the caches
		for b.Loop() {
			buf.Reset()
			if err := r.Render(&buf, &p, opt); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(buf.Len()), "png-bytes")
	})
	b.Run("miss", func(b *testing.B) {
		// Random square and irregular layouts in turn, in a cache with room
		// for a few boards, so that each render builds its board.
		var ps []engine.Position
		for seed := range uint64(16) {
			l := engine.RandomSquare(seed)
			if seed%2 == 1 {
				l = engine.RandomIrregular(seed)
			}
			ps = append(ps, drawtest.MustGame(b, l, seed, 30))
		}
		var buf bytes.Buffer
		warm := func(r *Renderer) *Renderer {
			for _, p := range ps[:2] { // the palettes, the kits of both cell sizes
				require.NoError(b, r.Render(&buf, &p, opt))
			}
			return r
		}
		// Room for the kits and a few boards, fewer than the layouts: each
		// render evicts the least recently used board, which is the next.
		r := warm(NewRenderer(Config{CacheBytes: warm(NewRenderer(Config{})).CacheBytes() + 200<<10}))
		i := 0
		for b.Loop() {
			i++
			buf.Reset()
			if err := r.Render(&buf, &ps[i%len(ps)], opt); err != nil {
				b.Fatal(err)
			}
		}
		if items, _ := r.cache.Stats(); items >= 2+len(ps) {
			b.Fatalf("%d items cached: the boards were not evicted", items)
		}
	})
}

// BenchmarkAnimateConcurrent encodes the GIFs of 56-move games, 8 at a
// time, as a storm of replays would, and reports the peak of the heap
// above what it held before (sampled every millisecond, so a lower bound
// of the true peak) and the bytes allocated per GIF.
func BenchmarkAnimateConcurrent(b *testing.B) {
	const n = 8
	rec := mustRecord(b, "finished.kgn")
	r := NewRenderer(Config{})
	a := Animation{Record: rec, Options: Options{Names: [2]string{"alice", "bob"}}}
	require.NoError(b, r.Animate(io.Discard, a)) // warm the caches
	runtime.GC()
	base := heapBytes()
	peak := base
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				peak = max(peak, heapBytes())
			}
		}
	}()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for b.Loop() {
		var wg sync.WaitGroup
		for range n {
			wg.Go(func() {
				if err := r.Animate(io.Discard, a); err != nil {
					b.Error(err)
				}
			})
		}
		wg.Wait()
	}
	runtime.ReadMemStats(&after)
	close(stop)
	<-done
	b.ReportMetric(float64(peak-base)/(1<<20), "peak-heap-MiB")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N*n)/(1<<20), "alloc-MiB/gif")
}

// heapBytes is the memory the heap's live and not yet swept objects take.
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
