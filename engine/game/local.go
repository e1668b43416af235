package game

import (
	"errors"
	"fmt"
	"time"

	// The time zones a game's players live in are read back with the
	// game: their database is built in, so that a machine without one
	// still restores every stored game.
	_ "time/tzdata"

	"github.com/kulami/kulami/engine"
)

// The reasons ParseQuiet refuses quiet hours.
var (
	// ErrQuietForm: the text is not of the form HH-HH ("22-08").
	ErrQuietForm = errors.New(`quiet hours are written HH-HH, from the hour they begin to the hour they end: "22-08"`)
	// ErrQuietHour: an hour is not from 00 to 23.
	ErrQuietHour = errors.New("an hour of quiet hours must be from 00 to 23")
	// ErrQuietLength: the quiet hours begin and end at the same hour, or
	// last more than MaxQuiet.
	ErrQuietLength = errors.New("quiet hours must last from 1 to 12 hours")
)

// MaxQuiet is the longest quiet hours may last: a deadline must find room
// outside them and the QuietMargin after them every day.
const MaxQuiet = 12 * time.Hour

// QuietMargin is the least time between the end of a player's quiet hours
// and their loss on time: a reminder held back by quiet hours still comes
// at least this long before the deadline.
const QuietMargin = 6 * time.Hour

// Quiet is a player's quiet hours: from the hour From to the hour To of
// their local time, over midnight if To is not after From (22-08: from
// 22:00 to 08:00 the next morning). The zero Quiet is none.
type Quiet struct {
	From, To uint8
}

// ParseQuiet reads quiet hours as String writes them, "HH-HH": two hours
// of two digits each. It returns ErrQuietForm for another text,
// ErrQuietHour for an hour past 23 and ErrQuietLength for hours that are
// empty (08-08) or longer than MaxQuiet.
func ParseQuiet(s string) (Quiet, error) {
	if len(s) != 5 || s[2] != '-' {
		return Quiet{}, ErrQuietForm
	}
	var hours [2]uint8
	for i, p := range [2]string{s[:2], s[3:]} {
		if p[0] < '0' || p[0] > '9' || p[1] < '0' || p[1] > '9' {
			return Quiet{}, ErrQuietForm
		}
		hours[i] = (p[0]-'0')*10 + p[1] - '0'
	}
	q := Quiet{From: hours[0], To: hours[1]}
	if q.From == q.To {
		return Quiet{}, ErrQuietLength // 00-00 too, which is not none
	}
	return q, q.check()
}

// check returns ErrQuietHour or ErrQuietLength for quiet hours that
// ParseQuiet refuses; nil for none.
func (q Quiet) check() error {
	switch {
	case q == Quiet{}:
		return nil
	case q.From > 23 || q.To > 23:
		return ErrQuietHour
	case q.From == q.To || q.length() > MaxQuiet:
		return ErrQuietLength
	}
	return nil
}

// length returns how long the quiet hours last on a day without a
// daylight-saving change.
func (q Quiet) length() time.Duration {
	return time.Duration((int(q.To)-int(q.From)+24)%24) * time.Hour
}

// String writes q as ParseQuiet reads it ("22-08"); "" for none.
func (q Quiet) String() string {
	if q == (Quiet{}) {
		return ""
	}
	return fmt.Sprintf("%02d-%02d", q.From, q.To)
}

// MarshalText writes q as String does.
func (q Quiet) MarshalText() ([]byte, error) { return []byte(q.String()), nil }

// UnmarshalText reads q as ParseQuiet does; "" is none.
func (q *Quiet) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*q = Quiet{}
		return nil
	}
	v, err := ParseQuiet(string(b))
	if err != nil {
		return err
	}
	*q = v
	return nil
}

// periods returns the quiet periods that begin on the local day of t and
// on the day before, in loc: the only ones t or the QuietMargin after
// them can fall in.
func (q Quiet) periods(t time.Time, loc *time.Location) [2][2]time.Time {
	y, m, d := t.In(loc).Date()
	over := 0
	if q.To <= q.From {
		over = 1
	}
	var ps [2][2]time.Time
	for i, off := range [2]int{-1, 0} {
		ps[i] = [2]time.Time{
			time.Date(y, m, d+off, int(q.From), 0, 0, 0, loc),
			time.Date(y, m, d+off+over, int(q.To), 0, 0, 0, loc),
		}
	}
	return ps
}

// after returns t, or the end of the quiet hours t falls in: when a
// reminder due at t comes.
func (q Quiet) after(t time.Time, loc *time.Location) time.Time {
	if q == (Quiet{}) {
		return t
	}
	for _, p := range q.periods(t, loc) {
		if !t.Before(p[0]) && t.Before(p[1]) {
			return p[1]
		}
	}
	return t
}

// Holds reports whether t falls in the quiet hours, in loc (nil for
// UTC): a ping then would wake the player.
func (q Quiet) Holds(t time.Time, loc *time.Location) bool {
	return !q.Clear(t, loc).Equal(t)
}

// Clear returns t, or the end of the quiet hours t falls in, in loc (nil
// for UTC): when a ping due at t may come.
func (q Quiet) Clear(t time.Time, loc *time.Location) time.Time {
	if loc == nil {
		loc = time.UTC
	}
	return q.after(t, loc)
}

