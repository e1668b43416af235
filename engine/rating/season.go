package rating

import (
	"fmt"
	"time"
)

// Season is a calendar quarter in UTC, the span of a seasonal ladder
// (see the package documentation): 2026 Q4 is 1 October 2026, 00:00 UTC,
// to 1 January 2027, 00:00 UTC. Seasons are numbered in order, four a
// year (year·4 + quarter − 1), so that the next season is s+1 and
// seasons compare as numbers; the zero Season is no season (year 0 is
// not one). It is a plain value, written as text "2026-Q4".
type Season int32

// Seasons of years 1 to 9999, the years time.Time formats.
const (
	firstSeason Season = 4          // 1 Q1
	lastSeason  Season = 9999*4 + 3 // 9999 Q4
)

// SeasonOf returns the season of t: the calendar quarter of t in UTC.
// Times outside the years 1 to 9999 have the first or last season.
func SeasonOf(t time.Time) Season {
	t = t.UTC()
	s := Season(t.Year())*4 + Season(t.Month()-1)/3
	return min(max(s, firstSeason), lastSeason)
}

// Year returns the year of s.
func (s Season) Year() int { return int(s / 4) }

// Quarter returns the quarter of s, 1 to 4.
func (s Season) Quarter() int { return int(s%4) + 1 }

// Valid reports whether s is a season of the years 1 to 9999.
func (s Season) Valid() bool { return s >= firstSeason && s <= lastSeason }

// Start returns the first instant of s, in UTC.
func (s Season) Start() time.Time {
	return time.Date(s.Year(), time.Month(3*(s.Quarter()-1)+1), 1, 0, 0, 0, 0, time.UTC)
}

// End returns the first instant after s: the Start of the next season.
func (s Season) End() time.Time { return (s + 1).Start() }

// String returns s as people read it: "2026 Q4".
func (s Season) String() string { return fmt.Sprintf("%d Q%d", s.Year(), s.Quarter()) }

// MarshalText writes s as "2026-Q4", or returns an error wrapping
// ErrInvalid for a Season that is not Valid.
func (s Season) MarshalText() ([]byte, error) {
	if !s.Valid() {
		return nil, fmt.Errorf("%w: season number %d is not a quarter of the years 1 to 9999", ErrInvalid, int32(s))
	}
	return fmt.Appendf(nil, "%04d-Q%d", s.Year(), s.Quarter()), nil
}

// UnmarshalText reads what MarshalText writes ("2026-Q4": a year of four
// digits, "-Q" and a quarter 1 to 4), or returns an error wrapping
// ErrInvalid and leaves s alone.
func (s *Season) UnmarshalText(b []byte) error {
	bad := fmt.Errorf("%w: season %q is not a year of four digits, -Q and a quarter 1 to 4, like 2026-Q4", ErrInvalid, b)
	if len(b) != 7 || b[4] != '-' || b[5] != 'Q' || b[6] < '1' || b[6] > '4' {
		return bad
	}
	year := 0
	for _, c := range b[:4] {
		if c < '0' || c > '9' {
			return bad
		}
		year = year*10 + int(c-'0')
	}
	v := Season(year)*4 + Season(b[6]-'1')
	if !v.Valid() {
		return bad
	}
	*s = v
	return nil
}

// Season returns the season p counts in: that of the end of the game
// (SeasonOf(p.Result.At)). p must have a Result.
func (p Played) Season() Season { return SeasonOf(p.Result.At) }
