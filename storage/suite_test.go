package storage_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/storagetest"
)

// TestSuite runs the conformance suite of every backend on bbolt files.
func TestSuite(t *testing.T) {
	storagetest.Run(t, func(tb testing.TB, opt storage.Options) storagetest.Store {
		s, err := storage.Open(filepath.Join(tb.TempDir(), "kulami.db"), opt)
		require.NoError(tb, err)
		tb.Cleanup(func() { s.Close() })
		return s
	})
}