// Hushes reports whether a notice to a player of a game of clock m, at
// t, comes without its ping (silent, or held back): t falls in their
// quiet hours q in loc (nil for UTC), and the game is not one played at
// one sitting (MoveTime.OneSitting), whose players sit at the board and
// want its news at once. A notice of no game is hushed by Holds alone.
func (m MoveTime) Hushes(q Quiet, t time.Time, loc *time.Location) bool {
	return !m.OneSitting() && q.Holds(t, loc)
}

// fit returns the deadline d, or, if it falls in quiet hours or in the
// QuietMargin after them, QuietMargin after their end: a loss on time
// never comes while a player sleeps or before they had QuietMargin to
// answer a reminder held back by the night.
func (q Quiet) fit(d time.Time, loc *time.Location) time.Time {
	if q == (Quiet{}) {
		return d
	}
	for _, p := range q.periods(d, loc) {
		if end := p[1].Add(QuietMargin); !d.Before(p[0]) && d.Before(end) {
			return end
		}
	}
	return d
}

// weekendOf returns the weekend (Saturday 00:00 to Monday 00:00 in loc)
// that t falls in, or else the next one.
func weekendOf(t time.Time, loc *time.Location) (sat, mon time.Time) {
	lt := t.In(loc)
	y, m, d := lt.Date()
	switch wd := lt.Weekday(); wd {
	case time.Saturday:
	case time.Sunday:
		d--
	default:
		d += int(time.Saturday - wd)
	}
	return time.Date(y, m, d, 0, 0, 0, 0, loc), time.Date(y, m, d+2, 0, 0, 0, 0, loc)
}

// weekendBefore returns the last weekend in loc that began before t (t
// may fall in it, or at its very end).
func weekendBefore(t time.Time, loc *time.Location) (sat, mon time.Time) {
	lt := t.Add(-time.Nanosecond).In(loc)
	y, m, d := lt.Date()
	d -= (int(lt.Weekday()) - int(time.Saturday) + 7) % 7
	return time.Date(y, m, d, 0, 0, 0, 0, loc), time.Date(y, m, d+2, 0, 0, 0, 0, loc)
}

// advance returns when a clock started at from with d on it runs out if
// it stops over the weekends of loc.
func advance(from time.Time, d time.Duration, loc *time.Location) time.Time {
	t := from
	for d > 0 {
		sat, mon := weekendOf(t, loc)
		if !t.Before(sat) {
			t = mon
			continue
		}
		if end := t.Add(d); !end.After(sat) {
			return end
		}
		d -= sat.Sub(t)
		t = mon
	}
	return t
}

// retreat returns the last time before to when a clock that stops over
// the weekends of loc had d more to run until to.
func retreat(to time.Time, d time.Duration, loc *time.Location) time.Time {
	t := to
	for d > 0 {
		sat, mon := weekendBefore(t, loc)
		if !t.After(mon) {
			t = sat
			continue
		}
		if start := t.Add(-d); !start.Before(mon) {
			return start
		}
		d -= t.Sub(mon)
		t = sat
	}
	return t
}

// running returns how long a clock that stops over the weekends of loc
// runs from from to to; 0 if to is not after from.
func running(from, to time.Time, loc *time.Location) time.Duration {
	var d time.Duration
	for t := from; t.Before(to); {
		sat, mon := weekendOf(t, loc)
		if !t.Before(sat) {
			t = mon
			continue
		}
		if !to.After(sat) {
			return d + to.Sub(t)
		}
		d += sat.Sub(t)
		t = mon
	}
	return d
}

// SetLocal sets where the player of colour c lives, for their clock: their
// time zone (nil for UTC), over whose weekends the clock stops if the game
// pauses over weekends, and their quiet hours (the zero Quiet for none).
// The deadline that stands is kept: they apply from the next deadline set
// (a turn, given time, a return from being away). It returns an error
// wrapping ErrInvalid for quiet hours that ParseQuiet refuses or a zone
// that cannot be stored by name (time.FixedZone).
func (g *Game) SetLocal(c engine.Color, zone *time.Location, quiet Quiet) error {
	if zone == nil {
		zone = time.UTC
	}
	if err := quiet.check(); err != nil {
		return invalid("%v", err)
	}
	name := zoneName(zone)
	if _, err := loadZone(name); err != nil {
		return err
	}
	g.s.Zones[c&1], g.s.Quiet[c&1], g.zones[c&1] = name, quiet, zone
	return nil
}

// Local returns the time zone and quiet hours of the player of colour c.
func (g *Game) Local(c engine.Color) (*time.Location, Quiet) { return g.zone(c), g.s.Quiet[c&1] }

// zoneName returns the name a zone is stored by: "" for UTC.
func zoneName(z *time.Location) string {
	if z == time.UTC {
		return ""
	}
	return z.String()
}

// loadZone returns the time zone of the IANA name; UTC for "". An
// unknown name is an error wrapping ErrInvalid.
func loadZone(name string) (*time.Location, error) {
	if name == "" {
		return time.UTC, nil
	}
	z, err := time.LoadLocation(name)
	if err != nil || name == "Local" {
		return nil, invalid("unknown time zone %q", name)
	}
	return z, nil
}
