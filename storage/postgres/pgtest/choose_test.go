package pgtest

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// fakeSystem is a machine for choose: its environment, whether a server
// answers at DefaultDSN, its files and whether it runs the tests as root
// with a user postgres and runuser.
type fakeSystem struct {
	env      map[string]string
	answers  bool
	files    []string // programs, by path
	path     []string // the folders of PATH
	root     bool
	postgres bool // there is a user postgres
}

func (f fakeSystem) lookups() lookups {
	has := func(p string) bool { return slices.Contains(f.files, p) }
	return lookups{
		getenv:  func(k string) string { return f.env[k] },
		answers: func(dsn string) bool { return f.answers && dsn == DefaultDSN },
		lookPath: func(file string) (string, error) {
			for _, dir := range f.path {
				if p := filepath.Join(dir, file); has(p) {
					return p, nil
				}
			}
			return "", errors.New("not found")
		},
		glob: func(pattern string) ([]string, error) {
			var out []string
			for _, p := range f.files {
				if ok, _ := filepath.Match(pattern, p); ok {
					out = append(out, p)
				}
			}
			return out, nil
		},
		isRoot:  f.root,
		hasUser: func(name string) bool { return f.postgres && name == "postgres" },
	}
}

func TestChoose(t *testing.T) {
	debian := []string{
		"/usr/lib/postgresql/9/bin/initdb", "/usr/lib/postgresql/9/bin/pg_ctl",
		"/usr/lib/postgresql/15/bin/initdb", "/usr/lib/postgresql/15/bin/pg_ctl",
		"/usr/lib/postgresql/16/bin/initdb", // half installed
		"/usr/sbin/runuser",
	}
	onPath := []string{"/usr/local/bin/initdb", "/usr/local/bin/pg_ctl"}
	tests := []struct {
		name string
		sys  fakeSystem
		want choice
	}{
		{"KULAMI_TEST_POSTGRES, even with a server at the default address",
			fakeSystem{env: map[string]string{"KULAMI_TEST_POSTGRES": "postgres://db/x"}, answers: true, files: debian},
			choice{dsn: "postgres://db/x"}},
		{"the server at the default address, if it answers",
			fakeSystem{answers: true, files: debian},
			choice{dsn: DefaultDSN}},
		{"the binaries on PATH before Debian's",
			fakeSystem{files: append(onPath, debian...), path: []string{"/usr/local/bin"}},
			choice{bin: "/usr/local/bin"}},
		{"Debian's newest complete version",
			fakeSystem{files: debian, path: []string{"/usr/bin"}},
			choice{bin: "/usr/lib/postgresql/15/bin"}},
		{"Homebrew's",
			fakeSystem{files: []string{"/opt/homebrew/opt/postgresql@17/bin/initdb", "/opt/homebrew/opt/postgresql@17/bin/pg_ctl"}},
			choice{bin: "/opt/homebrew/opt/postgresql@17/bin"}},
		{"as root, run as postgres",
			fakeSystem{files: debian, path: []string{"/usr/sbin"}, root: true, postgres: true},
			choice{bin: "/usr/lib/postgresql/15/bin", asUser: "postgres"}},
		{"as root without a user postgres: skip",
			fakeSystem{files: debian, path: []string{"/usr/sbin"}, root: true},
			choice{skip: "running as root, and there is no user postgres to run /usr/lib/postgresql/15/bin/initdb as (PostgreSQL refuses root)"}},
		{"as root without runuser: skip",
			fakeSystem{files: debian, root: true, postgres: true},
			choice{skip: "running as root, and there is no runuser to run /usr/lib/postgresql/15/bin/initdb as the user postgres (PostgreSQL refuses root)"}},
		{"nothing: skip",
			fakeSystem{files: []string{"/usr/lib/postgresql/16/bin/initdb"}, path: []string{"/usr/bin"}},
			choice{skip: "no PostgreSQL server at " + DefaultDSN + " and no PostgreSQL binaries (initdb, pg_ctl) on PATH or in /usr/lib/postgresql/*/bin, /opt/homebrew/opt/postgresql@*/bin, /opt/homebrew/opt/postgresql/bin, /usr/local/opt/postgresql@*/bin, /usr/local/opt/postgresql/bin"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, choose(tt.sys.lookups()))
		})
	}
}
