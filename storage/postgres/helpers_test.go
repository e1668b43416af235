package postgres

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

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/storage"
)

// DefaultTestDSN is the server the tests use unless KULAMI_TEST_POSTGRES
// names another: the one every developer machine and CI has.
const DefaultTestDSN = "postgres://127.0.0.1:5432/test?sslmode=disable"

// testDSN returns the DSN of the test server.
func testDSN() string {
	if dsn := os.Getenv("KULAMI_TEST_POSTGRES"); dsn != "" {
		return dsn
	}
	return DefaultTestDSN
}

// schemas numbers the schemas of the tests of this process.
var schemas atomic.Int64

// mustSchema creates a schema of its own for the test tb, dropped with
// everything in it when the test ends, and returns a DSN whose
// connections use it.
func mustSchema(tb testing.TB) string {
	tb.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, testDSN())
	require.NoError(tb, err, "the PostgreSQL tests need a server: start one, or set KULAMI_TEST_POSTGRES to a DSN (see README)")
	defer conn.Close(ctx)
	name := fmt.Sprintf("kulami_test_%d_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9, schemas.Add(1))
	_, err = conn.Exec(ctx, "CREATE SCHEMA "+name)
	require.NoError(tb, err)
	tb.Cleanup(func() {
		conn, err := pgx.Connect(ctx, testDSN())
		if err != nil {
			tb.Errorf("drop schema %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+name+" CASCADE"); err != nil {
			tb.Errorf("drop schema %s: %v", name, err)
		}
	})
	return withParam(tb, testDSN(), "search_path", name)
}

// withParam returns the URL dsn with the query parameter k set to v.
func withParam(tb testing.TB, dsn, k, v string) string {
	tb.Helper()
	require.True(tb, strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://"), "KULAMI_TEST_POSTGRES must be a URL")
	u, err := url.Parse(dsn)
	require.NoError(tb, err)
	q := u.Query()
	q.Set(k, v)
	u.RawQuery = q.Encode()
	return u.String()
}

// mustOpen opens a store in a new schema of its own, closed when the test
// ends.
func mustOpen(tb testing.TB, opt storage.Options) *Store {
	tb.Helper()
	s, err := Open(mustSchema(tb), opt)
	require.NoError(tb, err)
	tb.Cleanup(func() { s.Close() })
	return s
}

// t0 is the time of the tests' games.
var t0 = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)

// mustCell parses a coordinate.
func mustCell(tb testing.TB, s string) engine.Cell {
	tb.Helper()
	c, err := engine.ParseCell(s)
	require.NoError(tb, err)
	return c
}
