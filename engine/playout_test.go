package engine

import (
	"math/bits"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRandSplitMix64(t *testing.T) {
	// The first outputs of SplitMix64 (Vigna's splitmix64.c) seeded with 0
	// and with 1234567.
	r := NewRand(0)
	assert.Equal(t, uint64(0xe220a8397b1dcdaf), r.Uint64())
	assert.Equal(t, uint64(0x6e789e6aa1b965f4), r.Uint64())
	r = NewRand(1234567)
	assert.Equal(t, uint64(6457827717110365317), r.Uint64())
	assert.Equal(t, uint64(3203168211198807973), r.Uint64())

	var zero Rand
	z := NewRand(0)
	assert.Equal(t, z.Uint64(), zero.Uint64(), "the zero Rand is NewRand(0)")
}

func TestSelectBit(t *testing.T) {
	r := NewRand(7)
	masks := []uint64{1, 1 << 63, ^uint64(0), 0x8000000000000001, 0x00ff00ff00ff00ff, 0xf0f0f0f0f0f0f0f0}
	for range 2000 {
		// Sparse and dense masks alike.
		m := r.Uint64()
		for range r.Uint64() % 4 {
			m &= r.Uint64()
		}
		if m != 0 {
			masks = append(masks, m)
		}
	}
	for _, m := range masks {
		k := 0
		for x := m; x != 0; x &= x - 1 {
			want := Hole(bits.TrailingZeros64(x))
			if got := selectBit(m, k); got != want {
				require.Equal(t, want, got, "bit %d of %#x", k, m)
			}
			k++
		}
	}
}

func TestPickIsUniform(t *testing.T) {
	r := NewRand(3)
	for _, m := range []Holes{1 << 40, 0b1011, 0x8000000100010001, ^Holes(0)} {
		n := m.Len()
		draws := 2000 * n
		count := map[Hole]int{}
		for range draws {
			h := r.Pick(m)
			require.True(t, m.Has(h), "Pick(%#x) = %d, not in the mask", m, h)
			count[h]++
		}
		require.Len(t, count, n, "every bit of %#x comes up", m)
		// Each count is binomial(draws, 1/n): mean 2000, sd below 45; 6 sd is
		// a bound a fair generator misses with odds below one in 10^8.
		for h, c := range count {
			assert.InDelta(t, 2000, c, 270, "hole %d of %#x", h, m)
		}
	}
}

// stepPlayout plays a random game as Playout should: Pick among the legal
// holes, one move at a time.
func stepPlayout(p *Position, r *Rand) {
	for !p.IsOver() {
		p.Apply(r.Pick(p.Legal()))
	}
}

func TestPlayoutMatchesLegalMoves(t *testing.T) {
	layouts := []*Layout{Square(), mustLayout(t, irregularExample), RandomSquare(5), RandomIrregular(5)}
	for _, l := range layouts {
		for seed := uint64(0); seed < 200; seed++ {
			// Start from the empty board, or a few moves into a game.
			start := NewPosition(l, Color(seed&1))
			pre := NewRand(seed + 1000)
			for range seed % 7 {
				if !start.IsOver() {
					start.Apply(pre.Pick(start.Legal()))
				}
			}
			want, got := start, start
			rw, rg := NewRand(seed), NewRand(seed)
			stepPlayout(&want, &rw)
			got.Playout(&rg)
			require.Equal(t, want, got, "%s: seed %d from ply %d", l, seed, start.Ply())
			require.Equal(t, rw, rg, "Playout draws as many numbers as it plays moves")
			require.True(t, got.IsOver())
		}
	}
}

func TestPlayoutOfAnEndedGame(t *testing.T) {
	p, _ := seededGame(t, Square(), Red, 1)
	q := p
	r := NewRand(9)
	q.Playout(&r)
	assert.Equal(t, p, q)
	assert.Equal(t, NewRand(9), r, "no number drawn")
}

func TestPlayoutDoesNotAllocate(t *testing.T) {
	r := NewRand(1)
	empty := NewPosition(Square(), Red)
	allocs := testing.AllocsPerRun(100, func() {
		p := empty
		p.Playout(&r)
	})
	assert.Zero(t, allocs)
}

// BenchmarkPlayout plays one uniformly random game from the empty square
// board to its end per operation.
func BenchmarkPlayout(b *testing.B) {
	r := NewRand(1)
	empty := NewPosition(Square(), Red)
	plies := 0
	b.ReportAllocs()
	for b.Loop() {
		p := empty
		p.Playout(&r)
		plies += p.Ply()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
	b.ReportMetric(float64(plies)/float64(b.N), "plies/playout")
}
