package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/i18n"
)

// envOf is an environment of the variables vars.
func envOf(vars map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

// mustRunEnv runs kulami as mustRun does, in the environment vars.
func mustRunEnv(tb testing.TB, vars map[string]string, stdin string, args ...string) outcome {
	tb.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, strings.NewReader(stdin), &stdout, &stderr, envOf(vars))
	return outcome{code, stdout.String(), stderr.String()}
}

func TestEnvLang(t *testing.T) {
	for _, tc := range []struct {
		name string
		vars map[string]string
		want i18n.Lang
	}{
		{"nothing set", nil, i18n.English},
		{"LANG French", map[string]string{"LANG": "fr_FR.UTF-8"}, i18n.French},
		{"LANG German with modifier", map[string]string{"LANG": "de_DE@euro"}, i18n.German},
		{"LANG Spanish of Mexico", map[string]string{"LANG": "es_MX.UTF-8"}, i18n.Spanish},
		{"LANG the language alone", map[string]string{"LANG": "es"}, i18n.Spanish},
		{"LANG in upper case", map[string]string{"LANG": "FR_fr"}, i18n.French},
		{"LANG C", map[string]string{"LANG": "C"}, i18n.English},
		{"LANG POSIX", map[string]string{"LANG": "POSIX"}, i18n.English},
		{"LANG C.UTF-8", map[string]string{"LANG": "C.UTF-8"}, i18n.English},
		{"LANG a language kulami does not speak", map[string]string{"LANG": "it_IT.UTF-8"}, i18n.English},
		{"LANG English", map[string]string{"LANG": "en_GB.UTF-8"}, i18n.English},
		{"LC_MESSAGES wins over LANG", map[string]string{"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"}, i18n.German},
		{"LC_ALL wins over both", map[string]string{"LANG": "fr_FR.UTF-8", "LC_MESSAGES": "de_DE.UTF-8", "LC_ALL": "es_ES.UTF-8"}, i18n.Spanish},
		{"LC_ALL C wins over LANG", map[string]string{"LANG": "fr_FR.UTF-8", "LC_ALL": "C"}, i18n.English},
		{"an empty LC_ALL is not set", map[string]string{"LANG": "fr_FR.UTF-8", "LC_ALL": ""}, i18n.French},
		{"other variables do not count", map[string]string{"LC_TIME": "fr_FR.UTF-8", "LANGUAGE": "de"}, i18n.English},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, envLang(envOf(tc.vars)))
		})
	}
}

// FuzzEnvLang: whatever LANG holds, kulami speaks one of its languages;
// another than English only if LANG begins with that language's code,
// followed by nothing or by what ends a POSIX locale's language part.
func FuzzEnvLang(f *testing.F) {
	for _, s := range []string{"", "C", "POSIX", "fr_FR.UTF-8", "de_DE@euro", "es", "it_IT", "frx", "fr-CA", "\xff", "ES_es.utf8"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, locale string) {
		got := envLang(envOf(map[string]string{"LANG": locale}))
		require.True(t, got.Valid(), "%q gives %q", locale, got)
		lower := strings.ToLower(locale)
		for _, l := range i18n.Langs() {
			rest, ok := strings.CutPrefix(lower, string(l))
			begins := ok && (rest == "" || strings.ContainsAny(rest[:1], "_.@-"))
			if l != i18n.English {
				assert.Equal(t, begins, got == l, "%q gives %q", locale, got)
			}
		}
	})
}

