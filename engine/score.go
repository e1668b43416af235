package engine

import (
	"fmt"
	"math/bits"
)

// Rules is a rule set for scoring: which bonuses count besides the panels.
type Rules uint8

// The four rule sets of RULES.md.
const (
	Basic Rules = iota // panels only
	Area               // panels and the area bonus
	Lines              // panels and the lines bonus
	Full               // panels, area and lines (Steffen "level 2")
)

var rulesNames = [...]string{Basic: "basic", Area: "area", Lines: "lines", Full: "full"}

// String returns the rule set's name: basic, area, lines or full.
func (r Rules) String() string {
	if int(r) < len(rulesNames) {
		return rulesNames[r]
	}
	return fmt.Sprintf("Rules(%d)", uint8(r))
}

// ParseRules reads a rule set's name in any letter case.
func ParseRules(s string) (Rules, error) {
	for r, name := range rulesNames {
		if equalFold(s, name) {
			return Rules(r), nil
		}
	}
	return 0, fmt.Errorf("rule set must be basic, area, lines or full, not %q", s)
}

// MarshalText writes the rule set's name.
func (r Rules) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a rule set's name.
func (r *Rules) UnmarshalText(b []byte) error {
	v, err := ParseRules(string(b))
	if err != nil {
		return err
	}
	*r = v
	return nil
}

// CountsArea reports whether r scores the area bonus.
func (r Rules) CountsArea() bool { return r == Area || r == Full }

// CountsLines reports whether r scores the lines bonus.
func (r Rules) CountsLines() bool { return r == Lines || r == Full }

// Breakdown is one colour's score.
type Breakdown struct {
	Panels int `json:"panels"` // holes of the panels the colour holds
	Area   int `json:"area"`   // area bonus
	Lines  int `json:"lines"`  // lines bonus
	Total  int `json:"total"`
}

// Score is the score of both colours, indexed by Color.
type Score [2]Breakdown

// Winner returns the colour with the higher total, or false for a draw.
func (s Score) Winner() (Color, bool) {
	switch {
	case s[Red].Total > s[Black].Total:
		return Red, true
	case s[Black].Total > s[Red].Total:
		return Black, true
	}
	return 0, false
}

// minLine is the shortest run of marbles that scores a lines bonus.
const minLine = 5

// Score returns the standing under rule set r. It can be called at any
// moment of the game; at the end it is the result.
func (p *Position) Score(r Rules) Score {
	var s Score
	s[Red].Panels, s[Black].Panels = p.panelPoints()
	if r.CountsArea() {
		a, b := bits.OnesCount64(p.largestGroup(Red)), bits.OnesCount64(p.largestGroup(Black))
		bonus(&s, a, b, func(b *Breakdown, v int) { b.Area = v })
	}
	if r.CountsLines() {
		var sum [2]int
		p.eachLine(func(c Color, holes []Hole) { sum[c] += len(holes) })
		bonus(&s, sum[Red], sum[Black], func(b *Breakdown, v int) { b.Lines = v })
	}
	for c := range s {
		s[c].Total = s[c].Panels + s[c].Area + s[c].Lines
	}
	return s
}

// bonus gives the colour with the larger of red and black the difference.
func bonus(s *Score, red, black int, set func(*Breakdown, int)) {
	switch {
	case red > black:
		set(&s[Red], red-black)
	case black > red:
		set(&s[Black], black-red)
	}
}

// panelPoints returns the holes of the panels held by red and by black.
func (p *Position) panelPoints() (red, black int) {
	l := p.layout
	for i := range l.panelMask {
		m := l.panelMask[i]
		r, b := bits.OnesCount64(p.stones[Red]&m), bits.OnesCount64(p.stones[Black]&m)
		switch {
		case r > b:
			red += bits.OnesCount64(m)
		case b > r:
			black += bits.OnesCount64(m)
		}
	}
	return red, black
}

// PanelOwner returns the colour with strictly more marbles on panel i, or
// false if the panel is empty or tied.
func (p *Position) PanelOwner(i int) (Color, bool) {
	m := p.layout.panelMask[i]
	r, b := bits.OnesCount64(p.stones[Red]&m), bits.OnesCount64(p.stones[Black]&m)
	switch {
	case r > b:
		return Red, true
	case b > r:
		return Black, true
	}
	return 0, false
}

// LargestGroup returns the largest group of c's marbles connected
// orthogonally, as a bit set (the first found among equals); it is empty
// when c has no marble.
func (p *Position) LargestGroup(c Color) Holes {
	return Holes(p.largestGroup(c))
}

// largestGroup is LargestGroup as a bit mask.
func (p *Position) largestGroup(c Color) uint64 {
	set := p.stones[c]
	var best uint64
	bestSize := 0
	for rest := set; rest != 0 && bits.OnesCount64(rest) > bestSize; {
		g := p.layout.group(set, rest&-rest)
		rest &^= g
		if n := bits.OnesCount64(g); n > bestSize {
			best, bestSize = g, n
		}
	}
	return best
}

// group returns the holes of set connected to seed.
func (l *Layout) group(set, seed uint64) uint64 {
	g, frontier := seed, seed
	for frontier != 0 {
		var next uint64
		for m := frontier; m != 0; m &= m - 1 {
			next |= l.neighbours[bits.TrailingZeros64(m)]
		}
		frontier = next & set &^ g
		g |= frontier
	}
	return g
}

// Line is a straight run of marbles of one colour in consecutive cells.
type Line struct {
	Color Color
	Holes []Hole // in order along the line
}

// Lines returns every maximal straight run of 5 or more marbles of one
// colour: horizontal, vertical or diagonal, in consecutive cells.
func (p *Position) Lines() []Line {
	var out []Line
	p.eachLine(func(c Color, holes []Hole) {
		out = append(out, Line{Color: c, Holes: append([]Hole(nil), holes...)})
	})
	return out
}

// eachLine calls f for every maximal run of 5 or more marbles of one colour
// in consecutive cells; f must not keep holes.
func (p *Position) eachLine(f func(c Color, holes []Hole)) {
	for _, seq := range p.layout.runs {
		start := 0
		for i := 1; i <= len(seq); i++ {
			c, ok := p.At(seq[start])
			if i < len(seq) {
				if d, ok2 := p.At(seq[i]); ok2 == ok && d == c {
					continue
				}
			}
			if ok && i-start >= minLine {
				f(c, seq[start:i])
			}
			start = i
		}
	}
}
