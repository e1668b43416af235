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
	// (s, m, h or d), optionally followed by + and an increment written
	// the same way: "72h", "3d", "10m", "5m+10s".
	ErrMoveTimeForm = errors.New(`a move time is a number and a unit (s, m, h or d), optionally + an increment: "3d", "10m", "5m+10s"`)
	// ErrMoveTimeRange: the start is shorter than MinMoveTime or longer
	// than MaxMoveTime.
	ErrMoveTimeRange = errors.New("a move time must be from 1 minute to 60 days")
	// ErrIncrementRange: the increment is shorter than MinIncrement or
	// longer than the start.
	ErrIncrementRange = errors.New("the increment of a move time is from 1 second to its start")
)

// The bounds of a move time's start (ParseMoveTime, New).
const (
	MinMoveTime = time.Minute
	MaxMoveTime = 60 * 24 * time.Hour
	// MinIncrement is the least increment a written move time has.
	MinIncrement = time.Second
)

// WholeGameLimit is the start below which a written move time without an
// increment is a clock for the whole game (ParseMoveTime), as chess sites
// count live controls: "10m" is 10 minutes on each player's clock for the
// whole game, while "1h", "90m" or "3d" give that time for every move, as
// daily controls do.
const WholeGameLimit = time.Hour

// ClockKind is how a move clock counts: per move or for the whole game.
// The zero ClockKind is no kind written, as in the clocks of games and
// challenges stored by earlier releases: such a clock counts for the whole
// game if it has an increment, else per move (MoveTime.Explicit).
type ClockKind uint8

// The kinds of move clock.
const (
	// PerMove sets the clock back to its start at every turn: "3d" is 3
	// days for each move.
	PerMove ClockKind = iota + 1
	// WholeGame carries what is left of a player's clock over to their
	// next turn, adding the increment (if any) after each of their moves:
	// "10m" is 10 minutes for all of a player's moves.
	WholeGame
)

// clockKinds are the names of the kinds, as stored.
var clockKinds = [...]string{"", "move", "game"}

// String returns the stored name of k: "move", "game", or "" for no kind.
func (k ClockKind) String() string {
	if int(k) < len(clockKinds) {
		return clockKinds[k]
	}
	return fmt.Sprintf("ClockKind(%d)", uint8(k))
}

// MarshalText writes k by its name; it refuses an unknown kind.
func (k ClockKind) MarshalText() ([]byte, error) {
	if int(k) >= len(clockKinds) {
		return nil, fmt.Errorf("unknown clock kind %d", uint8(k))
	}
	return []byte(clockKinds[k]), nil
}

