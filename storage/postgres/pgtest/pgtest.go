// Package pgtest gives a test a PostgreSQL database of its own: a fresh
// schema on the test server, dropped with everything in it when the test
// ends. The storage/postgres tests and the load test of several bot
// processes use it.
//
// The server is the one every developer machine and CI has
// (DefaultDSN), unless the environment variable KULAMI_TEST_POSTGRES names
// another. There is no skipping: a test that needs PostgreSQL and finds no
// server fails and says how to provide one.
package pgtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/require"
)

// DefaultDSN is the server the tests use unless KULAMI_TEST_POSTGRES
// names another.
const DefaultDSN = "postgres://127.0.0.1:5432/test?sslmode=disable"

// DSN returns the DSN of the test server.
func DSN() string {
	if dsn := os.Getenv("KULAMI_TEST_POSTGRES"); dsn != "" {
		return dsn
	}
	return DefaultDSN
}

// schemas numbers the schemas of the tests of this process.
var schemas atomic.Int64

// Schema creates a schema of its own for the test tb, dropped with
// everything in it when the test ends, and returns a DSN whose
// connections use it (as their search_path); several processes may use
// that DSN at once.
func Schema(tb testing.TB) string {
	tb.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, DSN())
	require.NoError(tb, err, "the PostgreSQL tests need a server: start one, or set KULAMI_TEST_POSTGRES to a DSN (see README)")
	defer conn.Close(ctx)
	name := fmt.Sprintf("kulami_test_%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9, schemas.Add(1))
	_, err = conn.Exec(ctx, "CREATE SCHEMA "+name)
	require.NoError(tb, err)
	tb.Cleanup(func() {
		conn, err := pgx.Connect(ctx, DSN())
		if err != nil {
			tb.Errorf("drop schema %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+name+" CASCADE"); err != nil {
			tb.Errorf("drop schema %s: %v", name, err)
		}
	})
	return WithParam(tb, DSN(), "search_path", name)
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
