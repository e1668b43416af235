package storage_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/storagetest"
)

// BenchmarkYear builds a database of the size the flags -kulami.finished,
// -kulami.running and -kulami.ladder ask for (storagetest.YearFromFlags:
// small by default) through Import, without fsync, then reopens it as the
// bot does and times the reads of storagetest.BenchmarkYear.
func BenchmarkYear(b *testing.B) {
	y := storagetest.YearFromFlags()
	path := filepath.Join(b.TempDir(), "year.db")
	fill, err := storage.Open(path, storage.Options{NoSync: true})
	require.NoError(b, err)
	storagetest.FillYear(b, fill, y)
	require.NoError(b, fill.Close())
	s, err := storage.Open(path, storage.Options{})
	require.NoError(b, err)
	b.Cleanup(func() { s.Close() })
	storagetest.BenchmarkYear(b, s, y)
}
