package tournament

import (
	"strings"
	"time"
	"unicode/utf8"
)

// The bounds of Settings.
const (
	MaxNameLength   = 100 // characters of a name
	MinRounds       = 1
	MaxRounds       = 15
	MinDaysPerRound = 1
	MaxDaysPerRound = 30
	MinPlayers      = 3   // players needed to start
	MaxPlayersLimit = 256 // players a tournament may have
	// MaxStartDelay is how far ahead a start time may be.
	MaxStartDelay = 90 * 24 * time.Hour
)

// Settings are what the organiser chooses when creating a tournament.
// Layout, Rules and MoveTime are carried for the games the caller opens and
// are not interpreted here.
type Settings struct {
	Name         string        `json:"name"`
	Rounds       int           `json:"rounds"`
	DaysPerRound int           `json:"days_per_round"`
	Duplicate    bool          `json:"duplicate"` // each pairing plays two games on one board, each player first once
	MaxPlayers   int           `json:"max_players,omitempty"`
	Start        time.Time     `json:"start,omitzero"` // zero: when MaxPlayers have joined
	Layout       string        `json:"layout,omitempty"`
	Rules        string        `json:"rules,omitempty"`
	MoveTime     time.Duration `json:"move_time,omitempty"`
}

// Validate checks the settings at the time now and returns the first
// problem: ErrName, ErrNameMention, ErrRounds, ErrDaysPerRound,
// ErrMaxPlayers, ErrStartTime or a *RoundsError (when MaxPlayers players
// cannot play Rounds rounds without a rematch).
//
// The mention check refuses "@everyone", "@here" and Discord's "<@…>" and
// "<#…>" forms; a caller that shows names elsewhere escapes them there.
func (s Settings) Validate(now time.Time) error {
	if n := utf8.RuneCountInString(strings.TrimSpace(s.Name)); n == 0 || n > MaxNameLength {
		return ErrName
	}
	for _, m := range []string{"@everyone", "@here", "<@", "<#"} {
		if strings.Contains(s.Name, m) {
			return ErrNameMention
		}
	}
	if s.Rounds < MinRounds || s.Rounds > MaxRounds {
		return ErrRounds
	}
	if s.DaysPerRound < MinDaysPerRound || s.DaysPerRound > MaxDaysPerRound {
		return ErrDaysPerRound
	}
	if s.MaxPlayers != 0 && (s.MaxPlayers < MinPlayers || s.MaxPlayers > MaxPlayersLimit) {
		return ErrMaxPlayers
	}
	if s.Start.IsZero() && s.MaxPlayers == 0 ||
		!s.Start.IsZero() && (s.Start.Before(now) || s.Start.Sub(now) > MaxStartDelay) {
		return ErrStartTime
	}
	if s.MaxPlayers != 0 && s.Rounds > MostRounds(s.MaxPlayers) {
		return &RoundsError{Rounds: s.Rounds, Max: MostRounds(s.MaxPlayers)}
	}
	return nil
}

// limit is the most players the tournament takes.
func (s Settings) limit() int {
	if s.MaxPlayers == 0 {
		return MaxPlayersLimit
	}
	return s.MaxPlayers
}

// roundPoints is what a won round is worth: 1 point, 2 with duplicate
// rounds.
func (s Settings) roundPoints() Points {
	if s.Duplicate {
		return 4
	}
	return 2
}

// games is the number of games of each pairing.
func (s Settings) games() int {
	if s.Duplicate {
		return 2
	}
	return 1
}

// MostRounds is the most rounds n players can play without anyone meeting
// the same opponent twice: n−1 for an even n, n for an odd n (each player
// sits out once), as in a round robin.
func MostRounds(n int) int {
	if n%2 == 0 {
		return n - 1
	}
	return n
}