func TestLangFlag(t *testing.T) {
	langs := "en (English), de (Deutsch), es (Español), fr (Français)"
	t.Run("unknown language", func(t *testing.T) {
		o := mustRun(t, "", "--lang", "xx", "layout")
		assertFailure(t, o, statusUsage, "", `--lang "xx": kulami does not speak that language; the languages are `+langs)
	})
	t.Run("unknown language, said in the locale's", func(t *testing.T) {
		o := mustRunEnv(t, map[string]string{"LANG": "fr_FR.UTF-8"}, "", "layout", "--lang=klingon")
		assertFailure(t, o, statusUsage, "", "--lang \"klingon\"\u00a0: kulami ne parle pas cette langue\u00a0; les langues sont "+langs)
	})
	t.Run("no language", func(t *testing.T) {
		o := mustRun(t, "", "replay", "--lang")
		assertFailure(t, o, statusUsage, "", "--lang needs a language: "+langs)
	})
	english := mustRun(t, "", "layout", "square")
	require.Equal(t, statusOK, english.code, english.stderr)
	for _, args := range [][]string{
		{"--lang", "de", "layout", "square"},
		{"layout", "-lang=de", "square"},
		{"layout", "square", "--lang", "de_DE.UTF-8"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			o := mustRunEnv(t, map[string]string{"LANG": "fr_FR.UTF-8"}, "", args...)
			require.Equal(t, statusOK, o.code, o.stderr)
			assert.True(t, strings.HasPrefix(o.stdout, "Aufbau: "), "--lang wins over the locale: %s", o.stdout)
			assert.Equal(t, strings.Replace(english.stdout, "Layout: ", "Aufbau: ", 1), o.stdout)
		})
	}
	t.Run("after --", func(t *testing.T) {
		o := mustRun(t, "", "replay", "--", "--lang")
		assertFailure(t, o, statusBadInput, "replay", "--lang")
	})
}

// TestFrench plays the start of a game in French, as the locale asks,
// and shows a command's help in German and a French refusal.
func TestFrench(t *testing.T) {
	fr := map[string]string{"LANG": "fr_FR.UTF-8"}
	args := []string{"play", "--red", "alice", "--black", "bob"}
	o := mustRunEnv(t, fr, "aide\nd4\ne4\nzz\nd7\ncoups\nscore\nannuler\nquitter\n", args...)
	require.Equal(t, statusOK, o.code, o.stderr)
	golden(t, "lang/play-fr", o.transcript(args))

	help := mustRunEnv(t, fr, "", "help", "replay", "--lang", "de")
	require.Equal(t, statusOK, help.code)
	golden(t, "lang/help-replay-de", help.stdout)

	dir := t.TempDir()
	existing := filepath.Join(dir, "partie.kul")
	require.NoError(t, os.WriteFile(existing, nil, 0o644))
	refused := mustRunEnv(t, fr, "", "play", "--record", existing)
	assertFailure(t, refused, statusUsage, "play", "le fichier existe déjà", "voir «\u00a0kulami help play\u00a0»")
	refused = mustRunEnv(t, fr, "", "play", "--rules", "vite")
	assertFailure(t, refused, statusUsage, "play", "--rules\u00a0: les règles sont basic, area, lines ou full, pas \"vite\"")
	refused = mustRunEnv(t, fr, "", "play", "--rulez", "full")
	assertFailure(t, refused, statusUsage, "play", "option inconnue\u00a0: -rulez")
	missing := filepath.Join(dir, "absente.kul")
	refused = mustRunEnv(t, fr, "", "replay", missing)
	assertFailure(t, refused, statusBadInput, "replay", missing+"\u00a0: fichier ou dossier introuvable")
}

// FuzzLangFlag: --lang is taken out of any command line, wherever it is
// before "--", and only it: the other arguments stay, in order, and a
// language it returns is one kulami speaks.
func FuzzLangFlag(f *testing.F) {
	f.Add("play\x00--lang\x00fr\x00--ai\x00easy")
	f.Add("--lang=de\x00replay\x00--\x00--lang")
	f.Add("layout\x00-lang\x00")
	f.Add("-lang=xx")
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Split(line, "\x00")
		rest, lang, ok, err := langFlag(args)
		if err != nil {
			var le *langError
			require.ErrorAs(t, err, &le)
			assert.NotEmpty(t, le.message(i18n.English))
			return
		}
		if ok {
			assert.True(t, lang.Valid(), "%q", lang)
		}
		// rest is args without the flags and their values.
		i := 0
		for _, r := range rest {
			for i < len(args) && args[i] != r {
				i++
			}
			require.Less(t, i, len(args), "%q is not in %q in order", r, args)
			i++
		}
		for _, r := range rest {
			if r == "--" {
				break
			}
			bare := strings.TrimLeft(r, "-")
			dashes := len(r) - len(bare)
			name, _, _ := strings.Cut(bare, "=")
			assert.False(t, (dashes == 1 || dashes == 2) && name == "lang", "%q is left in %q", r, rest)
		}
	})
}
