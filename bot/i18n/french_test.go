package i18n_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// nameAfterDe finds "de" or "du" before a placeholder that holds a name (a
// player's, a tournament's, a file's) or a mention: French elides "de"
// before a vowel ("d’Éloïse") and contracts "de le", which a template
// cannot know, so a name never follows them; the sentence says it another
// way ("le classement du tournoi …", "Éloïse : …").
var nameAfterDe = regexp.MustCompile(`(?i)\b(de|du) (\{\{\.(A|B|Black|Bot|Challenger|Claimant|Computer|File|Giver|Late|Loser|Name|Opponent|Organiser|Player|Players|Red|Winner)\}\}|<@)`)

// code finds what a message quotes as code rather than as words: a span in
// backquotes, a tag of a game record such as [Red "alice"], and the
// straight quote itself named in guillemets (« " »).
var code = regexp.MustCompile("`[^`]*`" + `|\[[A-Za-z{}.]+ \\?"[^"\]]*\\?"\]|«[\s\x{a0}]*"[\s\x{a0}]*»`)

// TestFrenchHasNoNameAfterDe: no French message puts a name after "de" or
// "du".
func TestFrenchHasNoNameAfterDe(t *testing.T) {
	for id, m := range readFiles(t)["fr"] {
		for form, s := range forms(m) {
			assert.Empty(t, nameAfterDe.FindAllString(s, -1), "fr: %q (%s): rephrase so that no name follows de or du: %q", id, form, s)
		}
	}
}

// TestFrenchQuotesAreGuillemets: French messages quote with « », never
// with straight or English quotes, but for code they show as typed (a
// record's tags, backquoted commands, the indented examples of the
// command-line help).
func TestFrenchQuotesAreGuillemets(t *testing.T) {
	for id, m := range readFiles(t)["fr"] {
		for form, s := range forms(m) {
			var prose []string
			for _, line := range strings.Split(s, "\n") {
				if !strings.HasPrefix(line, "  ") { // an indented example
					prose = append(prose, code.ReplaceAllString(line, ""))
				}
			}
			text := strings.Join(prose, "\n")
			assert.False(t, strings.ContainsAny(text, "\"“”„"), "fr: %q (%s): quote with « » in French: %q", id, form, text)
		}
	}
}

// TestNameAfterDeIsCaught checks the check on the sentences issue 31
// found and on their rephrasing.
func TestNameAfterDeIsCaught(t *testing.T) {
	for _, bad := range []string{"C’est au tour de {{.Player}}", "le défi de {{.Challenger}}", "Erreurs de {{.Player}} :", "la pendule du {{.Name}}", "le plan de <@123>"} {
		assert.True(t, nameAfterDe.MatchString(bad), bad)
	}
	for _, good := range []string{"À {{.Player}} de jouer", "le défi lancé par {{.Challenger}}", "de {{.Count}} jours", "le classement du tournoi {{.Name}}"} {
		assert.False(t, nameAfterDe.MatchString(good), good)
	}
	assert.Equal(t, "la balise  manque", code.ReplaceAllString(`la balise [Layout \"...\"] manque`, ""))
	assert.Equal(t, "il manque le  fermant", code.ReplaceAllString("il manque le «\u00a0\"\u00a0» fermant", ""))
}

// spaceBeforePunct finds a colon, semicolon, exclamation or question mark
// after an ordinary space, which can wrap it onto a line of its own, or
// glued to the word or placeholder before it, which French spaces.
var spaceBeforePunct = regexp.MustCompile(`\S+ [:;!?](?:\s|$)|[\p{L}}][:;!?](?:\s|$)`)

// TestFrenchNoBreakSpaces: French puts a no-break space before : ; ! and
// ?, so that Discord never wraps the mark onto a line of its own.
func TestFrenchNoBreakSpaces(t *testing.T) {
	for id, m := range readFiles(t)["fr"] {
		for form, s := range forms(m) {
			for _, p := range spaceBeforePunct.FindAllString(code.ReplaceAllString(s, ""), -1) {
				t.Errorf("fr: %q (%s): %q: put a no-break space (U+00A0) before the mark", id, form, p)
			}
		}
	}
	assert.True(t, spaceBeforePunct.MatchString("à la fois ; rien"))
	assert.False(t, spaceBeforePunct.MatchString("à la fois\u00a0; rien"))
	assert.False(t, spaceBeforePunct.MatchString("**/kulami réglages salon_saison:**"))
	assert.True(t, spaceBeforePunct.MatchString("ce navigateur{N}: elle"), "a mark glued to the word before it")
	assert.True(t, spaceBeforePunct.MatchString("{{.Name}}: rien"))
	assert.False(t, spaceBeforePunct.MatchString("à 00:00 UTC"))
}
