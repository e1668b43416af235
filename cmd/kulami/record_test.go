package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
)

// TestParseMessages checks that every code of a malformed layout string or
// record has its message in each language, written in that language rather
// than taken from English.
func TestParseMessages(t *testing.T) {
	for _, l := range i18n.Langs() {
		for _, code := range engine.ParseCodes() {
			t.Run(string(l)+"/"+code, func(t *testing.T) {
				id := parseKey(code)
				require.True(t, i18n.Has(id), "no message %s", id)
				if l != i18n.English {
					assert.NotEqual(t, i18n.English.T(id), l.T(id), "%s is not translated", id)
				}
			})
		}
	}
}

// TestParseErrorInFrench checks that a malformed record or layout string
// is refused in French only, its problem included.
func TestParseErrorInFrench(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
		return path
	}
	badLayout := file("disposition.kul", "[Game \"Kulami\"]\n[Layout \"aab/aab\"]\n1. D4\n")
	badFirst := file("premier.kul", "[Layout \""+engine.SquareString+"\"]\n[First \"Vert\"]\n")
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"bad layout in a record", "", []string{"replay", badLayout}, statusBadInput,
			badLayout + ": feuille de partie invalide\u00a0: ligne 2\u00a0: balise Layout\u00a0: disposition invalide\u00a0: plaques de 6 cases\u00a0: 0, de 4\u00a0: 1, de 3\u00a0: 0, de 2\u00a0: 1\u00a0; un plateau a 4 plaques de 6 cases, 5 de 4, 4 de 3 et 4 de 2"},
		{"bad First tag", "", []string{"review", badFirst}, statusBadInput,
			badFirst + ": feuille de partie invalide\u00a0: ligne 2\u00a0: balise First\u00a0: la couleur doit être Red ou Black, pas \"Vert\""},
		{"no Layout tag", "1. D4\n", []string{"think"}, statusBadInput,
			"l’entrée standard: feuille de partie invalide\u00a0: il n’y a pas de balise Layout\u00a0; une feuille de partie demande [Layout \"...\"]"},
		{"bad layout string", "", []string{"layout", "aab/a b"}, statusUsage,
			"disposition invalide\u00a0: la rangée 2 contient \" \"\u00a0; seules les lettres a-z (plaques) et «\u00a0.\u00a0» (vides) sont permises"},
		{"bad layout to play on", "", []string{"play", "--layout", "aaaa/bbbb"}, statusUsage,
			"disposition invalide\u00a0: la plaque 'a' mesure 4×1\u00a0; une plaque mesure 2×3, 2×2, 1×3 ou 1×2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := mustRunEnv(t, map[string]string{"LANG": "fr_FR.UTF-8"}, tt.stdin, tt.args...)
			assertFailure(t, o, tt.code, tt.args[0], tt.want)
			for _, english := range []string{"bad ", "line", "tag ", "panel", "hole", "row ", "allowed", "there is", "needs", "colour", "must"} {
				assert.NotContains(t, o.stderr, english)
			}
		})
	}
}
