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
	// ErrOwnTurn: the player asked for what only the player not to move
	// may do (give time, plan replies).
	ErrOwnTurn = errors.New("it is this player's own turn")
	// ErrNoClock: the player to move has no clock (no move time, or the
	// computer).
	ErrNoClock = errors.New("no clock runs for the player to move")
	// ErrTimeLimit: the time given would leave more than twice the move
	// time on the clock.
	ErrTimeLimit = errors.New("the clock would hold more than twice the move time")
	// ErrNotClaimable: no clock ran out, or the game ends by itself when
	// one does (Auto, or before both players moved).
	ErrNotClaimable = errors.New("there is no win on time to claim")
	// ErrNotClaimant: the player who ran out of time tried to claim.
	ErrNotClaimant = errors.New("only the opponent of the player who ran out of time may claim")
	// ErrOnVacation: the player is on vacation (or away in this game)
	// already.
	ErrOnVacation = errors.New("already on vacation")
	// ErrNotOnVacation: the player is not on vacation (or away).
	ErrNotOnVacation = errors.New("not on vacation")
	// ErrLiveGame: a pause was asked of a game played at one sitting (a
	// clock under an hour, MoveTime.Pauses), whose clock nothing holds
	// back: its players sit at the board.
	ErrLiveGame = errors.New("a game under an hour never pauses")
	// ErrBankEmpty: the vacation bank holds less than an hour.
	ErrBankEmpty = errors.New("the vacation bank is empty")
	// ErrVacationsOff: vacations are turned off (a cap of 0).
	ErrVacationsOff = errors.New("vacations are turned off")
	// ErrPlanIllegal: a line of a plan holds a move that is not legal
	// where it comes, or ends without a reply. It comes wrapped in a
	// PlanError that says which.
	ErrPlanIllegal = errors.New("a planned move is not legal")
	// ErrPlanTooLong: a plan has more than MaxPlanLines lines.
	ErrPlanTooLong = errors.New("a plan has at most 20 lines")
	// ErrPlanTooDeep: a line of a plan has more than MaxPlanDepth replies.
	ErrPlanTooDeep = errors.New("a line of a plan has at most 3 replies")
	// ErrPlanConflict: two lines of a plan answer the same moves with
	// different replies.
	ErrPlanConflict = errors.New("two lines of the plan answer the same moves differently")
	// ErrInvalid: a Config or State that cannot make a game: a bad layout,
	// rule set, colour, player, an illegal move or a result that does not
	// follow from the moves. It is wrapped with what is wrong.
	ErrInvalid = errors.New("invalid game")
)
