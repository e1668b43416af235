package engine

import "math/bits"

// MaxPly is the number of marbles of both players: when all are placed the
// game ends.
const MaxPly = 2 * MarblesPerPlayer

// Position is the state of a game: which holes hold which colour, the last
// two marbles placed and who moves next. It is a small value; copy it to
// keep a snapshot. The zero Position is not usable: start with NewPosition.
//
// A Position is not safe for concurrent use; copies are independent.
type Position struct {
	layout *Layout
	stones [2]uint64 // holes holding red and black marbles
	last   Hole      // the marble just placed, or NoHole
	prev   Hole      // the marble before it, or NoHole
	ply    uint8     // marbles placed
	first  Color     // who placed the first marble
}

// NewPosition returns the empty board of layout l with first to move.
func NewPosition(l *Layout, first Color) Position {
	return Position{layout: l, last: NoHole, prev: NoHole, first: first}
}

// Layout returns the layout the game is played on.
func (p *Position) Layout() *Layout { return p.layout }

// First returns the colour that placed (or will place) the first marble.
func (p *Position) First() Color { return p.first }

// Ply returns the number of marbles placed.
func (p *Position) Ply() int { return int(p.ply) }

// ToMove returns the colour whose turn it is. When the game is over it is
// the colour that would have moved next.
func (p *Position) ToMove() Color { return p.first ^ Color(p.ply&1) }

// Last returns the hole of the marble just placed and the one before it;
// either is NoHole when not yet played.
func (p *Position) Last() (last, previous Hole) { return p.last, p.prev }

// Stones returns the holes holding marbles of colour c as a set.
func (p *Position) Stones(c Color) Holes { return Holes(p.stones[c]) }

// Occupied returns the holes holding a marble.
func (p *Position) Occupied() Holes { return Holes(p.stones[Red] | p.stones[Black]) }

// At returns the colour of the marble in hole h, or false if h is empty.
func (p *Position) At(h Hole) (Color, bool) {
	switch {
	case p.stones[Red]&(1<<h) != 0:
		return Red, true
	case p.stones[Black]&(1<<h) != 0:
		return Black, true
	}
	return 0, false
}

// MarblesLeft returns how many marbles colour c has not yet placed.
func (p *Position) MarblesLeft(c Color) int {
	return MarblesPerPlayer - bits.OnesCount64(p.stones[c])
}

// Legal returns the holes the player to move may play; it is
// empty when the game is over.
func (p *Position) Legal() Holes {
	if p.ply >= MaxPly {
		return 0
	}
	return Holes(p.targets())
}

// targets returns the legal holes ignoring the marble count.
func (p *Position) targets() uint64 {
	free := ^(p.stones[Red] | p.stones[Black])
	if p.last == NoHole {
		return free
	}
	l := p.layout
	m := l.lineMask[p.last&63] &^ l.blockMask[p.last&63] & free
	if p.prev != NoHole {
		m &^= l.blockMask[p.prev&63]
	}
	return m
}

// IsOver reports whether the game has ended: all 56 marbles are placed or
// the player to move has no legal hole.
func (p *Position) IsOver() bool { return p.ply >= MaxPly || p.targets() == 0 }

// Check returns nil if the player to move may place a marble at cell c, or
// the first rule the move breaks, in the order of RULES.md: ErrGameOver,
// ErrOffBoard, ErrOccupied, ErrNotInLine, ErrSamePanel, ErrPreviousPanel.
func (p *Position) Check(c Cell) error {
	if p.IsOver() {
		return ErrGameOver
	}
	h, ok := p.layout.HoleAt(c)
	if !ok {
		return ErrOffBoard
	}
	bit := uint64(1) << h
	switch l := p.layout; {
	case (p.stones[Red]|p.stones[Black])&bit != 0:
		return ErrOccupied
	case p.last == NoHole:
		return nil
	case l.lineMask[p.last]&bit == 0:
		return ErrNotInLine
	case l.blockMask[p.last]&bit != 0:
		return ErrSamePanel
	case p.prev != NoHole && l.blockMask[p.prev]&bit != 0:
		return ErrPreviousPanel
	}
	return nil
}

// Play places a marble of the player to move at cell c, or returns the
// rule it breaks (see Check) and leaves p unchanged.
func (p *Position) Play(c Cell) error {
	if err := p.Check(c); err != nil {
		return err
	}
	h, _ := p.layout.HoleAt(c)
	p.Apply(h)
	return nil
}

// PlayMove is Play for a move as a player writes it ("D4", "d4"). It
// checks in the order of RULES.md, so a move after the end of the game is
// ErrGameOver even when it is not a coordinate, and a malformed coordinate
// is an error wrapping ErrSyntax.
func (p *Position) PlayMove(move string) error {
	if p.IsOver() {
		return ErrGameOver
	}
	c, err := ParseCell(move)
	if err != nil {
		return err
	}
	return p.Play(c)
}

// Undo is what Revert needs to take back a move made with Apply.
type Undo struct {
	hole, last, prev Hole
}

// Apply places a marble of the player to move in hole h without checking
// the rules; h must be a legal hole. It is for search, with Revert.
func (p *Position) Apply(h Hole) Undo {
	u := Undo{h, p.last, p.prev}
	p.stones[p.ToMove()] |= 1 << h
	p.prev, p.last = p.last, h
	p.ply++
	return u
}

// Revert takes back the move that Apply returned u for; moves must be
// reverted in the reverse order they were applied.
func (p *Position) Revert(u Undo) {
	p.ply--
	p.stones[p.ToMove()] &^= 1 << u.hole
	p.last, p.prev = u.last, u.prev
}
