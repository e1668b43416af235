package i18n_test

import (
	"fmt"
	"go/ast"
	"go/types"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/tools/go/packages"
)

const i18nPath = "github.com/kulami/kulami/bot/i18n"

// dativeBefore finds, at the end of the text before a placeholder, a
// German preposition that governs the dative, maybe followed by an
// adverb of quantity ("bei etwa …"): a duration there is in the dative
// ("bei 2 Tagen", "in weniger als einer Sekunde").
var dativeBefore = regexp.MustCompile(`(?i)(?:^|[^\p{L}])(ab|aus|außer|bei|beim|binnen|bis zu|gegenüber|in|im|innerhalb von|mit|nach|samt|seit|von|vom|vor|zu|zum|zur)\s+(?:(?:etwa|rund|knapp|gut|fast|nur|noch|genau|höchstens|mindestens|über|unter)\s+)?$`)

// durationUse finds a placeholder and whether it asks for the dative.
var durationUse = regexp.MustCompile(`{{\s*\.([A-Z][A-Za-z]*)(\.Dative)?\s*}}`)

// caseErrors returns what is wrong in the German text s with the
// placeholders in durations, which hold a Duration: one after a dative
// preposition must be {{.X.Dative}}, and only one there.
func caseErrors(s string, durations []string) []string {
	var out []string
	for _, m := range durationUse.FindAllStringSubmatchIndex(s, -1) {
		name, dative := s[m[2]:m[3]], m[4] >= 0
		if !slices.Contains(durations, name) {
			continue
		}
		before := strings.TrimRight(s[:m[0]], "*_„“\"'")
		switch after := dativeBefore.FindStringSubmatch(before); {
		case after != nil && !dative:
			out = append(out, fmt.Sprintf("{{.%s}} follows %q: write {{.%s.Dative}}", name, after[1], name))
		case after == nil && dative:
			out = append(out, fmt.Sprintf("{{.%s.Dative}} follows no preposition that governs the dative: write {{.%s}}", name, name))
		}
	}
	return out
}

// TestDurationCase: every German message puts a duration after bei, mit,
// in, nach, seit… in the dative ({{.Left.Dative}}), and nowhere else; in
// any language, only a duration is asked for its dative. Which
// placeholders are durations is read from the module's code, type-checked:
// the ones its calls of T, N, refuse and refuseN fill with a Duration.
func TestDurationCase(t *testing.T) {
	durations := durationPlaceholders(t)
	require.NotEmpty(t, durations, "found the messages that take a duration")
	files := readFiles(t)
	checked := 0
	for id, names := range durations {
		m, ok := files["de"][id]
		if !assert.True(t, ok, "de.toml has %q", id) {
			continue
		}
		for form, s := range forms(m) {
			checked++
			for _, e := range caseErrors(s, names) {
				t.Errorf("de: %q (%s): %s: %q", id, form, e, s)
			}
		}
	}
	assert.Positive(t, checked)
	for code, f := range files {
		for id, m := range f {
			for _, s := range forms(m) {
				for _, u := range durationUse.FindAllStringSubmatch(s, -1) {
					if u[2] != "" && !slices.Contains(durations[id], u[1]) {
						t.Errorf("%s: %q asks {{.%s.Dative}}, but no call fills %s with a Duration", code, id, u[1], u[1])
					}
				}
			}
		}
	}
}

// TestDurationCaseIsCaught checks the check on the sentences of the
// review of December 2026 and on their corrections.
func TestDurationCaseIsCaught(t *testing.T) {
	for _, bad := range []string{
		"Die Uhr steht bei {{.Left}}.",
		"beginnt den nächsten Zug mit {{.Left}}",
		"aufgebraucht, in {{.Left}}.",
		"Die Uhr steht bei **{{.Left}}**.",
		"spart bis zu {{.Cap}} an",
		"seit etwa {{.Left}}",
		"noch {{.Left.Dative}}",
		"{{.Left.Dative}} pro Zug",
	} {
		assert.NotEmpty(t, caseErrors(bad, []string{"Left", "Cap"}), bad)
	}
	for _, good := range []string{
		"Die Uhr steht bei {{.Left.Dative}}.",
		"aufgebraucht, noch {{.Left}}.",
		"hat für den nächsten Zug {{.Left}}",
		"{{.Left}} pro Zug",
		"Die Uhr steht bei {{.Player}}.", // not a duration
		"Limit {{.Left}}",                // mit ends a word here, it is no preposition
	} {
		assert.Empty(t, caseErrors(good, []string{"Left"}), good)
	}
}

