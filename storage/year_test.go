package storage_test

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/storagetest"
)

// keepYear, if set, is where BenchmarkYear builds its database and leaves
// it (to time kulamibot migrate, or a restart, on it); if the file is
// there, BenchmarkYear reads it instead of building one (run it with the
// flags it was built with).
var keepYear = flag.String("kulami.keep", "", "build the database of BenchmarkYear in this file and keep it")

// BenchmarkYear builds a database of the size the flags -kulami.finished,
// -kulami.running and -kulami.ladder ask for (storagetest.YearFromFlags:
// small by default) through Import, without fsync, then reopens it as the
// bot does and times the reads of storagetest.BenchmarkYear.
func BenchmarkYear(b *testing.B) {
	y := storagetest.YearFromFlags()
	path := filepath.Join(b.TempDir(), "year.db")
	if *keepYear != "" {
		path = *keepYear
	}
	fill, err := storage.Open(path, storage.Options{NoSync: true})
	require.NoError(b, err)
	storagetest.FillYear(b, fill, y)
	require.NoError(b, fill.Close())
	var longest storagetest.Longest
	s, err := storage.Open(path, storage.Options{Updated: longest.Updated})
	require.NoError(b, err)
	b.Cleanup(func() { s.Close() })
	storagetest.BenchmarkYear(b, s, y, &longest)
}
