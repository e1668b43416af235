package i18n

import (
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/number"
)

// printer returns the x/text printer of l, which writes numbers by CLDR's
// data for l: 1,234 in English, 1 234 in French, 1.234 in German.
func (l Lang) printer() *message.Printer {
	if p, ok := printers[l]; ok {
		return p
	}
	return printers[English]
}

// printers are the printers of the languages, made once: a Printer is
// safe for concurrent use once made.
var printers = func() map[Lang]*message.Printer {
	m := map[Lang]*message.Printer{}
	for _, l := range catalog.langs {
		m[l] = message.NewPrinter(l.tag())
	}
	return m
}()

// tag returns l's BCP 47 tag.
func (l Lang) tag() language.Tag {
	t, err := language.Parse(string(l))
	if err != nil {
		return language.English
	}
	return t
}

// Number writes n as l writes whole numbers: 1,234 in English, 1 234 (a
// no-break space) in French, 1.234 in German and Spanish.
func (l Lang) Number(n int) string {
	return l.printer().Sprint(number.Decimal(n))
}

// Decimal writes f with digits digits after the decimal separator, as l
// writes it: 0.5 in English, 0,5 in French.
func (l Lang) Decimal(f float64, digits int) string {
	return l.printer().Sprint(number.Decimal(f, number.MinFractionDigits(digits), number.MaxFractionDigits(digits)))
}

// Percent writes the share f (0.62 for 62%) rounded to a whole percent, as
// l writes it: 62% in English, 62 % (a no-break space) in French.
func (l Lang) Percent(f float64) string {
	return l.printer().Sprint(number.Percent(f, number.MaxFractionDigits(0)))
}

// One reports whether n takes l's singular form (CLDR's plural category
// "one"): 1 in English, 0 and 1 in French.
func (l Lang) One(n int) bool {
	return plural.Cardinal.MatchPlural(l.tag(), n, 0, 0, 0, 0) == plural.One
}
