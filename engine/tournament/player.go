package tournament

import "time"

// Player is a tournament's player.
type Player struct {
	ID     string    `json:"id"`
	Rating int       `json:"rating"` // orders round 1 and the players of a score group
	Joined time.Time `json:"joined"`
	// Withdrawn: the player takes part in no further round; their games
	// and points stay in the standings.
	Withdrawn bool `json:"withdrawn,omitempty"`
	// NoShow: the withdrawal came from a game forfeited (Forfeit).
	NoShow bool `json:"no_show,omitempty"`
	// WithdrawnAt is the number of rounds paired when the player withdrew.
	WithdrawnAt int `json:"withdrawn_at,omitempty"`
	// Forfeited is the game whose forfeit withdrew the player, if one
	// did: the one to tell them in (WithdrawnBy).
	Forfeited GameRef `json:"forfeited,omitzero"`
}
