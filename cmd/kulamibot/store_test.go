package main

import (
	"bytes"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRunStoragePathErrors starts kulamibot with a storage.path it cannot
// use and checks that it stops with a message that says what is wrong and
// what to do, as for every other mistake of the configuration.
func TestRunStoragePathErrors(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "notes.db")
	require.NoError(t, os.WriteFile(junk, bytes.Repeat([]byte("x"), 5000), 0o600))
	locked := filepath.Join(dir, "locked")
	require.NoError(t, os.Mkdir(locked, 0o555))
	cases := []struct {
		name, path, want string
		asRoot           bool // root writes in any folder: the case cannot arise
	}{
		{name: "a file that is not a database", path: junk, asRoot: true,
			want: "kulamibot: open " + junk + ": the file is not a kulami database: it is a file of 5000 bytes that does not start as a database does; check storage.path, or name a file that does not exist to start a new database"},
		{name: "a folder", path: dir, asRoot: true,
			want: "kulamibot: open " + dir + ": it is a folder, not a file: set storage.path to a file in it, such as " + filepath.Join(dir, "kulami.db")},
		{name: "a folder the bot may not write", path: filepath.Join(locked, "kulami.db"),
			want: "kulamibot: open " + filepath.Join(locked, "kulami.db") + ": the bot's user (" + whoAmI() + ") may not create a file in the folder " + locked + ": give it write permission there"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if !tc.asRoot && os.Geteuid() == 0 {
				t.Skip("running as root, which may write in any folder; TestPathError checks the words for the system's EACCES")
			}
			e := maps.Clone(minimal)
			e["KULAMI_STORAGE_PATH"] = tc.path
			var out bytes.Buffer
			assert.Equal(t, 1, run(t.Context(), nil, env(e), &out, &out))
			assert.Contains(t, out.String(), tc.want)
		})
	}
}

// TestPathError checks the words for each error of the system that
// opening the database file meets, with the errors it gives (a
// *fs.PathError of the errno), for those a test cannot make as root or
// without a read-only file system.
func TestPathError(t *testing.T) {
	dir := t.TempDir()
	existing := filepath.Join(dir, "kulami.db")
	require.NoError(t, os.WriteFile(existing, nil, 0o600))
	missing := filepath.Join(dir, "new.db")
	for _, tc := range []struct {
		name string
		path string
		err  syscall.Errno
		want string
	}{
		{"no folder", filepath.Join(dir, "nope", "k.db"), syscall.ENOENT, "open " + filepath.Join(dir, "nope", "k.db") + ": the folder " + filepath.Join(dir, "nope") + " does not exist: create it, or set storage.path to a file in a folder that exists"},
		{"a folder the bot may not write", missing, syscall.EACCES, "open " + missing + ": the bot's user (" + whoAmI() + ") may not create a file in the folder " + dir + ": give it write permission there (chown or chmod the folder), or set storage.path to a file in a folder it may write"},
		{"a file the bot may not write", existing, syscall.EACCES, "open " + existing + ": the bot's user (" + whoAmI() + ") may not read and write this file: give it that permission (chown or chmod the file), or set storage.path to a file it may write"},
		{"not permitted", existing, syscall.EPERM, "may not read and write this file"},
		{"a read-only file system", missing, syscall.EROFS, "open " + missing + ": the folder " + dir + " is on a read-only file system: set storage.path to a file on one the bot may write"},
		{"a folder", dir, syscall.EISDIR, "open " + dir + ": it is a folder, not a file: set storage.path to a file in it, such as " + filepath.Join(dir, "kulami.db")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := pathError(tc.path, &fs.PathError{Op: "open", Path: tc.path, Err: tc.err})
			assert.ErrorContains(t, err, tc.want)
		})
	}
	other := &fs.PathError{Op: "open", Path: existing, Err: syscall.EIO}
	assert.Equal(t, error(other), pathError(existing, other), "any other error as the system says it")
}
