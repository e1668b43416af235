package storage_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/storagetest"
)

// mustOpen opens a new database in a temporary directory, closed when the
// test ends.
func mustOpen(tb testing.TB, opt storage.Options) *storage.Store {
	tb.Helper()
	s, err := storage.Open(filepath.Join(tb.TempDir(), "kulami.db"), opt)
	require.NoError(tb, err)
	tb.Cleanup(func() { s.Close() })
	return s
}

// TestSuite runs the conformance suite of every backend on bbolt files.
func TestSuite(t *testing.T) {
	storagetest.Run(t, func(tb testing.TB, opt storage.Options) storagetest.Store { return mustOpen(tb, opt) })
}

// BenchmarkCommitMove commits one move per iteration, fsync on: see
// storagetest.BenchmarkCommitMove.
func BenchmarkCommitMove(b *testing.B) {
	storagetest.BenchmarkCommitMove(b, mustOpen(b, storage.Options{}))
}
