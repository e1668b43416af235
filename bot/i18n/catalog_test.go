package i18n_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"

	"github.com/kulami/kulami/bot/i18n"
)

// file is one message file as a translator wrote it.
type file map[string]*goi18n.Message

// readFiles parses every file in locales/, by language code.
func readFiles(t *testing.T) map[string]file {
	t.Helper()
	out := map[string]file{}
	names, err := filepath.Glob("locales/*.toml")
	require.NoError(t, err)
	for _, name := range names {
		buf, err := os.ReadFile(name)
		require.NoError(t, err)
		mf, err := goi18n.ParseMessageFileBytes(buf, name, map[string]goi18n.UnmarshalFunc{"toml": toml.Unmarshal})
		require.NoError(t, err, name)
		f := file{}
		for _, m := range mf.Messages {
			f[m.ID] = m
		}
		out[strings.TrimSuffix(filepath.Base(name), ".toml")] = f
	}
	require.Contains(t, out, "en")
	return out
}

var action = regexp.MustCompile(`{{(.*?)}}`)

// A placeholder is {{.Name}}, or {{.Name.Dative}} for a Duration after a
// preposition that governs the dative (see Duration).
var placeholder = regexp.MustCompile(`^\s*\.([A-Z][A-Za-z]*)(?:\.Dative)?\s*$`)

// placeholders returns the sorted names of the placeholders of every form
// of m, and the actions that are not a plain placeholder.
func placeholders(m *goi18n.Message) (names, bad []string) {
	for _, s := range forms(m) {
		for _, a := range action.FindAllStringSubmatch(s, -1) {
			p := placeholder.FindStringSubmatch(a[1])
			if p == nil {
				bad = append(bad, a[0])
				continue
			}
			if !slices.Contains(names, p[1]) {
				names = append(names, p[1])
			}
		}
	}
	slices.Sort(names)
	return names, bad
}

// forms returns the texts of m by plural category; a message that is not
// plural has only "other".
func forms(m *goi18n.Message) map[string]string {
	all := map[string]string{"zero": m.Zero, "one": m.One, "two": m.Two, "few": m.Few, "many": m.Many, "other": m.Other}
	for k, v := range all {
		if v == "" {
			delete(all, k)
		}
	}
	return all
}

func isPlural(m *goi18n.Message) bool { return len(forms(m)) > 1 || m.Other == "" }

// TestFilesMatchEnglish: every file has exactly the messages of en.toml,
// each with the same placeholders, none empty or a sentence left in
// English, and the plural ones plural.
func TestFilesMatchEnglish(t *testing.T) {
	files := readFiles(t)
	en := files["en"]
	for code, f := range files {
		t.Run(code, func(t *testing.T) {
			for id, m := range en {
				tm, ok := f[id]
				if !assert.True(t, ok, "%s.toml lacks %q (English: %q)", code, id, m.Other) {
					continue
				}
				want, _ := placeholders(m)
				got, bad := placeholders(tm)
				assert.Empty(t, bad, "%s: %q: use only placeholders like {{.Name}}", code, id)
				assert.Equal(t, want, got, "%s: %q has other placeholders than in English", code, id)
				assert.Equal(t, isPlural(m), isPlural(tm), "%s: %q is plural in English, and must be here (or not)", code, id)
				for form, s := range forms(tm) {
					assert.NotEmpty(t, strings.TrimSpace(s), "%s: %q form %s is empty", code, id, form)
					if en := forms(m)[form]; code != "en" && s == en && strings.Count(action.ReplaceAllString(s, ""), " ") >= 3 {
						t.Errorf("%s: %q is English word for word: translate it", code, id)
					}
				}
			}
			for id := range f {
				assert.Contains(t, en, id, "%s.toml has %q, which en.toml has not: a typo, or a message no longer used", code, id)
			}
		})
	}
}

