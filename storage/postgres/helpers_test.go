package postgres

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// patient is the Config of the tests' stores: a call waits for a
// connection or a locked row as long as it takes (the conformance suite's
// concurrent writers on a loaded machine waited over the defaults' 1 s and
// 2 s); only the tests of those timeouts set them.
var patient = Config{AcquireTimeout: hung, LockTimeout: hung}

// mustOpen opens a store in a new schema of its own, closed when the test
// ends.
func mustOpen(tb testing.TB, opt storage.Options) *Store {
	tb.Helper()
	s, err := OpenConfig(pgtest.Schema(tb), opt, patient)
	require.NoError(tb, err)
	tb.Cleanup(func() { s.Close() })
	return s
}

// hung bounds the tests' waits for the server (a context's deadline, a
// pool's acquire timeout): long enough for any machine, however loaded,
// it only stops a test whose server hangs.
const hung = time.Minute

// t0 is the time of the tests' games.
var t0 = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)

// mustCell parses a coordinate.
func mustCell(tb testing.TB, s string) engine.Cell {
	tb.Helper()
	c, err := engine.ParseCell(s)
	require.NoError(tb, err)
	return c
}
