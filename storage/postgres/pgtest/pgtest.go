// Package pgtest gives a test a PostgreSQL database of its own: a fresh
// schema on the tests' server, dropped with everything in it when the
// test ends. The tests of storage/postgres, cmd/kulamibot and the load
// test of several bot processes (bot/loadtest) use it.
//
// The server is chosen once per test process, at the first test that
// needs one:
//   - the one that the environment variable KULAMI_TEST_POSTGRES names;
//   - else the one at DefaultDSN, if it answers;
//   - else a server of the tests' own, started from PostgreSQL's binaries
//     (initdb and pg_ctl, on PATH or where Debian's and Homebrew's
//     packages put them) in a temporary folder, on a free port of
//     127.0.0.1, shared by the process's tests and stopped when they end.
//     PostgreSQL refuses to run as root: as root, it runs as the user
//     postgres (through runuser), which the packages make;
//   - else none: the tests skip, and the package's output ends with one
//     line saying why and how to run them (shown by go test -v). With the
//     environment variable KULAMI_REQUIRE_POSTGRES set (as CI does), they
//     fail instead.
//
// A package whose tests use pgtest has a TestMain that calls Main, which
// stops the server at the end:
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// A test process that dies before its end (a panic, go test's -timeout)
// leaves its server running, in a folder kulami-pgtest-* of the system's temporary
// folder: stop it with pg_ctl -D <folder>/data stop.
package pgtest

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

// The server of this process's tests, chosen once (see the package doc).
var (
	mainCalled atomic.Bool
	once       sync.Once
	chosen     choice
	started    *cluster // the server the tests started, if they did
	startErr   error
	skipped    atomic.Int64 // the tests that skipped for want of a server
)

// Main runs the tests of m, stops the server they started if they did,
// says why tests skipped if some did for want of a server, and exits; the
// functions after, if any, are called once the tests are over, before the
// exit. A package that uses pgtest calls it from its TestMain.
func Main(m *testing.M, after ...func()) {
	mainCalled.Store(true)
	code := m.Run()
	for _, f := range after {
		f()
	}
	if started != nil {
		if err := started.stop(); err != nil {
			fmt.Fprintf(os.Stderr, "pgtest: stop the tests' PostgreSQL server: %v\n", err)
			code = max(code, 1)
		}
	}
	if n := skipped.Load(); n > 0 {
		fmt.Printf("pgtest: PostgreSQL tests skipped (%d): %s; to run them, %s\n", n, chosen.skip, howToRun)
	}
	os.Exit(code)
}

// DSN returns the DSN of the tests' server. A test that calls it skips if
// there is none (or fails, if KULAMI_REQUIRE_POSTGRES is set), and fails
// if the server the tests started could not start.
func DSN(tb testing.TB) string {
	tb.Helper()
	if !mainCalled.Load() {
		tb.Fatal("pgtest: the package's tests need func TestMain(m *testing.M) { pgtest.Main(m) }, which stops the server they may start")
	}
	once.Do(func() {
		chosen = choose(systemLookups())
		if chosen.bin != "" {
			started, startErr = startCluster(chosen)
		}
	})
	switch {
	case chosen.skip != "" && os.Getenv("KULAMI_REQUIRE_POSTGRES") != "":
		tb.Fatalf("pgtest: KULAMI_REQUIRE_POSTGRES is set, and %s; %s", chosen.skip, howToRun)
	case chosen.skip != "":
		skipped.Add(1)
		tb.Skip("pgtest: no PostgreSQL server (the package's output ends with why)")
	case startErr != nil:
		tb.Fatal(startErr)
	case started != nil:
		return started.dsn
	}
	return chosen.dsn
}

// schemas numbers the schemas of the tests of this process.
var schemas atomic.Int64

// Schema creates a schema of its own for the test tb, dropped with
// everything in it when the test ends, and returns a DSN whose
// connections use it (as their search_path); several processes may use
// that DSN at once.
func Schema(tb testing.TB) string {
	tb.Helper()
	dsn := DSN(tb)
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	require.NoError(tb, err, "connect to the tests' PostgreSQL server")
	defer conn.Close(ctx)
	name := fmt.Sprintf("kulami_test_%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9, schemas.Add(1))
	_, err = conn.Exec(ctx, "CREATE SCHEMA "+name)
	require.NoError(tb, err)
	tb.Cleanup(func() {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			tb.Errorf("drop schema %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+name+" CASCADE"); err != nil {
			tb.Errorf("drop schema %s: %v", name, err)
		}
	})
	return WithParam(tb, dsn, "search_path", name)
}

// WithParam returns the URL dsn with the query parameter k set to v.
func WithParam(tb testing.TB, dsn, k, v string) string {
	tb.Helper()
	require.True(tb, strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://"), "KULAMI_TEST_POSTGRES must be a URL")
	u, err := url.Parse(dsn)
	require.NoError(tb, err)
	q := u.Query()
	q.Set(k, v)
	u.RawQuery = q.Encode()
	return u.String()
}

// Serve accepts the connections of l, each served by serve on a
// goroutine of its own, until the test ends: then it closes l and waits
// for every serve to return. For a test's proxy in front of the server.
func Serve(tb testing.TB, l net.Listener, serve func(net.Conn)) {
	var wg sync.WaitGroup
	tb.Cleanup(func() {
		l.Close()
		wg.Wait()
	})
	wg.Go(func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			wg.Go(func() { serve(c) })
		}
	})
}

// FreeAddr returns an address of the loopback where nothing listens, for
// a test of a server that cannot be reached.
func FreeAddr(tb testing.TB) string {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(tb, err)
	addr := l.Addr().String()
	require.NoError(tb, l.Close())
	return addr
}
