package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/i18n"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// testNow is the clock of tests that need one fixed.
var testNow = time.Date(2026, 11, 22, 20, 30, 0, 0, time.UTC)

// outcome is what one run of kulami did.
type outcome struct {
	code           int
	stdout, stderr string
}

// transcript shows an outcome for a golden file.
func (o outcome) transcript(args []string) string {
	return fmt.Sprintf("$ kulami %s\nexit status %d\n-- stdout --\n%s-- stderr --\n%s", strings.Join(args, " "), o.code, o.stdout, o.stderr)
}

// mustRun runs kulami through run with args and stdin, as the process does.
func mustRun(tb testing.TB, stdin string, args ...string) outcome {
	tb.Helper()
	return mustRunCtx(tb, context.Background(), strings.NewReader(stdin), args...)
}

// mustRunCtx is mustRun with a context and any reader as stdin.
func mustRunCtx(tb testing.TB, ctx context.Context, stdin io.Reader, args ...string) outcome {
	tb.Helper()
	var stdout, stderr bytes.Buffer
	code := run(ctx, args, stdin, &stdout, &stderr, noEnv)
	return outcome{code, stdout.String(), stderr.String()}
}

// mustRunAt runs kulami with the clock fixed at testNow.
func mustRunAt(tb testing.TB, stdin string, args ...string) outcome {
	tb.Helper()
	var stdout, stderr bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &stdout, stderr: &stderr, now: func() time.Time { return testNow }}
	code := e.run(context.Background(), args)
	return outcome{code, stdout.String(), stderr.String()}
}

// golden compares got with testdata/name.golden, or rewrites the file
// with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test -update to create the golden file")
	assert.Equal(t, string(want), got, "differs from %s (go test -update rewrites it)", path)
}

// assertFailure checks that a run failed with status code, printed
// nothing on stdout and one line on stderr that names the command (or
// none, for cmd "") and contains every part of want.
func assertFailure(t *testing.T, o outcome, code int, cmd string, want ...string) {
	t.Helper()
	assert.Equal(t, code, o.code, "exit status; stderr: %s", o.stderr)
	assert.Empty(t, o.stdout, "stdout")
	assert.Equal(t, 1, strings.Count(o.stderr, "\n"), "stderr must be one line: %q", o.stderr)
	assert.True(t, strings.HasSuffix(o.stderr, "\n"), "stderr ends its line: %q", o.stderr)
	prefix := "kulami: "
	if cmd != "" {
		prefix = "kulami " + cmd + ": "
	}
	assert.True(t, strings.HasPrefix(o.stderr, prefix), "stderr names the command: %q", o.stderr)
	for _, w := range want {
		assert.Contains(t, o.stderr, w)
	}
}

func TestUsage(t *testing.T) {
	for _, args := range [][]string{nil, {"help"}, {"--help"}, {"-h"}} {
		t.Run(strings.Join(append([]string{"kulami"}, args...), " "), func(t *testing.T) {
			o := mustRun(t, "", args...)
			assert.Equal(t, statusOK, o.code)
			assert.Empty(t, o.stderr)
			for _, c := range commands {
				assert.Equal(t, 1, strings.Count(o.stdout, "  kulami "+c.name+" "), "one line for %s", c.name)
				assert.Contains(t, o.stdout, c.summary(i18n.English))
			}
			assert.Contains(t, o.stdout, "kulami help [COMMAND]")
		})
	}
	o := mustRun(t, "")
	golden(t, "usage", o.stdout)
}

func TestUsageOfCommands(t *testing.T) {
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			help := mustRun(t, "", "help", c.name)
			assert.Equal(t, statusOK, help.code)
			assert.Empty(t, help.stderr)
			assert.True(t, strings.HasPrefix(help.stdout, "Usage: kulami "+c.name+" "+c.synopsis(i18n.English)+"\n"), help.stdout)
			assert.Contains(t, help.stdout, c.doc(i18n.English))
			for _, flag := range []string{"-h", "--help"} {
				o := mustRun(t, "", c.name, flag)
				assert.Equal(t, help, o, "kulami %s %s is kulami help %s", c.name, flag, c.name)
			}
		})
	}
}

