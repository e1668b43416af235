package storage

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// schemaOf returns the schema version recorded in the file at path.
func schemaOf(tb testing.TB, path string) uint64 {
	tb.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	require.NoError(tb, err)
	defer db.Close()
	var v uint64
	require.NoError(tb, db.View(func(tx *bolt.Tx) error {
		v = binary.BigEndian.Uint64(tx.Bucket(bucketMeta).Get(keySchema))
		return nil
	}))
	return v
}

// setSchema records schema version v in the file at path.
func setSchema(tb testing.TB, path string, v uint64) {
	tb.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: time.Second})
	require.NoError(tb, err)
	defer db.Close()
	require.NoError(tb, db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keySchema, binary.BigEndian.AppendUint64(nil, v))
	}))
}

func TestOpenCreatesAndReopens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kulami.db")
	s, err := Open(path, Options{})
	require.NoError(t, err)
	g := mustCreate(t, s, "c", alice, bob)
	require.NoError(t, s.Close())
	assert.Equal(t, schemaVersion(), schemaOf(t, path), "a new file is at the current schema")

	s = mustOpenPath(t, path, Options{})
	got, err := s.Game(t.Context(), "c")
	require.NoError(t, err)
	assert.Equal(t, g.ID, got.ID)
	assert.Equal(t, path, s.Path())
}

func TestOpenLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kulami.db")
	mustOpenPath(t, path, Options{})

	start := time.Now()
	_, err := Open(path, Options{}) // the default timeout
	waited := time.Since(start)
	assert.ErrorIs(t, err, ErrLocked)
	assert.ErrorContains(t, err, path)
	assert.ErrorContains(t, err, "is another kulamibot running? stop it or use another file")
	assert.GreaterOrEqual(t, waited, DefaultTimeout/2, "Open waits for the other process (its default timeout, less bbolt's last retry of 50 ms)")
	assert.Less(t, waited, 30*DefaultTimeout, "then gives up (a bound no machine's load reaches)")
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kulami.db")
	s, err := Open(path, Options{})
	require.NoError(t, err)
	require.NoError(t, s.Close())
	newer := schemaVersion() + 3
	setSchema(t, path, newer)

	_, err = Open(path, Options{})
	assert.ErrorIs(t, err, ErrSchemaTooNew)
	assert.ErrorContains(t, err, fmt.Sprintf("the file has schema version %d, this kulamibot reads versions up to %d; upgrade kulamibot to open it", newer, schemaVersion()))
	assert.ErrorContains(t, err, path)
	assert.Equal(t, newer, schemaOf(t, path), "a refused file is left as it was")
}

func TestOpenRefusesOtherFiles(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "notes.txt")
	require.NoError(t, os.WriteFile(text, []byte("not a database, but long enough to hold two meta pages of bbolt..."+string(make([]byte, 9000))), 0o600))
	foreign := filepath.Join(dir, "other.db")
	db, err := bolt.Open(foreign, 0o600, nil)
	require.NoError(t, err)
	require.NoError(t, db.Update(func(tx *bolt.Tx) error {
		_, err := tx.CreateBucket([]byte("sessions"))
		return err
	}))
	require.NoError(t, db.Close())

	short := filepath.Join(dir, "short.db")
	require.NoError(t, os.WriteFile(short, bytes.Repeat([]byte("x"), 5000), 0o600))

	tests := []struct {
		name, path, msg string
	}{
		{"text file", text, "it is a file of 9066 bytes that does not start as a database does; check storage.path"},
		{"a file smaller than a database", short, "it is a file of 5000 bytes that does not start as a database does; check storage.path, or name a file that does not exist"},
		{"another program's bbolt file", foreign, `it holds data of another program (bucket "sessions")`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Open(tt.path, Options{})
			assert.ErrorIs(t, err, ErrNotKulami)
			assert.ErrorContains(t, err, tt.path)
			assert.ErrorContains(t, err, tt.msg)
		})
	}
}

func TestOpenMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no-such-dir", "kulami.db")
	_, err := Open(path, Options{})
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.ErrorContains(t, err, path)
}

// withMigration adds step to the migrations while the test runs.
func withMigration(t *testing.T, step func(*bolt.Tx) error) {
	t.Helper()
	saved := migrations
	migrations = append(migrations[:len(migrations):len(migrations)], step)
	t.Cleanup(func() { migrations = saved })
}

func TestMigrations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kulami.db")
	s, err := Open(path, Options{})
	require.NoError(t, err)
	g := mustCreate(t, s, "c", alice, bob)
	require.NoError(t, s.Close())

	// A step from the current schema to the next one, as a real migration
	// would be: it rewrites every game's player names.
	runs := 0
	withMigration(t, func(tx *bolt.Tx) error {
		runs++
		games := tx.Bucket(bucketGames)
		return games.ForEach(func(k, v []byte) error {
			var r gameRecord
			if err := decode(v, &r); err != nil {
				return err
			}
			r.Players[engine.Red].Name = "ALICE"
			return put(games, k, &r)
		})
	})

	s = mustOpenPath(t, path, Options{})
	got, err := s.Game(t.Context(), "c")
	require.NoError(t, err)
	assert.Equal(t, "ALICE", got.Player(engine.Red).Name)
	assert.Equal(t, g.ID, got.ID)
	require.NoError(t, s.Close())
	assert.Equal(t, schemaVersion(), schemaOf(t, path), "the file is at the new schema")

	mustOpenPath(t, path, Options{})
	assert.Equal(t, 1, runs, "a migrated file is not migrated again")
}

func TestFailedMigrationChangesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kulami.db")
	s, err := Open(path, Options{})
	require.NoError(t, err)
	mustCreate(t, s, "c", alice, bob)
	require.NoError(t, s.Close())

	have := schemaVersion()
	withMigration(t, func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bucketGames); err != nil {
			return err
		}
		return errors.New("disk says no")
	})
	_, err = Open(path, Options{})
	assert.ErrorContains(t, err, fmt.Sprintf("migrate schema version %d to %d: disk says no", have, have+1))

	assert.Equal(t, have, schemaOf(t, path))
	migrations = migrations[:len(migrations)-1]
	s = mustOpenPath(t, path, Options{})
	_, err = s.Game(t.Context(), "c")
	assert.NoError(t, err, "the game survives a failed migration")
}
