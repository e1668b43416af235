package draw

import (
	"bytes"
	"testing"

	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/require"
)

// BenchmarkRender draws and encodes a mid-game 8×8 board with 40 marbles
// at 800 pixels, and reports the PNG's size.
func BenchmarkRender(b *testing.B) {
	p := mustGame(b, engine.Square(), 7, 40)
	require.False(b, p.IsOver())
	opt := Options{Names: [2]string{"alice", "bob"}, Rules: engine.Full}
	r := NewRenderer(1)
	var buf bytes.Buffer
	require.NoError(b, r.Render(&buf, &p, opt)) // warm the caches
	for b.Loop() {
		buf.Reset()
		if err := r.Render(&buf, &p, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "png-bytes")
}
