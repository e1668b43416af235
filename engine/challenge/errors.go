package challenge

import "errors"

// The reasons a challenge, or an answer to one, is refused.
var (
	// ErrSelfChallenge: a player challenged themself.
	ErrSelfChallenge = errors.New("a player cannot challenge themself")
	// ErrOwnChallenge: the challenger tried to accept or decline their own
	// challenge.
	ErrOwnChallenge = errors.New("the challenger cannot answer their own challenge")
	// ErrNotChallenged: someone other than the player challenged tried to
	// accept or decline the challenge.
	ErrNotChallenged = errors.New("the challenge is for another player")
	// ErrNotChallenger: someone other than the challenger tried to
	// withdraw the challenge.
	ErrNotChallenger = errors.New("only the challenger may withdraw the challenge")
	// ErrExpired: the challenge was answered at or after its expiry.
	ErrExpired = errors.New("the challenge has expired")
	// ErrRematchOffered: the player already offered the other one a
	// rematch, which is still open.
	ErrRematchOffered = errors.New("a rematch is already offered to the other player")
	// ErrRematchAsked: the other player already offered this one a
	// rematch, which is still open.
	ErrRematchAsked = errors.New("the other player already offered a rematch")
	// ErrInvalid: a Config or Challenge that cannot be a challenge (no
	// creation time, an unknown choice of first player, a bad board,
	// negative times). It is wrapped with what is wrong.
	ErrInvalid = errors.New("invalid challenge")
)
