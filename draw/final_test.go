package draw

import (
	"math"
	"testing"

	"github.com/kulami/kulami/draw/internal/sample"
	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// segmentDistance returns the shortest distance between segments a and b.
func segmentDistance(a, b segment) float64 {
	if segmentsCross(a, b) {
		return 0
	}
	return min(pointSegment(a.x0, a.y0, b), pointSegment(a.x1, a.y1, b), pointSegment(b.x0, b.y0, a), pointSegment(b.x1, b.y1, a))
}

func pointSegment(x, y float64, s segment) float64 {
	dx, dy := s.x1-s.x0, s.y1-s.y0
	t := 0.0
	if l := dx*dx + dy*dy; l > 0 {
		t = max(0, min(1, ((x-s.x0)*dx+(y-s.y0)*dy)/l))
	}
	return math.Hypot(x-s.x0-t*dx, y-s.y0-t*dy)
}

func segmentsCross(a, b segment) bool {
	side := func(s segment, x, y float64) float64 { return (s.x1-s.x0)*(y-s.y0) - (s.y1-s.y0)*(x-s.x0) }
	return side(a, b.x0, b.y0)*side(a, b.x1, b.y1) < 0 && side(b, a.x0, a.y0)*side(b, a.x1, a.y1) < 0
}

// TestOutlinesKeepOffTheLineBars checks, on ended games under the full
// rules, that no outline of a largest group comes within reach of a
// scoring line's bar: the two strokes and their casings stay apart. It
// also checks that the games tried do put them in each other's way when
// the outline has no gaps, so that the test has something to catch.
func TestOutlinesKeepOffTheLineBars(t *testing.T) {
	clashes := 0 // games whose outline would touch a bar without its gaps
	tried := 0
	for seed := uint64(1); tried < 40 && seed < 400; seed++ {
		l := engine.RandomSquare(seed)
		if seed%2 == 1 {
			l = engine.RandomIrregular(seed)
		}
		p := sample.Game(l, seed, engine.MaxPly)
		if len(p.Lines()) == 0 {
			continue
		}
		tried++
		g := newGeometry(l, DefaultWidth, engine.Full)
		cell := float64(g.cell)
		reach := (barWidth+outlineWidth)*cell/2 + 2*g.f(casingEdge)
		byColour := lineBars(&g, &p)
		bars := append(byColour[engine.Red], byColour[engine.Black]...)
		for _, c := range []engine.Color{engine.Red, engine.Black} {
			for _, o := range groupOutline(&g, &p, c, bars) {
				for _, b := range bars {
					d := segmentDistance(o, b)
					assert.GreaterOrEqual(t, d, reach, "seed %d, %v: outline %v is %.1f px from bar %v", seed, c, o, d, b)
				}
			}
			for _, o := range groupOutline(&g, &p, c, nil) {
				for _, b := range bars {
					if segmentDistance(o, b) < reach {
						clashes++
					}
				}
			}
		}
	}
	require.Equal(t, 40, tried, "not enough games with lines")
	assert.Positive(t, clashes, "no game tried puts an outline in a bar's way")
	t.Logf("%d games, %d places where an outline without gaps would touch a bar", tried, clashes)
}

func TestMerge(t *testing.T) {
	in := []segment{{10, 0, 20, 0}, {0, 0, 10, 0}, {30, 0, 40, 0}, {5, 5, 5, 15}, {5, 15, 5, 20}, {0, 1, 3, 1}}
	want := []segment{{0, 0, 20, 0}, {30, 0, 40, 0}, {5, 5, 5, 20}, {0, 1, 3, 1}}
	assert.Equal(t, want, merge(in))
}

func TestClipAround(t *testing.T) {
	cases := []struct {
		name string
		in   segment
		want []segment
	}{
		{"far", segment{0, 20, 100, 20}, []segment{{0, 20, 100, 20}}},
		{"split", segment{0, 0, 100, 0}, []segment{{0, 0, 40, 0}, {60, 0, 100, 0}}},
		{"vertical, its end cut", segment{50, 0, 50, 55}, []segment{{50, 10, 50, 55}}},
		{"swallowed", segment{45, 0, 55, 0}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := clipAround([]segment{tc.in}, [2]float64{50, 0}, 10)
			assert.Equal(t, tc.want, got)
		})
	}
}
