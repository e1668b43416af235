package engine

import "fmt"

// Color is the colour of a player's marbles.
type Color uint8

// The two colours. Either may move first.
const (
	Red Color = iota
	Black
)

// MarblesPerPlayer is how many marbles each player has.
const MarblesPerPlayer = 28

// Other returns the opposing colour.
func (c Color) Other() Color { return c ^ 1 }

// String returns "red" or "black".
func (c Color) String() string {
	switch c {
	case Red:
		return "red"
	case Black:
		return "black"
	}
	return fmt.Sprintf("Color(%d)", uint8(c))
}

// Title returns "Red" or "Black", as game records write it.
func (c Color) Title() string {
	switch c {
	case Red:
		return "Red"
	case Black:
		return "Black"
	}
	return c.String()
}

// ParseColor reads "red" or "black" in any letter case.
func ParseColor(s string) (Color, error) {
	switch {
	case equalFold(s, "red"):
		return Red, nil
	case equalFold(s, "black"):
		return Black, nil
	}
	return 0, fmt.Errorf("colour must be Red or Black, not %q", s)
}

// equalFold reports whether s equals the lower-case ASCII word w, ignoring
// ASCII case.
func equalFold(s, w string) bool {
	if len(s) != len(w) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if lower(s[i]) != w[i] {
			return false
		}
	}
	return true
}

func lower(b byte) byte {
	if 'A' <= b && b <= 'Z' {
		return b + 'a' - 'A'
	}
	return b
}
