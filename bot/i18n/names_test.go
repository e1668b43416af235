package i18n_test

import (
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"golang.org/x/text/unicode/norm"
)

// fold writes a word of language code without its accents, in lower
// case: "problème" and "probleme" fold alike, and in German "nächste" and
// "naechste", the spelling without umlauts.
func fold(code, w string) string {
	w = strings.ToLower(w)
	if code == "de" {
		w = strings.NewReplacer("ä", "ae", "ö", "oe", "ü", "ue", "ß", "ss").Replace(w)
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(w) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// accented are words of command names the review of December 2026 found
// spelled without their accents in one name and with them in another;
// wherever a name has one of them, it is spelled so.
var accented = map[string][]string{
	"fr": {"problème", "réglages", "règles", "réclamer", "prévoir", "écoulé"},
	"es": {"días", "mías", "máximo", "clasificación", "análisis", "estadísticas"},
	"de": {"löschen", "nächste", "rätsel"},
}

// nameWords returns the words of the command, subcommand and option names
// of file f (the messages command.….name, but choices), each with the ids
// of the names it is in.
func nameWords(f file) map[string][]string {
	out := map[string][]string{}
	for id, m := range f {
		if !strings.HasPrefix(id, "command.") || strings.HasPrefix(id, "command.choices.") || !strings.HasSuffix(id, ".name") {
			continue
		}
		for _, w := range strings.FieldsFunc(m.Other, func(r rune) bool { return r == '_' || r == '-' }) {
			out[w] = append(out[w], id)
		}
	}
	return out
}

// mentionOrCode finds what a message quotes rather than writes: a command
// as typed (**/kulami réglages salon_saison:**, /kulami aide), a code
// span, a placeholder.
var mentionOrCode = regexp.MustCompile("\\*\\*/[^*]*\\*\\*|/[\\p{L}]+(?: [\\p{L}_]+){0,2}(?: [\\p{L}_]+:\\S*)*|`[^`]*`|{{[^}]*}}")

var word = regexp.MustCompile(`\p{L}+`)

// proseWords returns the words the messages of f write, but in command
// names, mentions and code.
func proseWords(f file) map[string]bool {
	out := map[string]bool{}
	for id, m := range f {
		if strings.HasPrefix(id, "command.") && strings.HasSuffix(id, ".name") && !strings.HasPrefix(id, "command.choices.") {
			continue
		}
		for _, s := range forms(m) {
			for _, w := range word.FindAllString(mentionOrCode.ReplaceAllString(s, " "), -1) {
				out[strings.ToLower(w)] = true
			}
		}
	}
	return out
}

// spellingErrors returns what breaks the spelling rule of command names
// in language code: one spelling per word, with its accents. A name word
// is wrong if another name word differs from it only by accents, if it is
// one of the accented words written without them, or if the messages
// write it with accents and never as the name does.
func spellingErrors(code string, names map[string][]string, prose map[string]bool) []string {
	var out []string
	byFold := map[string][]string{}
	for w := range names {
		byFold[fold(code, w)] = append(byFold[fold(code, w)], w)
	}
	for _, ws := range byFold {
		if len(ws) > 1 {
			slices.Sort(ws)
			out = append(out, "the names spell one word two ways: "+strings.Join(ws, ", "))
		}
	}
	for _, w := range slices.Sorted(maps.Keys(names)) {
		for _, a := range accented[code] {
			if fold(code, w) == fold(code, a) && w != a {
				out = append(out, w+" (in "+strings.Join(names[w], ", ")+") is spelled "+a)
			}
		}
		if prose[w] {
			continue
		}
		for p := range prose {
			if p != w && fold(code, p) == fold(code, w) {
				out = append(out, w+" (in "+strings.Join(names[w], ", ")+") is written "+p+" in the messages")
			}
		}
	}
	return out
}

// TestCommandNameSpelling: in each language, command, subcommand and
// option names spell their words as the language does, accents and
// umlauts included (Discord takes them; see TestCommandLocalizations in
// package bot for its rules), and the same way in every name: a player
// who typed /kulami réglages does not have to guess /problème or
// /probleme.
func TestCommandNameSpelling(t *testing.T) {
	for code, f := range readFiles(t) {
		names := nameWords(f)
		assert.NotEmpty(t, names, code)
		for _, e := range spellingErrors(code, names, proseWords(f)) {
			t.Errorf("%s: %s", code, e)
		}
	}
}

// TestCommandNameSpellingIsCaught checks the check on the names the review
// of December 2026 found.
func TestCommandNameSpellingIsCaught(t *testing.T) {
	for _, tc := range []struct {
		code  string
		names []string
		prose []string
	}{
		{"fr", []string{"réglages", "probleme"}, []string{"problème"}},
		{"fr", []string{"salon", "probleme"}, nil}, // a known word
		{"es", []string{"días", "por", "ronda", "dias", "vacaciones"}, nil},
		{"es", []string{"mias"}, nil},
		{"de", []string{"löschen", "naechste"}, []string{"nächste"}},
		{"de", []string{"loeschen", "tages"}, nil},
	} {
		names := map[string][]string{}
		for _, n := range tc.names {
			names[n] = []string{"command.x.name"}
		}
		prose := map[string]bool{}
		for _, p := range tc.prose {
			prose[p] = true
		}
		assert.NotEmpty(t, spellingErrors(tc.code, names, prose), "%s %v", tc.code, tc.names)
	}
	// A word that is written both ways in the language is no slip: Spanish
	// "de" beside "dé" (que me dé).
	assert.Empty(t, spellingErrors("es", map[string][]string{"fines": nil, "de": nil, "semana": nil}, map[string]bool{"de": true, "dé": true}))
	assert.Equal(t, "naechste", fold("de", "Nächste"))
	assert.Equal(t, "probleme", fold("fr", "problème"))
}
