package rating

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kulami/kulami/engine/game"
)

// ErrInvalid: a Ladder without a name, or a name that is not one.
var ErrInvalid = errors.New("invalid rating value")

// Ladder is a rating list: games between people count on the Human
// ladder, games against the computer opponent on the AI ladder, never on
// the human one (LadderOf).
type Ladder uint8

// The ladders.
const (
	Human Ladder = iota
	AI
)

var ladderNames = []string{"human", "ai"}

// LadderOf returns the ladder a game between players counts on: AI if the
// computer plays, else Human.
func LadderOf(players [2]game.Player) Ladder {
	for _, p := range players {
		if p.IsAI() {
			return AI
		}
	}
	return Human
}

// String returns "human" or "ai".
func (l Ladder) String() string {
	if int(l) < len(ladderNames) {
		return ladderNames[l]
	}
	return fmt.Sprintf("Ladder(%d)", uint8(l))
}

// MarshalText writes l's name, or returns an error wrapping ErrInvalid
// for a value without one.
func (l Ladder) MarshalText() ([]byte, error) {
	if int(l) >= len(ladderNames) {
		return nil, fmt.Errorf("%w: %v has no name", ErrInvalid, l)
	}
	return []byte(ladderNames[l]), nil
}

// UnmarshalText reads a name that MarshalText writes, or returns an error
// wrapping ErrInvalid and leaves l alone.
func (l *Ladder) UnmarshalText(b []byte) error {
	for i, s := range ladderNames {
		if string(b) == s {
			*l = Ladder(i)
			return nil
		}
	}
	return fmt.Errorf("%w: ladder %q is not one of %s", ErrInvalid, b, strings.Join(ladderNames, ", "))
}
