package draw

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/draw/drawtest"
	"github.com/kulami/kulami/engine"
)

// TestStats: a Renderer counts its renders and their time, and whether
// each found the board (and the kit of its size) in the cache.
func TestStats(t *testing.T) {
	r := NewRenderer(Config{Fonts: []string{}})
	assert.Equal(t, Stats{}, r.Stats(), "nothing done yet")
	p := drawtest.MustGame(t, engine.RandomSquare(1), 1, 10)
	var buf bytes.Buffer
	require.NoError(t, r.Render(&buf, &p, Options{}))
	require.NoError(t, r.Render(&buf, &p, Options{}))
	s := r.Stats()
	assert.Equal(t, uint64(2), s.Renders)
	assert.Positive(t, s.RenderTime)
	assert.Equal(t, uint64(2), s.CacheMisses, "the first render drew the kit and the board of its layout")
	assert.Equal(t, uint64(2), s.CacheHits, "the second render found them")
	assert.Equal(t, 2, s.CacheItems)
	assert.Equal(t, r.CacheBytes(), s.CacheBytes)

	require.NoError(t, r.Animate(&buf, Animation{Record: mustRecord(t, "finished.kgn")}))
	s = r.Stats()
	assert.Equal(t, uint64(1), s.Animations)
	assert.Positive(t, s.AnimationTime)
	assert.Equal(t, uint64(2), s.Renders, "an animation is not a render")
	assert.Greater(t, s.CacheHits, uint64(2+50), "the frames of the animation drew on the cache")
}
