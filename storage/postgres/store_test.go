package postgres

import (
	"testing"

	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/storagetest"
)

// TestSuite runs the conformance suite of every backend on PostgreSQL.
func TestSuite(t *testing.T) {
	storagetest.Run(t, func(tb testing.TB, opt storage.Options) storagetest.Store { return mustOpen(tb, opt) })
}

// BenchmarkCommitMove commits one move per iteration on the test server,
// durably (the server's synchronous_commit, on by default): see
// storagetest.BenchmarkCommitMove.
func BenchmarkCommitMove(b *testing.B) {
	storagetest.BenchmarkCommitMove(b, mustOpen(b, storage.Options{}))
}
