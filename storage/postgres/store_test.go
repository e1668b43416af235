package postgres

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/rating"
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

// TestImportMany imports more records than a transaction sends at once
// (maxPending), as kulamibot migrate does with a large bbolt file, and
// finds every one.
func TestImportMany(t *testing.T) {
	s := mustOpen(t, storage.Options{})
	const n = 2*maxPending + 10
	counts, err := s.Import(t.Context(), func(_ context.Context, fn func(storage.Record) error) error {
		for i := range n {
			r := &storage.UserSettingsEntry{UserID: fmt.Sprint(1000 + i), Settings: storage.UserSettings{DMReminders: i > 0}}
			if err := fn(storage.UserSettingsRecords.Record(r)); err != nil {
				return err
			}
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, map[string]int{"user settings": n}, counts)
	first, err := s.UserSettings(t.Context(), "1000")
	require.NoError(t, err)
	last, err := s.UserSettings(t.Context(), fmt.Sprint(1000+n-1))
	require.NoError(t, err)
	assert.False(t, first.DMReminders)
	assert.True(t, last.DMReminders, "the last batch, sent with the COMMIT")

	// A conflict in an early batch fails the whole import.
	dst := mustOpen(t, storage.Options{})
	_, err = dst.Import(t.Context(), func(_ context.Context, fn func(storage.Record) error) error {
		for i := range n {
			r := &storage.Profile{GuildID: "1", UserID: fmt.Sprint(i % 10), Standing: rating.Standing{Name: "p"}}
			if err := fn(storage.ProfileRecords.Record(r)); err != nil {
				return err
			}
		}
		return nil
	})
	assert.ErrorContains(t, err, "duplicate key value")
	_, total, err := dst.Leaderboard(t.Context(), "1", storage.Human, 0, 10)
	require.NoError(t, err)
	assert.Zero(t, total, "nothing of a failed import is written")
}

// keepYear, if set, is the database (a DSN: its own database, created
// beforehand with createdb) where BenchmarkYear builds its data and
// leaves it; if it holds them already, BenchmarkYear reads them instead of
// building them again (run it with the flags it was built with).
var keepYear = flag.String("kulami.keep", "", "build the data of BenchmarkYear in this database (a DSN) and keep them")

// BenchmarkYear builds a database of the size the flags -kulami.finished,
// -kulami.running and -kulami.ladder ask for (storagetest.YearFromFlags:
// small by default) through Import and times the reads of
// storagetest.BenchmarkYear.
func BenchmarkYear(b *testing.B) {
	y := storagetest.YearFromFlags()
	var longest storagetest.Longest
	var s *Store
	if *keepYear == "" {
		s = mustOpen(b, storage.Options{Updated: longest.Updated})
	} else {
		var err error
		s, err = Open(*keepYear, storage.Options{Updated: longest.Updated})
		require.NoError(b, err)
		b.Cleanup(func() { s.Close() })
	}
	storagetest.FillYear(b, s, y)
	// What autovacuum does some time after a bulk load: statistics for the
	// planner, the visibility map for index-only scans.
	_, err := s.pool.Exec(b.Context(), `VACUUM ANALYZE active, finished, history, profiles, ladder_sizes, season_profiles, season_ladder_sizes, rank_bands`)
	require.NoError(b, err)
	storagetest.BenchmarkYear(b, s, y, &longest)
}

// TestCopyAcross copies a bbolt store into PostgreSQL and back
// (storagetest.CopyAcross), puzzles and all.
func TestCopyAcross(t *testing.T) {
	bolt := func(tb testing.TB, opt storage.Options) storagetest.Store {
		s, err := storage.Open(filepath.Join(tb.TempDir(), "kulami.db"), opt)
		require.NoError(tb, err)
		tb.Cleanup(func() { s.Close() })
		return s
	}
	storagetest.CopyAcross(t, bolt, func(tb testing.TB, opt storage.Options) storagetest.Store { return mustOpen(tb, opt) })
}