// TestPluralForms: each plural message has, in each language, a form for
// every CLDR plural category that a count from 0 to 10,000 falls in.
func TestPluralForms(t *testing.T) {
	names := map[plural.Form]string{plural.Zero: "zero", plural.One: "one", plural.Two: "two", plural.Few: "few", plural.Many: "many", plural.Other: "other"}
	for code, f := range readFiles(t) {
		tag := language.MustParse(code)
		need := map[string]bool{}
		for n := range 10001 {
			need[names[plural.Cardinal.MatchPlural(tag, n, 0, 0, 0, 0)]] = true
		}
		for id, m := range f {
			if !isPlural(m) {
				continue
			}
			have := forms(m)
			for form := range need {
				assert.Contains(t, have, form, "%s: %q needs its %s form", code, id, form)
			}
		}
	}
}

func TestPlural(t *testing.T) {
	for _, tc := range []struct {
		lang       i18n.Lang
		zero, one  string
		two, large string
	}{
		{i18n.English, "0 points", "1 point", "2 points", "1,000 points"},
		{i18n.French, "0 point", "1 point", "2 points", "1\u00a0000 points"},
		{i18n.Spanish, "0 puntos", "1 punto", "2 puntos", "1.000 puntos"},
		{i18n.German, "0 Punkte", "1 Punkt", "2 Punkte", "1.000 Punkte"},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			assert.Equal(t, tc.zero, tc.lang.N("draw.points", 0))
			assert.Equal(t, tc.one, tc.lang.N("draw.points", 1))
			assert.Equal(t, tc.two, tc.lang.N("draw.points", 2))
			assert.Equal(t, tc.large, tc.lang.N("draw.points", 1000))
			assert.NotContains(t, tc.lang.N("draw.points", 2000000), "{{", "a million takes the other form where the file has no \"many\"")
			assert.Equal(t, tc.lang == i18n.French, tc.lang.One(0), "only French puts 0 in the singular")
			assert.True(t, tc.lang.One(1))
			assert.False(t, tc.lang.One(2))
		})
	}
}

func TestFallback(t *testing.T) {
	assert.Equal(t, "Red", i18n.Lang("it").T("color.red"), "a language without a file speaks English")
	assert.Equal(t, "no.such.message", i18n.French.T("no.such.message"), "a message no file has shows its ID")
	assert.True(t, i18n.Has("color.red"))
	assert.False(t, i18n.Has("no.such.message"))
}

// TestCalls reads every Go file of the module and checks each call
// x.T("id", "Name", v, …) and x.N("id", n, "Name", v, …) (and the bot's
// refuse and refuseN, which take the same): the message id
// exists in English, is plural exactly for N, and the placeholders passed
// are the ones it has (N's {{.Count}} aside, which a form may leave out).
func TestCalls(t *testing.T) {
	en := readFiles(t)["en"]
	root := filepath.Join("..", "..")
	fset := token.NewFileSet()
	calls := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			// Lang's T and N, and the bot's refuse and refuseN that
			// take the same arguments.
			var fn string
			switch f := call.Fun.(type) {
			case *ast.SelectorExpr:
				fn = f.Sel.Name
			case *ast.Ident:
				fn = map[string]string{"refuse": "T", "refuseN": "N"}[f.Name]
			}
			if (fn != "T" && fn != "N") || len(call.Args) == 0 {
				return true
			}
			id, ok := stringLit(call.Args[0])
			if !ok {
				return true
			}
			calls++
			pos := fset.Position(call.Pos())
			m, ok := en[id]
			if !assert.True(t, ok, "%s: no message %q in en.toml", pos, id) {
				return true
			}
			args := call.Args[1:]
			if fn == "N" {
				assert.True(t, isPlural(m), "%s: %q is not plural: call T", pos, id)
				if len(args) > 0 {
					args = args[1:]
				}
			} else {
				assert.False(t, isPlural(m), "%s: %q is plural: call N with its count", pos, id)
			}
			if !assert.Zero(t, len(args)%2, "%s: %q: placeholders come in pairs of name and value", pos, id) {
				return true
			}
			var passed []string
			for i := 0; i < len(args); i += 2 {
				name, ok := stringLit(args[i])
				if assert.True(t, ok, "%s: %q: name placeholders with a string literal", pos, id) {
					passed = append(passed, name)
				}
			}
			slices.Sort(passed)
			want, _ := placeholders(m)
			if fn == "N" {
				want = slices.DeleteFunc(want, func(p string) bool { return p == "Count" }) // N fills it
			}
			if !slices.Equal(want, passed) {
				t.Errorf("%s: %q takes the placeholders %v, not %v", pos, id, want, passed)
			}
			return true
		})
		return nil
	})
	require.NoError(t, err)
	assert.Positive(t, calls, "found calls to check")
}

