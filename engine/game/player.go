package game

import "strings"

// Player is one side of a game.
type Player struct {
	// UserID identifies a person (for the bot, their Discord user ID). For
	// the computer it may be the bot's own ID, or empty.
	UserID string `json:"user,omitempty"`
	// Name is the name to show, as it was when the game began.
	Name string `json:"name"`
	// AI is "" for a person, else the computer's level ("easy", "hard", …).
	AI string `json:"ai,omitempty"`
}

// IsAI reports whether p is the computer.
func (p Player) IsAI() bool { return p.AI != "" }

// maxID is the longest ID a game accepts; Discord's snowflakes have at most
// 20 digits.
const maxID = 100

// check returns an error wrapping ErrInvalid unless p can play; role names
// p in the message ("red player", …).
func (p Player) check(role string) error {
	if p.IsAI() {
		if err := CheckID(role+" AI level", p.AI); err != nil {
			return err
		}
		if p.UserID == "" {
			return nil
		}
	}
	return CheckID(role+" user ID", p.UserID)
}

// CheckID returns an error wrapping ErrInvalid unless id can name someone
// or something in a game: 1 to 100 bytes, none of them zero. what names
// the ID in the message.
func CheckID(what, id string) error {
	switch {
	case id == "":
		return invalid("%s is empty", what)
	case len(id) > maxID:
		return invalid("%s is longer than %d bytes", what, maxID)
	case strings.IndexByte(id, 0) >= 0:
		return invalid("%s %q holds a zero byte", what, id)
	}
	return nil
}
