package tournament

import (
	"errors"
	"fmt"
)

// The reasons a tournament refuses a change. Each is a sentinel: compare
// with errors.Is; the bot keeps one table from these to its messages.
var (
	// ErrName: the name is empty or longer than MaxNameLength characters.
	ErrName = errors.New("tournament: the name must have 1 to 100 characters")
	// ErrNameMention: the name mentions someone, a role, a channel or
	// everyone.
	ErrNameMention = errors.New("tournament: the name may not contain mentions")
	// ErrRounds: the number of rounds is outside MinRounds–MaxRounds.
	ErrRounds = errors.New("tournament: rounds must be between 1 and 15")
	// ErrDaysPerRound: the days per round are outside MinDaysPerRound–MaxDaysPerRound.
	ErrDaysPerRound = errors.New("tournament: days per round must be between 1 and 30")
	// ErrMaxPlayers: the player limit is neither 0 (none) nor within
	// MinPlayers–MaxPlayersLimit.
	ErrMaxPlayers = errors.New("tournament: max players must be between 3 and 256")
	// ErrStartTime: the start time is in the past or more than MaxStartDelay
	// away, or the tournament starts when full without a player limit.
	ErrStartTime = errors.New("tournament: the start must be a time within 90 days, or when full with a player limit")
	// ErrTooManyRounds: more rounds than the players can be paired without
	// a rematch; the error is a *RoundsError that says the most.
	ErrTooManyRounds = errors.New("tournament: more rounds than the players can play without meeting twice")
	// ErrAlreadyJoined: the player is already in the tournament.
	ErrAlreadyJoined = errors.New("tournament: already joined")
	// ErrFull: the tournament has its maximum number of players.
	ErrFull = errors.New("tournament: the tournament is full")
	// ErrFinished: the tournament is over.
	ErrFinished = errors.New("tournament: the tournament is finished")
	// ErrCancelled: the tournament was cancelled.
	ErrCancelled = errors.New("tournament: the tournament was cancelled")
	// ErrLateJoinClosed: half the rounds have been paired; nobody new may
	// join any more.
	ErrLateJoinClosed = errors.New("tournament: too late to join")
	// ErrRejoinClosed: a withdrawn player may not come back: late joins
	// are closed, and a player withdrawn by a forfeit may come back only
	// while the round of the forfeit is played.
	ErrRejoinClosed = errors.New("tournament: too late to come back")
	// ErrNotAdjudicable: a game in which a player has not moved is not
	// adjudicated: its clock decides it (EndOnTime).
	ErrNotAdjudicable = errors.New("tournament: only a game both players moved in is adjudicated")
	// ErrStarted: the tournament has started; a player who wants out must
	// withdraw instead of leaving, and it cannot be started again.
	ErrStarted = errors.New("tournament: the tournament has started; withdraw instead")
	// ErrNotStarted: the tournament is still taking players.
	ErrNotStarted = errors.New("tournament: the tournament has not started")
	// ErrNotJoined: the player is not in the tournament.
	ErrNotJoined = errors.New("tournament: not a player of this tournament")
	// ErrWithdrawn: the player has already withdrawn.
	ErrWithdrawn = errors.New("tournament: the player has withdrawn")
	// ErrTooFewPlayers: fewer than MinPlayers players to start.
	ErrTooFewPlayers = errors.New("tournament: at least 3 players are needed")
	// ErrRoundNotComplete: the current round still has games without a
	// result.
	ErrRoundNotComplete = errors.New("tournament: the round is not complete")
	// ErrNoSuchGame: no game of the current round has that reference.
	ErrNoSuchGame = errors.New("tournament: no such game in the current round")
	// ErrResultRecorded: the game already has a result.
	ErrResultRecorded = errors.New("tournament: the game already has a result")
	// ErrResult: the result is not a win, a draw or a loss.
	ErrResult = errors.New("tournament: not a result")
	// ErrNotInGame: the player does not play that game.
	ErrNotInGame = errors.New("tournament: the player does not play that game")
	// ErrFormat: a stored tournament is malformed or of an unknown version.
	ErrFormat = errors.New("tournament: malformed stored tournament")
)

// RoundsError says that a tournament asks for more rounds than its
// players can be paired without a rematch, and how many they can. It
// wraps ErrTooManyRounds.
type RoundsError struct {
	Rounds int // the rounds asked for
	Max    int // the most rounds the players can play
}

func (e *RoundsError) Error() string {
	return fmt.Sprintf("tournament: %d rounds asked, at most %d can be paired without meeting twice", e.Rounds, e.Max)
}

// Unwrap returns ErrTooManyRounds.
func (e *RoundsError) Unwrap() error { return ErrTooManyRounds }
