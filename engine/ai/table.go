package ai

import (
	"sync"

	"github.com/kulami/kulami/engine"
)

// tableBits is the size of a table: 2^20 entries of 24 bytes, 24 MiB.
const tableBits = 20

// table is a transposition table for the endgame solver: the bounds on
// the value of positions searched, by their marbles and last two moves,
// so that a position reached again by other moves is not searched again.
// An entry is overwritten by any later one with the same index. It is not
// safe for concurrent use.
type table []entry

// entry is a position's bounds for its player to move, under a target
// (see negamax.target).
type entry struct {
	red, black   uint64
	last, prev   engine.Hole
	target       int16
	lower, upper int8 // lower ≤ value ≤ upper; lower > upper marks an empty entry
	best         engine.Hole
}

// tablePool holds *table.
var tablePool = sync.Pool{New: func() any {
	t := make(table, 1<<tableBits)
	return &t
}}

// clear empties t.
func (t table) clear() {
	for i := range t {
		t[i] = entry{lower: 1, upper: -1}
	}
}

// find returns the entry for p under target, ok false if p has none.
func (t table) find(p *engine.Position, target int) (e *entry, ok bool) {
	red, black := uint64(p.Stones(engine.Red)), uint64(p.Stones(engine.Black))
	last, prev := p.Last()
	e = &t[index(red, black, last, prev)]
	return e, e.lower <= e.upper && e.red == red && e.black == black && e.last == last && e.prev == prev &&
		int(e.target) == target
}

// put records that p's value under target lies within [lower, upper], and
// its best move.
func (t table) put(p *engine.Position, target, lower, upper int, best engine.Hole) {
	red, black := uint64(p.Stones(engine.Red)), uint64(p.Stones(engine.Black))
	last, prev := p.Last()
	t[index(red, black, last, prev)] = entry{red: red, black: black, last: last, prev: prev,
		target: int16(target), lower: int8(lower), upper: int8(upper), best: best}
}

// index returns the index of the entry of a position.
func index(red, black uint64, last, prev engine.Hole) uint64 {
	h := red*0x9e3779b97f4a7c15 ^ black*0xc2b2ae3d27d4eb4f ^ (uint64(last)<<8|uint64(prev))*0x165667b19e3779f9
	return h >> (64 - tableBits)
}
