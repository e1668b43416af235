package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
	"github.com/kulami/kulami/storage/postgres/pgtest"
	"github.com/kulami/kulami/storage/storagetest"
)

// mustBolt makes a bbolt database at path filled by storagetest.Fill.
func mustBolt(t *testing.T, path string) {
	t.Helper()
	s, err := storage.Open(path, storage.Options{})
	require.NoError(t, err)
	storagetest.Fill(t, s)
	require.NoError(t, s.Close())
}

// withConfig writes an empty configuration, since -config names a file
// that must exist.
func withConfig(t *testing.T) string { return writeFile(t, "config.toml", "") }

func TestMigrateBboltToPostgresAndBack(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "kulami.db")
	mustBolt(t, db)
	dsn := pgtest.Schema(t)

	var out bytes.Buffer
	code := run(t.Context(), []string{"-config", withConfig(t), "migrate", "--to", dsn},
		env(map[string]string{"KULAMI_STORAGE_PATH": db}), &out, &out)
	require.Equal(t, 0, code, out.String())
	assert.Contains(t, out.String(), "Copied "+db+" into PostgreSQL database test on")
	assert.Contains(t, out.String(), "compared every record")
	assert.Contains(t, out.String(), "     3 finished game\n")
	assert.Contains(t, out.String(), "     2 game\n")
	assert.Contains(t, out.String(), "     3 puzzle\n")
	assert.Contains(t, out.String(), "     2 puzzle attempt\n")
	assert.Contains(t, out.String(), `Set storage.backend = "postgres" and storage.dsn to use it.`)

	src, err := storage.Open(db, storage.Options{})
	require.NoError(t, err)
	defer src.Close()
	pg, err := postgres.Open(dsn, storage.Options{})
	require.NoError(t, err)
	defer pg.Close()
	_, err = storage.Compare(t.Context(), src, pg)
	assert.NoError(t, err, "the PostgreSQL copy holds every record")

	// And back into a new file.
	back := filepath.Join(dir, "back.db")
	out.Reset()
	code = run(t.Context(), []string{"-config", withConfig(t), "migrate", "--to", back},
		env(map[string]string{"KULAMI_STORAGE_BACKEND": "postgres", "KULAMI_STORAGE_DSN": dsn}), &out, &out)
	require.Equal(t, 0, code, out.String())
	assert.Contains(t, out.String(), "into "+back+" and compared every record")
	assert.Contains(t, out.String(), `Set storage.backend = "bbolt" and storage.path to use it.`)
	copied, err := storage.Open(back, storage.Options{})
	require.NoError(t, err)
	defer copied.Close()
	_, err = storage.Compare(t.Context(), src, copied)
	assert.NoError(t, err, "the round trip changes nothing")
}

func TestMigrateRefuses(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "kulami.db")
	mustBolt(t, db)
	full := pgtest.Schema(t)
	pg, err := postgres.Open(full, storage.Options{})
	require.NoError(t, err)
	storagetest.Fill(t, pg)
	require.NoError(t, pg.Close())
	taken := filepath.Join(dir, "taken.db")
	mustBolt(t, taken)
	notKulami := writeFile(t, "notes.txt", "not a database, but long enough to hold two meta pages of bbolt..."+string(make([]byte, 9000)))
	fromBolt := map[string]string{"KULAMI_STORAGE_PATH": db}
	fromPG := map[string]string{"KULAMI_STORAGE_BACKEND": "postgres", "KULAMI_STORAGE_DSN": full}

	tests := []struct {
		name string
		env  map[string]string
		args []string
		code int
		msg  string
	}{
		{"no target", fromBolt, nil, 2, "migrate needs the database to copy into, as in: kulamibot migrate --to postgres://"},
		{"unknown flag", fromBolt, []string{"--into", "x"}, 2, "migrate: flag provided but not defined: -into"},
		{"a PostgreSQL database that is not empty", fromBolt, []string{"--to", full}, 1, `the store is not empty (it holds the game "ai"); import into a new one`},
		{"a file that is not empty", fromPG, []string{"--to", taken}, 1, `the store is not empty (it holds the game "ai"); import into a new one`},
		{"a file that is not a database", fromPG, []string{"--to", notKulami}, 1, "the file is not a kulami database"},
		{"bbolt into a file", fromBolt, []string{"--to", filepath.Join(dir, "copy.db")}, 1, "is a bbolt file already; --to names the PostgreSQL database to copy it into"},
		{"PostgreSQL into PostgreSQL", fromPG, []string{"--to", full}, 1, "is on PostgreSQL already; --to names the bbolt file to copy it into"},
		{"a DSN that cannot be read", fromBolt, []string{"--to", "postgres://kulami:pw@db:port/kulami"}, 1, "migrate --to: storage.dsn: the DSN cannot be read (invalid port)"},
		{"no database to copy", map[string]string{"KULAMI_STORAGE_PATH": filepath.Join(dir, "none.db")}, []string{"--to", full}, 1, "there is no database at " + filepath.Join(dir, "none.db") + " (storage.path); nothing to copy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			code := run(t.Context(), append([]string{"-config", withConfig(t), "migrate"}, tt.args...), env(tt.env), &out, &out)
			assert.Equal(t, tt.code, code)
			assert.Contains(t, out.String(), tt.msg)
			assert.NotContains(t, out.String(), ":pw@", "a password is never shown")
		})
	}
	_, err = os.Stat(filepath.Join(dir, "copy.db"))
	assert.ErrorIs(t, err, os.ErrNotExist, "a refused migration leaves no file")
	s, err := storage.Open(taken, storage.Options{})
	require.NoError(t, err)
	defer s.Close()
	g, err := s.Game(t.Context(), "clock")
	require.NoError(t, err)
	assert.Equal(t, 1, g.Ply(), "a refused target is left as it was")
}

// TestMigrateProgress: migrate says how many records it has copied, every
// so many, and passes every record on.
func TestMigrateProgress(t *testing.T) {
	var out bytes.Buffer
	var passed []string
	records := func(_ context.Context, fn func(storage.Record) error) error {
		for i := range 5 {
			if err := fn(storage.UserSettingsRecords.Record(&storage.UserSettingsEntry{UserID: strconv.Itoa(i)})); err != nil {
				return err
			}
		}
		return nil
	}
	err := progress(records, &out, 2)(t.Context(), func(r storage.Record) error {
		_, key := r.Kind()
		passed = append(passed, key)
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, "Copied 2 records…\nCopied 4 records…\n", out.String())
	assert.Equal(t, []string{"0", "1", "2", "3", "4"}, passed)
}
