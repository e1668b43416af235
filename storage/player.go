package storage

import (
	"fmt"
	"strings"

	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
)

// aiPrefix starts the profile ID of a computer opponent.
const aiPrefix = "ai:"

// ProfileID returns the key of p's profile and history: the user ID of a
// person, "ai:" and the level for the computer (each level has its own
// rating).
func ProfileID(p game.Player) string {
	if p.IsAI() {
		return aiPrefix + p.AI
	}
	return p.UserID
}

// Player returns the player whose profile ID is id, named name: the
// computer at its level for an ID that ProfileID made for it, else a
// person.
func Player(id, name string) game.Player {
	if level, ok := strings.CutPrefix(id, aiPrefix); ok {
		return game.Player{Name: name, AI: level}
	}
	return game.Player{UserID: id, Name: name}
}

// checkPlayer returns an error wrapping ErrInvalid if p cannot be stored;
// role names p in the message ("red player", "challenger", …).
func checkPlayer(p game.Player, role string) error {
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

// checkID returns an error wrapping ErrInvalid unless id is usable in a
// key: 1 to 100 bytes, none of them zero.
func checkID(what, id string) error {
	if err := game.CheckID(what, id); err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
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

// Ladder is a rating list of a guild (see rating.Ladder): games between
// people count on the Human ladder, games against the computer opponent
// on the AI ladder.
type Ladder = rating.Ladder

// Season is a calendar quarter, the span of a seasonal ladder (see
// rating.Season).
type Season = rating.Season

// The ladders.
const (
	Human = rating.Human
	AI    = rating.AI
)