// stringLit returns the value of a string literal.
func stringLit(e ast.Expr) (string, bool) {
	lit, ok := e.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// optionMention finds an option in a mention of a command ("game:12").
var optionMention = regexp.MustCompile(`([\p{L}_-]+):`)

// optionNames returns the options of each subcommand of /kulami, by their
// names in file f.
func optionNames(f file) map[string]map[string]bool {
	subs := map[string]string{} // id → name
	for id, m := range f {
		if parts := strings.Split(id, "."); len(parts) == 3 && parts[0] == "command" && parts[2] == "name" {
			subs[parts[1]] = m.Other
		}
	}
	out := map[string]map[string]bool{}
	for id, m := range f {
		parts := strings.Split(id, ".")
		if parts[0] != "command" || parts[len(parts)-1] != "name" || (len(parts) != 4 && (len(parts) != 5 || parts[2] != "options")) {
			continue
		}
		if name, ok := subs[parts[1]]; ok {
			if out[name] == nil {
				out[name] = map[string]bool{}
			}
			out[name][m.Other] = true
		}
	}
	return out
}

// TestCommandMentions: a message that names a command ("/kulami board",
// "/kulami export game:", "/puzzle next") names it and its options as
// Discord shows them in the file's language, from command.<subcommand>.name,
// command.<subcommand>.<option>.name and command.puzzle.name of the same
// file, and names no command the bot does not have: a renamed command
// leaves no message behind that names its old name.
func TestCommandMentions(t *testing.T) {
	mention := regexp.MustCompile(`(?:^|[\s*(])/([\p{L}_]+)(?: ([\p{L}_]+))?((?: [\p{L}_-]+:[^\s*]*)*)`)
	for code, f := range readFiles(t) {
		names, puzzles := map[string]bool{}, map[string]bool{}
		for id, m := range f {
			switch parts := strings.Split(id, "."); {
			case len(parts) == 3 && parts[0] == "command" && parts[2] == "name":
				names[m.Other] = true
			case len(parts) == 4 && parts[0] == "command" && parts[1] == "puzzle" && parts[3] == "name":
				puzzles[m.Other] = true
			}
		}
		require.NotEmpty(t, names, code)
		require.NotEmpty(t, puzzles, code)
		puzzle := f["command.puzzle.name"].Other
		options := optionNames(f)
		for id, m := range f {
			if strings.HasPrefix(id, "command.") {
				continue
			}
			for _, s := range forms(m) {
				for _, c := range mention.FindAllStringSubmatch(s, -1) {
					switch c[1] {
					case "kulami":
						assert.True(t, c[2] == "" || names[c[2]], "%s: %q names /kulami %s, which is not a subcommand in %s.toml", code, id, c[2], code)
						for _, o := range optionMention.FindAllStringSubmatch(c[3], -1) {
							assert.True(t, options[c[2]][o[1]], "%s: %q names the option %s of /kulami %s, which it does not have in %s.toml", code, id, o[1], c[2], code)
						}
					case puzzle:
						assert.True(t, c[2] == "" || puzzles[c[2]], "%s: %q names /%s %s, which is not a subcommand in %s.toml", code, id, puzzle, c[2], code)
					default:
						t.Errorf("%s: %q names /%s, which is no command in %s.toml (/kulami, /%s)", code, id, c[1], code, puzzle)
					}
				}
			}
		}
	}
}
