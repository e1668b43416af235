package engine

// Rand is a small, fast pseudo-random generator (SplitMix64) for playouts.
// The zero value is a valid generator; seed it by setting its state with
// NewRand. A Rand is not safe for concurrent use.
type Rand struct{ state uint64 }

// NewRand returns a generator seeded with seed.
func NewRand(seed uint64) Rand { return Rand{state: seed} }

// Uint64 returns the next pseudo-random number.
func (r *Rand) Uint64() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Pick returns one set bit of mask, uniformly at random, as a hole. The
// mask must not be empty.
func (r *Rand) Pick(s Holes) Hole {
	k := int((r.Uint64() >> 32 * uint64(s.Len())) >> 32)
	return selectBit(uint64(s), k)
}

// selectBit returns the k-th set bit (from zero, lowest first) of x, which
// must have more than k bits set. It is Vigna's broadword select: sums of
// bits per byte find the byte, a table the bit within it.
func selectBit(x uint64, k int) Hole {
	const ones, msbs = 0x0101010101010101, 0x8080808080808080
	s := x - (x>>1)&0x5555555555555555
	s = s&0x3333333333333333 + (s>>2)&0x3333333333333333
	s = (s + s>>4) & 0x0f0f0f0f0f0f0f0f
	s *= ones // byte i holds the number of bits set in bytes 0..i
	place := (((uint64(k)*ones | msbs) - s) & msbs >> 7 * ones >> 53) &^ 7
	rank := uint64(k) - (s<<8)>>place&0xff
	return Hole(place + uint64(selectInByte[(x>>place)&0xff][rank&7]))
}

// selectInByte[b][k] is the position of the k-th set bit of byte b.
var selectInByte = func() (t [256][8]uint8) {
	for b := range 256 {
		k := 0
		for i := range 8 {
			if b&(1<<i) != 0 {
				t[b][k] = uint8(i)
				k++
			}
		}
	}
	return t
}()

// Playout plays uniformly random legal moves until the game is over. It
// is the inner loop of Monte Carlo search, so it keeps the position in
// local variables.
func (p *Position) Playout(r *Rand) {
	ply := p.ply
	if ply >= MaxPly {
		return
	}
	l := p.layout
	mover, other := p.stones[p.ToMove()], p.stones[p.ToMove().Other()]
	last, prev := p.last, p.prev
	if last == NoHole {
		last = r.Pick(^Holes(0))
		mover, other = other, mover|1<<last
		ply++
	}
	for ; ply < MaxPly; ply++ {
		m := l.lineMask[last&63] &^ l.blockMask[last&63] &^ (mover | other)
		if prev != NoHole {
			m &^= l.blockMask[prev&63]
		}
		if m == 0 {
			break
		}
		h := r.Pick(Holes(m))
		prev, last = last, h
		mover, other = other, mover|1<<h
	}
	if (ply-p.ply)&1 == 1 {
		mover, other = other, mover
	}
	p.stones[p.ToMove()], p.stones[p.ToMove().Other()] = mover, other
	p.last, p.prev, p.ply = last, prev, ply
}
