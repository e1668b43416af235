package i18n_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// parenPlural finds a plural written as an ending in brackets: move(s),
// coup(s), jugada(s), canica(s), reloj(es), Spieler(n), Zug(e).
var parenPlural = regexp.MustCompile(`\p{L}+\((?:s|es|e|n|en|er|x)\)`)

// slashWords finds two words with a slash between them, such as
// "Zug/Zügen", for slashPlural.
var slashWords = regexp.MustCompile(`(\p{L}{2,})/(\p{L}{2,})`)

// umlauts folds a German umlaut to its vowel, for slashPlural.
var umlauts = strings.NewReplacer("ä", "a", "ö", "o", "ü", "u", "Ä", "A", "Ö", "O", "Ü", "U")

// slashPlural returns the first pair of words in s with a slash between
// them where one begins as the other ("Zug/Zügen", "jour/jours"): a word
// in the singular and the plural at once.
func slashPlural(s string) string {
	for _, m := range slashWords.FindAllStringSubmatch(s, -1) {
		a, b := strings.ToLower(umlauts.Replace(m[1])), strings.ToLower(umlauts.Replace(m[2]))
		if a != b && (strings.HasPrefix(a, b) || strings.HasPrefix(b, a)) {
			return m[0]
		}
	}
	return ""
}

// TestNoBracketPlurals: no message writes a noun in the singular and the
// plural at once ("1 move(s)", „Zug/Zügen“): a message that shows a count
// is a plural message with its one and other forms (see N), or is worded
// so that the count needs no noun.
func TestNoBracketPlurals(t *testing.T) {
	for code, f := range readFiles(t) {
		for id, m := range f {
			for form, s := range forms(m) {
				if p := parenPlural.FindString(s); p != "" {
					t.Errorf("%s: %q (%s) writes %q: make it a plural message, or word it without the count's noun: %q", code, id, form, p, s)
				}
				if p := slashPlural(s); p != "" {
					t.Errorf("%s: %q (%s) writes %q: make it a plural message, or word it without the count's noun: %q", code, id, form, p, s)
				}
			}
		}
	}
}

// TestBracketPluralsAreCaught checks the check on the plurals the review
// of December 2026 found and on words it must let be.
func TestBracketPluralsAreCaught(t *testing.T) {
	for _, bad := range []string{"in {{.Moves}} move(s) of yours", "en {{.Moves}} coup(s)", "jugada(s) tuya(s)", "{{.Count}} reloj(es)", "2 Spieler(n)", "in {{.Moves}} eigenen Zug/Zügen", "jour/jours"} {
		assert.True(t, parenPlural.MatchString(bad) || slashPlural(bad) != "", bad)
	}
	for _, good := range []string{"(s, m, h or d)", "(see /kulami history)", "und/oder", "Rot/Schwarz", "win/loss", "A1 (s)"} {
		assert.False(t, parenPlural.MatchString(good) || slashPlural(good) != "", good)
	}
}
