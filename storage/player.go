package storage

import (
	"fmt"
	"strings"
)

// Player is one side of a game or challenge.
type Player struct {
	// UserID is the player's Discord user ID. For the computer opponent it
	// is the bot's own user ID, or empty.
	UserID string `json:"user,omitempty"`
	// Name is the name to show, as it was when the game was stored.
	Name string `json:"name"`
	// AI is "" for a person, else the computer opponent's level ("easy",
	// "medium", "hard", ...).
	AI string `json:"ai,omitempty"`
}

// aiPrefix starts the profile ID of a computer opponent.
const aiPrefix = "ai:"

// IsAI reports whether p is the computer opponent.
func (p Player) IsAI() bool { return p.AI != "" }

// ProfileID returns the key of p's profile and history: the user ID of a
// person, "ai:" and the level for the computer opponent (each level has
// its own rating).
func (p Player) ProfileID() string {
	if p.IsAI() {
		return aiPrefix + p.AI
	}
	return p.UserID
}

// check returns an error wrapping ErrInvalid if p cannot play; role names p
// in the message ("red player", "challenger", ...).
func (p Player) check(role string) error {
	if p.IsAI() {
		if err := checkID(role+" AI level", p.AI); err != nil {
			return err
		}
		if p.UserID == "" {
			return nil
		}
	}
	if err := checkID(role+" user ID", p.UserID); err != nil {
		return err
	}
	if !p.IsAI() && strings.HasPrefix(p.UserID, aiPrefix) {
		return fmt.Errorf("%w: %s user ID %q: a person's ID may not start with %q", ErrInvalid, role, p.UserID, aiPrefix)
	}
	return nil
}

// maxID is the longest ID the store accepts; Discord's snowflakes have at
// most 20 digits.
const maxID = 100

// checkID returns an error wrapping ErrInvalid unless id is usable in a key:
// 1 to 100 bytes, none of them zero.
func checkID(what, id string) error {
	switch {
	case id == "":
		return fmt.Errorf("%w: %s is empty", ErrInvalid, what)
	case len(id) > maxID:
		return fmt.Errorf("%w: %s is longer than %d bytes", ErrInvalid, what, maxID)
	case strings.IndexByte(id, 0) >= 0:
		return fmt.Errorf("%w: %s %q holds a zero byte", ErrInvalid, what, id)
	}
	return nil
}

// checkGuildID is checkID for a guild ID, which is empty for direct
// messages.
func checkGuildID(id string) error {
	if id == "" {
		return nil
	}
	return checkID("guild ID", id)
}

// Ladder is a rating list of a guild: games between people count on the
// Human ladder, games against the computer opponent on the AI ladder.
type Ladder uint8

// The ladders.
const (
	Human Ladder = iota
	AI
)

var ladderNames = names{"human", "ai"}

// String returns "human" or "ai".
func (l Ladder) String() string { return ladderNames.text("Ladder", uint8(l)) }

// MarshalText writes l's name.
func (l Ladder) MarshalText() ([]byte, error) { return ladderNames.marshal("Ladder", uint8(l)) }

// UnmarshalText reads a name that MarshalText writes.
func (l *Ladder) UnmarshalText(b []byte) error {
	return unmarshalName(ladderNames, "ladder", b, l)
}
