package pgtest

import (
	"context"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// DefaultDSN is the server the tests use, if one answers there, unless
// KULAMI_TEST_POSTGRES names another.
const DefaultDSN = "postgres://127.0.0.1:5432/test?sslmode=disable"

// howToRun is what a skipped test says: how to run the PostgreSQL tests.
const howToRun = "install PostgreSQL's binaries (apt-get install postgresql, or brew install postgresql) for the tests to start a server of their own, " +
	"or run one at " + DefaultDSN + ", or set KULAMI_TEST_POSTGRES to a server's DSN"

// binDirs are where PostgreSQL's binaries are when initdb is not on PATH:
// Debian's packages (newest version first), then Homebrew's.
var binDirs = []string{
	"/usr/lib/postgresql/*/bin",
	"/opt/homebrew/opt/postgresql@*/bin",
	"/opt/homebrew/opt/postgresql/bin",
	"/usr/local/opt/postgresql@*/bin",
	"/usr/local/opt/postgresql/bin",
}

// A choice is where the tests of a process find PostgreSQL: a server
// that runs (dsn), or the binaries to start one (bin), or neither (skip
// says why and how to run the tests).
type choice struct {
	dsn    string
	bin    string // the folder of initdb and pg_ctl
	asUser string // the user to run them as: "postgres" when root, else ""
	skip   string
}

// lookups are what choose looks at, as functions so that a test can
// answer for the system.
type lookups struct {
	getenv   func(string) string
	answers  func(dsn string) bool // a server answers at dsn
	lookPath func(file string) (string, error)
	glob     func(pattern string) ([]string, error)
	isRoot   bool
	hasUser  func(name string) bool
}

// systemLookups are the lookups of this machine.
func systemLookups() lookups {
	return lookups{
		getenv:   os.Getenv,
		answers:  answers,
		lookPath: exec.LookPath,
		glob:     filepath.Glob,
		isRoot:   os.Geteuid() == 0,
		hasUser: func(name string) bool {
			_, err := user.Lookup(name)
			return err == nil
		},
	}
}

// choose decides where the tests find PostgreSQL: the server that
// KULAMI_TEST_POSTGRES names; else the one at DefaultDSN if it answers;
// else a server of their own started from the binaries, if installed;
// else none.
func choose(l lookups) choice {
	if dsn := l.getenv("KULAMI_TEST_POSTGRES"); dsn != "" {
		return choice{dsn: dsn}
	}
	if l.answers(DefaultDSN) {
		return choice{dsn: DefaultDSN}
	}
	bin := findBin(l)
	if bin == "" {
		return choice{skip: "no PostgreSQL server at " + DefaultDSN + " and no PostgreSQL binaries (initdb, pg_ctl) on PATH or in " + strings.Join(binDirs, ", ")}
	}
	if !l.isRoot {
		return choice{bin: bin}
	}
	// PostgreSQL refuses to run as root: run it as the user that
	// Debian's and Homebrew's packages make for it.
	if !l.hasUser("postgres") {
		return choice{skip: "running as root, and there is no user postgres to run " + filepath.Join(bin, "initdb") + " as (PostgreSQL refuses root)"}
	}
	if _, err := l.lookPath("runuser"); err != nil {
		return choice{skip: "running as root, and there is no runuser to run " + filepath.Join(bin, "initdb") + " as the user postgres (PostgreSQL refuses root)"}
	}
	return choice{bin: bin, asUser: "postgres"}
}

// findBin returns the folder of initdb and pg_ctl: the one on PATH, else
// the first of binDirs that has both (the highest version of a pattern),
// else "".
func findBin(l lookups) string {
	if p, err := l.lookPath("initdb"); err == nil {
		if q, err := l.lookPath("pg_ctl"); err == nil && filepath.Dir(p) == filepath.Dir(q) {
			return filepath.Dir(p)
		}
	}
	for _, pattern := range binDirs {
		dirs, _ := l.glob(filepath.Join(pattern, "initdb"))
		slices.SortFunc(dirs, byVersion)
		for _, d := range slices.Backward(dirs) {
			dir := filepath.Dir(d)
			if both, _ := l.glob(filepath.Join(dir, "pg_ctl")); len(both) > 0 {
				return dir
			}
		}
	}
	return ""
}

// byVersion orders paths by the first number in them that differs, so
// that .../9/bin comes before .../15/bin; else as strings.
func byVersion(a, b string) int {
	na, nb := firstNumber(a), firstNumber(b)
	if na != nb {
		return na - nb
	}
	return strings.Compare(a, b)
}

// firstNumber returns the first whole number in s, or -1.
func firstNumber(s string) int {
	i := strings.IndexFunc(s, func(r rune) bool { return '0' <= r && r <= '9' })
	if i < 0 {
		return -1
	}
	j := i
	for j < len(s) && '0' <= s[j] && s[j] <= '9' {
		j++
	}
	n, _ := strconv.Atoi(s[i:j])
	return n
}

// answers reports whether a server answers at dsn within a few seconds.
func answers(dsn string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		return false
	}
	defer conn.Close(ctx)
	return conn.Ping(ctx) == nil
}
