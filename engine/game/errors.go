package game

import "errors"

// The reasons a change to a game is refused. Rule errors of the board come
// from package engine (engine.ErrOccupied, engine.ErrGameOver, …).
var (
	// ErrNotAPlayer: the person does not play in the game.
	ErrNotAPlayer = errors.New("not a player of this game")
	// ErrNotYourTurn: the player tried to move while it is the opponent's turn.
	ErrNotYourTurn = errors.New("not this player's turn")
	// ErrStale: the change was made on a view of the game that is out of
	// date (a board of an earlier move, a draw offer that has lapsed).
	ErrStale = errors.New("the game has moved on")
	// ErrTooLateToAbort: both players have made their first two moves.
	ErrTooLateToAbort = errors.New("too late to abort: both players have made two moves")
	// ErrNoDrawOffer: there is no draw offer to answer (none was made, or
	// a move was made since).
	ErrNoDrawOffer = errors.New("no draw offer stands")
	// ErrOwnDrawOffer: a player tried to accept their own draw offer.
	ErrOwnDrawOffer = errors.New("a player cannot accept their own draw offer")
	// ErrDrawOffered: a draw offer already stands for this move.
	ErrDrawOffered = errors.New("a draw offer already stands")
	// ErrComputerDeclines: the computer opponent takes no draws.
	ErrComputerDeclines = errors.New("the computer takes no draws")
	// ErrNotDue: nothing of the clock is due yet (no reminder, no timeout).
	ErrNotDue = errors.New("nothing is due yet")
	// ErrInvalid: a Config or State that cannot make a game: a bad layout,
	// rule set, colour, player, an illegal move or a result that does not
	// follow from the moves. It is wrapped with what is wrong.
	ErrInvalid = errors.New("invalid game")
)
