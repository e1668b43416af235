package storage

import "errors"

// The errors of this package. Methods wrap them with context (the channel,
// the file, what was wrong), so compare with errors.Is; the wrapped message
// is written to be shown to whoever can fix the problem.
var (
	// ErrNotFound: there is no such game, challenge, finished game or
	// profile (or the challenge is not the one named: it was accepted,
	// withdrawn or replaced).
	ErrNotFound = errors.New("not found")
	// ErrChannelBusy: the channel already has an active game or an open
	// challenge.
	ErrChannelBusy = errors.New("the channel already has a game or an open challenge")
	// ErrInvalid: a value given to the store breaks its rules (an illegal
	// move, a missing ID, a field that may not change, ...); the message
	// says which.
	ErrInvalid = errors.New("invalid value")
	// ErrBusy: the database could not serve the call in time: a row it
	// needs stayed locked by another transaction (PostgreSQL's
	// lock_timeout), or no connection was free. Nothing was changed;
	// trying again in a moment may succeed.
	ErrBusy = errors.New("the database is busy")
	// ErrLocked: another process holds the database file.
	ErrLocked = errors.New("the database file is in use by another process")
	// ErrSchemaTooNew: the file was written by a newer kulamibot.
	ErrSchemaTooNew = errors.New("the database was written by a newer version of kulamibot")
	// ErrNotKulami: the file exists but is not a kulami database.
	ErrNotKulami = errors.New("the file is not a kulami database")
	// ErrCorrupt: a stored value cannot be read.
	ErrCorrupt = errors.New("a stored value cannot be read")
	// ErrOpened: the tournament game is open already (OpenTournamentGame).
	ErrOpened = errors.New("the tournament game is open already")
)

// isNotFound reports whether err says that a value is not stored.
func isNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
