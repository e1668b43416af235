package challenge

import (
	"fmt"
	"strings"
)

// FirstChoice is who of a challenge's players moves first.
type FirstChoice uint8

// The choices of who moves first.
const (
	FirstRandom     FirstChoice = iota // drawn by lot when the challenge is accepted
	FirstChallenger                    // the player who challenged
	FirstOpponent                      // the player challenged
)

var firstNames = []string{"random", "challenger", "opponent"}

// String returns "random", "challenger" or "opponent".
func (f FirstChoice) String() string {
	if f.valid() {
		return firstNames[f]
	}
	return fmt.Sprintf("FirstChoice(%d)", uint8(f))
}

// valid reports whether f is one of the choices.
func (f FirstChoice) valid() bool { return int(f) < len(firstNames) }

// MarshalText writes f's name, or returns an error wrapping ErrInvalid
// for a value without one.
func (f FirstChoice) MarshalText() ([]byte, error) {
	if !f.valid() {
		return nil, fmt.Errorf("%w: %v has no name", ErrInvalid, f)
	}
	return []byte(firstNames[f]), nil
}

// UnmarshalText reads a name that MarshalText writes, or returns an error
// wrapping ErrInvalid and leaves f alone.
func (f *FirstChoice) UnmarshalText(b []byte) error {
	for i, s := range firstNames {
		if string(b) == s {
			*f = FirstChoice(i)
			return nil
		}
	}
	return fmt.Errorf("%w: first %q is not one of %s", ErrInvalid, b, strings.Join(firstNames, ", "))
}