func TestCommandLineErrors(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.kul")
	require.NoError(t, os.WriteFile(existing, []byte("[Layout \"x\"]\n"), 0o644))
	tests := []struct {
		name string
		args []string
		code int
		cmd  string
		want []string
	}{
		{"unknown command", []string{"rplay"}, statusUsage, "", []string{`unknown command "rplay"`, "play, replay, layout", "kulami help"}},
		{"help for unknown command", []string{"help", "fly"}, statusUsage, "", []string{`unknown command "fly"`}},
		{"unknown flag", []string{"replay", "--jsn"}, statusUsage, "replay", []string{"-jsn", "kulami help replay"}},
		{"flag value for a bool", []string{"replay", "--json=maybe"}, statusUsage, "replay", []string{"maybe"}},
		{"two records", []string{"replay", "a.kul", "b.kul"}, statusUsage, "replay", []string{"one record", "a.kul b.kul"}},
		{"missing file", []string{"replay", filepath.Join(dir, "missing.kul")}, statusBadInput, "replay", []string{"missing.kul", "no such file"}},
		{"folder for a file", []string{"replay", dir}, statusBadInput, "replay", []string{"is a directory"}},
		{"unknown layout kind", []string{"layout", "hexagon"}, statusUsage, "layout", []string{`unknown layout "hexagon"`, "square, random or irregular"}},
		{"bad layout string", []string{"layout", "aab/aab"}, statusUsage, "layout", []string{"bad layout", "4 panels of 6 holes"}},
		{"two layouts", []string{"layout", "random", "irregular"}, statusUsage, "layout", []string{"one layout"}},
		{"seed for the square", []string{"layout", "square", "--seed", "4"}, statusUsage, "layout", []string{"--seed only applies", `"square"`}},
		{"negative seed", []string{"layout", "random", "--seed", "-1"}, statusUsage, "layout", []string{"whole number"}},
		{"seed not a number", []string{"layout", "irregular", "--seed=abc"}, statusUsage, "layout", []string{"whole number"}},
		{"seed missing", []string{"layout", "irregular", "--seed"}, statusUsage, "layout", []string{"needs an argument"}},
		{"unknown rules", []string{"play", "--rules", "fast"}, statusUsage, "play", []string{"--rules", `"fast"`, "basic, area, lines or full"}},
		{"unknown colour", []string{"play", "--first", "green"}, statusUsage, "play", []string{"--first", `"green"`, "red or black"}},
		{"argument to play", []string{"play", "d4"}, statusUsage, "play", []string{"only flags", `"d4"`}},
		{"bad layout for play", []string{"play", "--layout", "squar"}, statusUsage, "play", []string{`unknown layout "squar"`}},
		{"seed for a layout string", []string{"play", "--layout", "aabccdee/aabccdee/aabfffee/ghhiijjk/ghhiijjk/llmmmnoo/llpqqnoo/llpqqnoo", "--seed", "1"}, statusUsage, "play", []string{"--seed only applies"}},
		{"record exists", []string{"play", "--record", existing}, statusUsage, "play", []string{"already exists", "new name"}},
		{"record folder missing", []string{"play", "--record", filepath.Join(dir, "no", "game.kul")}, statusUsage, "play", []string{"no such file"}},
		{"record folder is a file", []string{"play", "--record", filepath.Join(existing, "game.kul")}, statusUsage, "play", []string{"not a directory"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := mustRun(t, "d4\n", tt.args...)
			assertFailure(t, o, tt.code, tt.cmd, tt.want...)
		})
	}
}

func TestParseFlagsAnywhere(t *testing.T) {
	tests := []struct {
		args []string
		rest []string
		json bool
	}{
		{nil, nil, false},
		{[]string{"a.kul"}, []string{"a.kul"}, false},
		{[]string{"--json", "a.kul"}, []string{"a.kul"}, true},
		{[]string{"a.kul", "--json"}, []string{"a.kul"}, true},
		{[]string{"a.kul", "-json", "b.kul"}, []string{"a.kul", "b.kul"}, true},
		{[]string{"-"}, []string{"-"}, false},
		{[]string{"--", "--json"}, []string{"--json"}, false},
		{[]string{"a.kul", "--", "-json"}, []string{"a.kul", "-json"}, false},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			fs := newFlags("test")
			asJSON := fs.Bool("json", false, "")
			rest, err := (&env{lang: i18n.English}).parse(fs, tt.args)
			require.NoError(t, err)
			assert.Equal(t, tt.rest, rest)
			assert.Equal(t, tt.json, *asJSON)
		})
	}
}

func TestUseColor(t *testing.T) {
	devNull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer devNull.Close()
	regular, err := os.Create(filepath.Join(t.TempDir(), "out"))
	require.NoError(t, err)
	defer regular.Close()
	env := func(vars ...string) func(string) (string, bool) {
		return func(k string) (string, bool) {
			for i := 0; i+1 < len(vars); i += 2 {
				if vars[i] == k {
					return vars[i+1], true
				}
			}
			return "", false
		}
	}
	tests := []struct {
		name string
		w    io.Writer
		env  func(string) (string, bool)
		want bool
	}{
		// os.DevNull is a character device, as a terminal is.
		{"character device", devNull, env("TERM", "xterm"), true},
		{"NO_COLOR set", devNull, env("NO_COLOR", "1"), false},
		{"NO_COLOR empty", devNull, env("NO_COLOR", ""), false},
		{"dumb terminal", devNull, env("TERM", "dumb"), false},
		{"regular file", regular, env(), false},
		{"buffer", &bytes.Buffer{}, env(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, useColor(tt.w, tt.env))
		})
	}
}

func TestOneLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain words", "plain words"},
		{"two\nlines\r\n", "two lines"},
		{"tab\tand  spaces", "tab and spaces"},
		{"escape \x1b[31mred", "escape \ufffd[31mred"},
		{"bell\a", "bell\ufffd"},
		{"", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, oneLine(tt.in))
		})
	}
}

// noEnv is an environment without variables: kulami speaks English.
func noEnv(string) (string, bool) { return "", false }
