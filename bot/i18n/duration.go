package i18n

import (
	"strings"
	"time"
)

// Duration is a length of time in a language's words, in the grammatical
// cases a message may need it in: a message writes {{.Left}} for the
// plain form ("2 Tage") and {{.Left.Dative}} after a preposition that
// governs the dative ("bei 2 Tagen", German's bei, mit, in, nach, seit,
// vor, von, zu…). In English, French and Spanish both are the same. The
// package's tests check that every German message puts a duration after
// such a preposition in the dative, and only there.
type Duration struct{ plain, dative string }

// String returns the plain form, which {{.Left}} writes.
func (d Duration) String() string { return d.plain }

// Dative returns the form after a preposition that governs the dative,
// which {{.Left.Dative}} writes.
func (d Duration) Dative() string { return d.dative }

// Duration says d in words in l, in its two largest units, to the
// second: "10 hours", "2 days 3 hours", "45 minutes", "4 minutes 30
// seconds", "10 seconds", "less than a second". A move clock reads the
// same way ("3 days"). Pass it to T or N as a placeholder's value.
func (l Lang) Duration(d time.Duration) Duration {
	return Duration{plain: l.durationIn("time.", d), dative: l.durationIn("time.dative.", d)}
}

// durationIn says d with the messages of prefix: time.days, time.hours…
// for the plain form, time.dative.days… for the dative.
func (l Lang) durationIn(prefix string, d time.Duration) string {
	units := []struct {
		d  time.Duration
		id string
	}{{24 * time.Hour, "days"}, {time.Hour, "hours"}, {time.Minute, "minutes"}, {time.Second, "seconds"}}
	var parts []string
	for _, u := range units {
		if n := int(d / u.d); n > 0 && len(parts) < 2 {
			parts = append(parts, l.N(prefix+u.id, n))
			d -= time.Duration(n) * u.d
		} else if len(parts) > 0 {
			break // two adjacent units at most: "2 days 5 minutes" says too much
		}
	}
	if len(parts) == 0 {
		return l.T(prefix + "less_than_a_second")
	}
	return strings.Join(parts, " ")
}
