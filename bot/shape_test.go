package bot_test

import (
	"errors"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// maxMethods is the most methods a type of package bot keeps: past that,
// a type does several jobs, and a newcomer cannot see which.
const maxMethods = 30

// TestNoTypeOverMaxMethods type-checks package bot (its files outside
// tests) and fails for each type whose method set (of *T, so promoted
// methods of embedded fields count) has more than maxMethods methods.
func TestNoTypeOverMaxMethods(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	exports := exportData(t, root, "./bot")
	fset := token.NewFileSet()
	var files []*ast.File
	names, err := filepath.Glob(filepath.Join(root, "bot", "*.go"))
	require.NoError(t, err)
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		files = append(files, f)
	}
	conf := types.Config{Importer: importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fs.ErrNotExist
		}
		return os.Open(file)
	})}
	pkg, err := conf.Check("github.com/kulami/kulami/bot", fset, files, nil)
	require.NoError(t, err)
	counted := 0
	for _, name := range pkg.Scope().Names() {
		tn, ok := pkg.Scope().Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		n := types.NewMethodSet(types.NewPointer(tn.Type())).Len()
		assert.LessOrEqual(t, n, maxMethods, "type %s has %d methods: split it by job", name, n)
		counted++
	}
	assert.Greater(t, counted, 10, "the package's types were found")
}

// TestInnerPackagesImportNoAdapter: engine, storage and draw (and their
// tests) depend on neither the bot nor the commands: dependencies point
// inward.
func TestInnerPackagesImportNoAdapter(t *testing.T) {
	t.Parallel()
	out := goCmd(t, moduleRoot(t), "list", "-deps", "-test", "./engine/...", "./storage/...", "./draw/...")
	deps := strings.Fields(out)
	require.NotEmpty(t, deps)
	for _, p := range deps {
		for _, outer := range []string{"github.com/kulami/kulami/bot", "github.com/kulami/kulami/cmd"} {
			assert.False(t, p == outer || strings.HasPrefix(p, outer+"/"), "an inner package depends on %s", p)
		}
	}
}

// moduleRoot returns the directory of the module's go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	mod := strings.TrimSpace(goCmd(t, ".", "env", "GOMOD"))
	require.NotEmpty(t, mod, "the test runs inside the module")
	return filepath.Dir(mod)
}

// exportData returns the files of the compiled export data of pkg's
// dependencies, by import path (go list builds them, from its cache).
func exportData(t *testing.T, dir, pkg string) map[string]string {
	t.Helper()
	out := goCmd(t, dir, "list", "-deps", "-export", "-f", "{{.ImportPath}}={{.Export}}", pkg)
	m := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if path, file, ok := strings.Cut(line, "="); ok && file != "" {
			m[path] = file
		}
	}
	return m
}

// goCmd runs the go command (go test puts its own first on the PATH) in
// dir and returns its output.
func goCmd(t *testing.T, dir string, args ...string) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	require.NoError(t, err)
	cmd := exec.Command(goBin, args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, exit.Stderr)
	}
	require.NoError(t, err)
	return string(out)
}