// durationPlaceholders type-checks the module's packages (but bot/i18n,
// which makes the Durations) and returns, by message id, the placeholders
// that its calls of T, N, refuse and refuseN fill with a Duration. A
// Duration may go into a variable, a parameter or a result of its type,
// or be written out with its String or Dative method, but not as text into
// a message; anywhere else (as an any into another function, into a []any
// of placeholders, to a call whose message id is not written out) the test
// cannot tell which message it fills, and fails there.
func durationPlaceholders(t *testing.T) map[string][]string {
	t.Helper()
	cfg := &packages.Config{
		Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo | packages.NeedImports,
		Dir:  filepath.Join("..", ".."),
	}
	pkgs, err := packages.Load(cfg, "./...")
	require.NoError(t, err)
	out := map[string][]string{}
	for _, p := range pkgs {
		require.Empty(t, p.Errors, p.PkgPath)
		if p.PkgPath == i18nPath {
			continue
		}
		for _, f := range p.Syntax {
			var stack []ast.Node
			ast.Inspect(f, func(n ast.Node) bool {
				if n == nil {
					stack = stack[:len(stack)-1]
					return true
				}
				if e, ok := n.(ast.Expr); ok && isDuration(p.TypesInfo, e) {
					if problem := durationFlow(p.TypesInfo, e, stack, out); problem != "" {
						t.Errorf("%s: %s", p.Fset.Position(e.Pos()), problem)
					}
				}
				stack = append(stack, n)
				return true
			})
		}
	}
	return out
}

// isDuration reports whether e is a value of type i18n.Duration.
func isDuration(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.IsValue() && isDurationType(tv.Type)
}

func isDurationType(t types.Type) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == i18nPath && n.Obj().Name() == "Duration"
}

// durationFlow looks at where the Duration e goes, its parents being
// stack: into a message call, which it records in out, or somewhere the
// test can follow; else it says what is wrong.
func durationFlow(info *types.Info, e ast.Expr, stack []ast.Node, out map[string][]string) string {
	lost := func(where string) string {
		return "a Duration goes " + where + ": the test cannot tell which message it fills; pass it to T, N, refuse or refuseN with the message id written out"
	}
	i := len(stack) - 1
	for i >= 0 {
		if _, ok := stack[i].(*ast.ParenExpr); !ok {
			break
		}
		i--
	}
	if i < 0 {
		return lost("nowhere")
	}
	switch p := stack[i].(type) {
	case *ast.SelectorExpr: // d.String(), d.Dative()
		if i >= 2 {
			if call, ok := stack[i-2].(*ast.CallExpr); ok {
				if arg := slices.IndexFunc(call.Args, func(a ast.Expr) bool { return unparen(a) == stack[i-1] }); arg >= 0 {
					if _, _, ok := messageArg(info, call, arg); ok {
						return "a Duration goes as text into a message, which then cannot ask for its dative: pass the Duration itself"
					}
				}
			}
		}
		return ""
	case *ast.CallExpr:
		arg := slices.IndexFunc(p.Args, func(a ast.Expr) bool { return unparen(a) == e })
		if arg < 0 {
			return lost("into a call")
		}
		if id, name, ok := messageArg(info, p, arg); ok {
			if !slices.Contains(out[id], name) {
				out[id] = append(out[id], name)
			}
			return ""
		}
		fun := info.Types[p.Fun]
		sig, ok := fun.Type.(*types.Signature)
		if fun.Type != nil {
			sig, ok = fun.Type.Underlying().(*types.Signature)
		}
		if !ok || !fun.IsValue() {
			return lost("into a conversion")
		}
		if param := paramType(sig, arg, p.Ellipsis.IsValid()); param != nil && isDurationType(param) {
			return ""
		}
		return lost("into an argument that is not a Duration")
	case *ast.AssignStmt:
		for j, r := range p.Rhs {
			if unparen(r) == e && len(p.Lhs) == len(p.Rhs) && isDurationType(typeOf(info, p.Lhs[j])) {
				return ""
			}
		}
		return lost("into a variable that is not a Duration")
	case *ast.ValueSpec:
		for j, v := range p.Values {
			if unparen(v) == e && j < len(p.Names) && isDurationType(info.Defs[p.Names[j]].Type()) {
				return ""
			}
		}
		return lost("into a variable that is not a Duration")
	case *ast.ReturnStmt:
		for k := i - 1; k >= 0; k-- {
			var ft *ast.FuncType
			switch f := stack[k].(type) {
			case *ast.FuncDecl:
				ft = f.Type
			case *ast.FuncLit:
				ft = f.Type
			default:
				continue
			}
			j := slices.IndexFunc(p.Results, func(r ast.Expr) bool { return unparen(r) == e })
			var results []types.Type
			for _, f := range ft.Results.List { // a return with a value has results
				for range max(1, len(f.Names)) {
					results = append(results, info.Types[f.Type].Type)
				}
			}
			if j >= 0 && j < len(results) && isDurationType(results[j]) {
				return ""
			}
			break
		}
		return lost("into a result that is not a Duration")
	}
	return lost(fmt.Sprintf("into a %T", stack[i]))
}

