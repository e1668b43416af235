package draw

import (
	"bytes"
	"testing"

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
