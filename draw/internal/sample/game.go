package sample

import "github.com/kulami/kulami/engine"

// Game plays up to plies random legal moves on l, the same for the same
// seed.
func Game(l *engine.Layout, seed uint64, plies int) engine.Position {
	p := engine.NewPosition(l, engine.Red)
	rnd := engine.NewRand(seed)
	for range plies {
		m := p.Legal()
		if m == 0 {
			break
		}
		p.Apply(rnd.Pick(m))
	}
	return p
}

// GameWithLines returns the first finished random game on the square (by
// seed) in which both colours score lines.
func GameWithLines() engine.Position {
	for seed := uint64(1); ; seed++ {
		p := Game(engine.Square(), seed, engine.MaxPly)
		var has [2]bool
		for _, ln := range p.Lines() {
			has[ln.Color] = true
		}
		if has[engine.Red] && has[engine.Black] {
			return p
		}
	}
}