// UnmarshalText reads a kind by its name; it refuses another name.
func (k *ClockKind) UnmarshalText(b []byte) error {
	for i, name := range clockKinds {
		if name == string(b) {
			*k = ClockKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown clock kind %q", b)
}

// MoveTime is a move clock: Start is the time on a player's clock when the
// game begins. Per move (Kind PerMove), the clock is set back to Start at
// each turn (N days per move). For the whole game (Kind WholeGame), what
// is left carries over to the player's next turn, and Increment, if not
// zero, is added to it after each of their moves, never beyond twice
// Start: a clock without increment is the same clock with an increment of
// 0. Only a clock for the whole game has an increment. The zero MoveTime
// is no clock.
type MoveTime struct {
	Start     time.Duration
	Increment time.Duration
	Kind      ClockKind `json:",omitempty"`
}

// Whole reports whether m is a clock for the whole game: its kind says
// so, or, having no kind (of an earlier release), it has an increment.
func (m MoveTime) Whole() bool {
	return m.Kind == WholeGame || m.Kind == 0 && m.Increment > 0
}

// CheckKind returns an error if m's kind does not fit it: an unknown
// kind, a kind without a start, or an increment on a clock per move.
func (m MoveTime) CheckKind() error {
	switch {
	case m.Kind > WholeGame:
		return fmt.Errorf("unknown clock kind %d", uint8(m.Kind))
	case m.Start == 0 && m.Kind != 0:
		return fmt.Errorf("a clock %v without a move time", m.Kind)
	case m.Kind == PerMove && m.Increment > 0:
		return fmt.Errorf("a clock per move with an increment of %v", m.Increment)
	}
	return nil
}

// Explicit returns m with its kind written, for a clock that has none (of
// an earlier release): WholeGame with an increment, else PerMove. The
// zero MoveTime (no clock) stays as it is.
func (m MoveTime) Explicit() MoveTime {
	switch {
	case m.Kind != 0 || m.Start == 0:
	case m.Whole():
		m.Kind = WholeGame
	default:
		m.Kind = PerMove
	}
	return m
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

// Pauses reports whether pauses hold a clock of m back: a vacation stops
// it, a weekend pauses it, quiet hours move its deadline. A clock that
// starts at WholeGameLimit (an hour) or more does: its game is played
// over hours or days. One that starts under it does not, live or not: a
// "30m" game lasts an hour at most, its players sit at the board, and a
// pause would only let the one who is losing stop the clock. The package
// doc's table "Clocks, pauses and comforts" says what each clock has.
func (m MoveTime) Pauses() bool { return m.Start >= WholeGameLimit }

// units are the units of a written move time, largest first.
var units = [...]struct {
	name string
	d    time.Duration
}{{"d", 24 * time.Hour}, {"h", time.Hour}, {"m", time.Minute}, {"s", time.Second}}

// ParseMoveTime reads a move time as String writes it, "3d", "72h",
// "10m", "90s", "3d+1d" or "5m+10s": whole numbers of seconds, minutes,
// hours or days, the increment after a "+". A move time with an increment,
// or without one under WholeGameLimit, is a clock for the whole game;
// from WholeGameLimit on, one without increment is per move. It returns
// ErrMoveTimeForm for another text, ErrMoveTimeRange for a start outside
// MinMoveTime–MaxMoveTime, and ErrIncrementRange for an increment under
// MinIncrement ("5m+0s") or longer than the start.
func ParseMoveTime(s string) (MoveTime, error) {
	start, inc, plus := strings.Cut(s, "+")
	m := MoveTime{Kind: WholeGame}
	var err error
	if m.Start, err = parseSpan(start); err != nil {
		return MoveTime{}, err
	}
	if plus {
		if m.Increment, err = parseSpan(inc); err != nil {
			return MoveTime{}, err
		}
		if m.Increment < MinIncrement {
			return MoveTime{}, ErrIncrementRange
		}
	}
	if m.Start == 0 {
		return MoveTime{}, ErrMoveTimeRange
	}
	if !plus && m.Start >= WholeGameLimit {
		m.Kind = PerMove
	}
	return m, m.check()
}

// parseSpan reads a number and a unit: "3d", "72h", "90m", "10s"; a number
// of at most 6 digits.
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

// check returns ErrMoveTimeRange or ErrIncrementRange for a written move
// time out of its bounds, nil for no clock.
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
// unit that divides it ("3d", "36h", "3d+12h", "5m+10s"); no increment is
// not written. The kind is not written: ParseMoveTime reads it from the
// start, so a clock per move under WholeGameLimit (of a game of an
// earlier release, "5m" per move) has no written form of its own and
// String writes only its start.
func (m MoveTime) String() string {
	s := span(m.Start)
	if m.Increment > 0 {
		s += "+" + span(m.Increment)
	}
	return s
}

// span writes d in the largest unit that divides it; a duration of a
// part of a second is written in seconds, rounded down.
func span(d time.Duration) string {
	for _, u := range units {
		if d%u.d == 0 {
			return fmt.Sprintf("%d%s", d/u.d, u.name)
		}
	}
	return fmt.Sprintf("%ds", d/time.Second)
}
