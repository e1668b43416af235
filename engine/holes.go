package engine

import (
	"iter"
	"math/bits"
)

// Holes is a set of holes of one layout, one bit per hole: bit h is set
// when hole h is in the set. It is what Position.Legal, Position.Stones
// and the other set-valued methods return.
type Holes uint64

// Has reports whether h is in s.
func (s Holes) Has(h Hole) bool { return h < NumHoles && s&(1<<h) != 0 }

// Len returns the number of holes in s.
func (s Holes) Len() int { return bits.OnesCount64(uint64(s)) }

// All yields the holes of s in increasing order.
func (s Holes) All() iter.Seq[Hole] {
	return func(yield func(Hole) bool) {
		for m := uint64(s); m != 0; m &= m - 1 {
			if !yield(Hole(bits.TrailingZeros64(m))) {
				return
			}
		}
	}
}

// Cells returns the cells of the holes of s on layout l, in increasing
// order of hole.
func (s Holes) Cells(l *Layout) []Cell {
	out := make([]Cell, 0, s.Len())
	for h := range s.All() {
		out = append(out, l.Cell(h))
	}
	return out
}
