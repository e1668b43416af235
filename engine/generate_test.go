package engine

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRandomSquare(t *testing.T) {
	const seeds = 1000
	distinct := map[string]bool{}
	for seed := uint64(0); seed < seeds; seed++ {
		l := RandomSquare(seed)
		s := l.String()
		require.Equal(t, s, RandomSquare(seed).String(), "seed %d gives the same layout every time", seed)
		require.True(t, l.IsSquare(), "seed %d: %s", seed, s)
		require.NotContains(t, s, ".", "seed %d: a square has no gaps", seed)
		if seed < 100 { // the full check is slow; the rest parse back
			checkLayout(t, l)
		} else {
			back, err := ParseLayout(s)
			require.NoError(t, err, "seed %d", seed)
			require.True(t, back.Equal(l))
		}
		distinct[s] = true
	}
	// Measured: 999 distinct layouts for seeds 0–999.
	assert.GreaterOrEqual(t, len(distinct), seeds*99/100, "random squares must vary")
}

func TestRandomIrregular(t *testing.T) {
	const seeds = 1000
	distinct := map[string]bool{}
	sizes := map[[2]int]int{}
	gaps := map[int]int{}
	for seed := uint64(0); seed < seeds; seed++ {
		l := RandomIrregular(seed)
		s := l.String()
		require.Equal(t, s, RandomIrregular(seed).String(), "seed %d gives the same layout every time", seed)
		if seed < 100 {
			checkLayout(t, l)
		} else {
			back, err := ParseLayout(s)
			require.NoError(t, err, "seed %d", seed)
			require.True(t, back.Equal(l))
		}
		// The shape starts in the top row and the left column.
		require.NotEqual(t, strings.Repeat(".", l.Width()), s[:l.Width()], "seed %d: %s has an empty top row", seed, s)
		left := false
		for r := 0; r < l.Height(); r++ {
			_, ok := l.HoleAt(CellAt(0, r))
			left = left || ok
		}
		require.True(t, left, "seed %d: %s has an empty left column", seed, s)
		distinct[s] = true
		sizes[[2]int{l.Width(), l.Height()}]++
		gaps[l.Width()*l.Height()-NumHoles]++
	}
	assert.Len(t, distinct, seeds, "random irregular layouts must vary")
	// Measured for seeds 0–999: 9 sizes from 8×9 to 10×10, and 6 different
	// numbers of gaps; no size holds more than 40% of the layouts.
	assert.GreaterOrEqual(t, len(sizes), 6, "sizes: %v", sizes)
	assert.GreaterOrEqual(t, len(gaps), 4, "gap counts: %v", gaps)
	for size, n := range sizes {
		assert.Less(t, n, seeds/2, "%d layouts are %d×%d", n, size[0], size[1])
	}
	assert.Zero(t, sizes[[2]int{8, 8}], "an irregular layout is not the square")
}
