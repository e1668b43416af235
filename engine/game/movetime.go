package game

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The reasons ParseMoveTime refuses a move time.
var (
	// ErrMoveTimeForm: the text is not a move time: a number and a unit
	// (m, h or d), optionally followed by + and an increment written the
	// same way: "72h", "3d", "3d+1d".
	ErrMoveTimeForm = errors.New(`a move time is a number and a unit (m, h or d), optionally + an increment: "72h", "3d", "3d+1d"`)
	// ErrMoveTimeRange: the start is shorter than MinMoveTime or longer
	// than MaxMoveTime.
	ErrMoveTimeRange = errors.New("a move time must be from 1 minute to 60 days")
	// ErrIncrementRange: the increment is longer than the start.
	ErrIncrementRange = errors.New("the increment of a move time may not be longer than its start")
)

// The bounds of a move time's start (ParseMoveTime, New).
const (
	MinMoveTime = time.Minute
	MaxMoveTime = 60 * 24 * time.Hour
)

// MoveTime is a move clock: Start is the time on a player's clock when the
// game begins; Increment, if not zero, is added to it after each of their
// moves, never beyond twice Start. Without an increment, the clock is
// set back to Start at each turn (N days per move). The zero MoveTime is
// no clock.
type MoveTime struct {
	Start     time.Duration
	Increment time.Duration
}

// LiveLimit is the start below which a clock is live (MoveTime.Live).
// Fifteen minutes is the longest a player waits at the board for a move
// rather than leaving and coming back: at 15 minutes a reminder at half
// the time would still reach someone who stepped away, below it the
// players are watching and a reminder would only be noise.
const LiveLimit = 15 * time.Minute

// Live reports whether m is the clock of a live game, played at one
// sitting: a start shorter than LiveLimit.
func (m MoveTime) Live() bool { return m.Start > 0 && m.Start < LiveLimit }

// units are the units of a written move time, largest first.
var units = [...]struct {
	name string
	d    time.Duration
}{{"d", 24 * time.Hour}, {"h", time.Hour}, {"m", time.Minute}}

// ParseMoveTime reads a move time as String writes it, "3d", "72h",
// "90m" or "3d+1d": whole numbers of minutes, hours or days, the
// increment after a "+". It returns ErrMoveTimeForm for another text,
// ErrMoveTimeRange for a start outside MinMoveTime–MaxMoveTime, and
// ErrIncrementRange for an increment longer than the start.
func ParseMoveTime(s string) (MoveTime, error) {
	start, inc, plus := strings.Cut(s, "+")
	var m MoveTime
	var err error
	if m.Start, err = parseSpan(start); err != nil {
		return MoveTime{}, err
	}
	if plus {
		if m.Increment, err = parseSpan(inc); err != nil {
			return MoveTime{}, err
		}
	}
	if m.Start == 0 {
		return MoveTime{}, ErrMoveTimeRange
	}
	return m, m.check()
}

// parseSpan reads a number and a unit: "3d", "72h", "90m"; a number of at
// most 6 digits.
func parseSpan(s string) (time.Duration, error) {
	if len(s) < 2 || len(s) > 7 {
		return 0, ErrMoveTimeForm
	}
	digits, unit := s[:len(s)-1], s[len(s)-1:]
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, ErrMoveTimeForm
		}
	}
	n, err := strconv.Atoi(digits)
	if err != nil {
		return 0, ErrMoveTimeForm
	}
	for _, u := range units {
		if u.name == unit {
			return time.Duration(n) * u.d, nil
		}
	}
	return 0, ErrMoveTimeForm
}

// check returns ErrMoveTimeRange or ErrIncrementRange for a move time
// that New refuses, nil for no clock.
func (m MoveTime) check() error {
	switch {
	case m.Start == 0 && m.Increment == 0:
		return nil
	case m.Start < MinMoveTime || m.Start > MaxMoveTime:
		return ErrMoveTimeRange
	case m.Increment < 0 || m.Increment > m.Start:
		return ErrIncrementRange
	}
	return nil
}

// String writes m as ParseMoveTime reads it, each part in the largest
// unit that divides it ("3d", "36h", "3d+12h"); no increment is not
// written.
func (m MoveTime) String() string {
	s := span(m.Start)
	if m.Increment > 0 {
		s += "+" + span(m.Increment)
	}
	return s
}

// span writes d in the largest unit that divides it; a duration of a
// part of a minute is written in minutes, rounded down.
func span(d time.Duration) string {
	for _, u := range units {
		if d%u.d == 0 {
			return fmt.Sprintf("%d%s", d/u.d, u.name)
		}
	}
	return fmt.Sprintf("%dm", d/time.Minute)
}
