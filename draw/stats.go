package draw

import (
	"sync/atomic"
	"time"
)

// Stats is what a Renderer has done since it was made, for monitoring:
// plain figures, which whoever monitors turns into metrics.
type Stats struct {
	// Renders is how many images Render drew (or failed to), and
	// RenderTime the time they took in all.
	Renders    uint64
	RenderTime time.Duration
	// Animations and AnimationTime are the same for Animate.
	Animations    uint64
	AnimationTime time.Duration
	// CacheHits is how many times a render found a board (or what the
	// boards of one size share) kept in the cache, and CacheMisses how
	// many times it had to draw one.
	CacheHits, CacheMisses uint64
	// CacheItems and CacheBytes are what the cache keeps now.
	CacheItems, CacheBytes int
}

// Stats returns what r has done since NewRenderer.
func (r *Renderer) Stats() Stats {
	items, bytes := r.cache.Stats()
	hits, misses := r.cache.Lookups()
	n, took := r.renders.read()
	an, atook := r.animations.read()
	return Stats{
		Renders: n, RenderTime: took, Animations: an, AnimationTime: atook,
		CacheHits: hits, CacheMisses: misses, CacheItems: items, CacheBytes: bytes,
	}
}

// stopwatch counts timed calls and their time in all. It is safe for
// concurrent use.
type stopwatch struct {
	n    atomic.Uint64
	took atomic.Int64 // nanoseconds
}

// time counts a call that started at start and ends now.
func (s *stopwatch) time(start time.Time) {
	s.took.Add(int64(time.Since(start)))
	s.n.Add(1)
}

// read returns the calls counted and their time.
func (s *stopwatch) read() (uint64, time.Duration) {
	return s.n.Load(), time.Duration(s.took.Load())
}