// messageArg reports whether the argument arg of call is the value of a
// placeholder of a message call (a Lang's T or N, the bot's refuse or
// refuseN) with its message id and the placeholder's name written out,
// and returns them.
func messageArg(info *types.Info, call *ast.CallExpr, arg int) (id, name string, ok bool) {
	var fn *types.Func
	switch f := call.Fun.(type) {
	case *ast.SelectorExpr:
		fn, _ = info.Uses[f.Sel].(*types.Func)
	case *ast.Ident:
		fn, _ = info.Uses[f].(*types.Func)
	}
	if fn == nil || call.Ellipsis.IsValid() || len(call.Args) == 0 {
		return "", "", false
	}
	first := 1 // the first placeholder's name
	switch recv := fn.Signature().Recv(); {
	case recv != nil && isNamed(recv.Type(), i18nPath, "Lang") && fn.Name() == "T":
	case recv != nil && isNamed(recv.Type(), i18nPath, "Lang") && fn.Name() == "N":
		first = 2
	case recv == nil && fn.Pkg().Path() == "github.com/kulami/kulami/bot" && fn.Name() == "refuse":
	case recv == nil && fn.Pkg().Path() == "github.com/kulami/kulami/bot" && fn.Name() == "refuseN":
		first = 2
	default:
		return "", "", false
	}
	id, okID := constString(info, call.Args[0])
	if arg <= first || (arg-first)%2 != 1 || !okID {
		return "", "", false
	}
	name, okName := constString(info, call.Args[arg-1])
	return id, name, okName
}

func isNamed(t types.Type, path, name string) bool {
	n, ok := t.(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == path && n.Obj().Name() == name
}

// constString returns the value of a constant string expression.
func constString(info *types.Info, e ast.Expr) (string, bool) {
	tv := info.Types[e]
	if tv.Value == nil {
		return "", false
	}
	s, err := strconv.Unquote(tv.Value.ExactString())
	return s, err == nil
}

// paramType returns the type of the parameter that takes argument arg
// of a call of sig.
func paramType(sig *types.Signature, arg int, spread bool) types.Type {
	params := sig.Params()
	switch {
	case sig.Variadic() && arg >= params.Len()-1 && !spread:
		return params.At(params.Len() - 1).Type().(*types.Slice).Elem()
	case arg < params.Len():
		return params.At(arg).Type()
	}
	return nil
}

// typeOf returns the type of the left-hand side e of an assignment.
func typeOf(info *types.Info, e ast.Expr) types.Type {
	if id, ok := e.(*ast.Ident); ok {
		if obj := info.Defs[id]; obj != nil {
			return obj.Type()
		}
		if obj := info.Uses[id]; obj != nil {
			return obj.Type()
		}
	}
	if tv, ok := info.Types[e]; ok {
		return tv.Type
	}
	return types.Typ[types.Invalid]
}

func unparen(e ast.Expr) ast.Expr {
	for {
		p, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = p.X
	}
}
