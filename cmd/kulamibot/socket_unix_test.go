//go:build unix

package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/storage"
)

// TestControlSocketOwnerOnly checks that the control socket is owner-only
// from its creation, even under a umask that lets anyone in, and that the
// process's umask is left as it was.
func TestControlSocketOwnerOnly(t *testing.T) {
	old := syscall.Umask(0)
	t.Cleanup(func() { syscall.Umask(old) })
	store, err := storage.Open(filepath.Join(t.TempDir(), "kulami.db"), storage.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { store.Close() })

	stop := serveControl(t.Context(), store, slog.New(slog.NewTextHandler(io.Discard, nil)))
	t.Cleanup(stop)
	fi, err := os.Stat(controlPath(store.Path()))
	require.NoError(t, err)
	assert.Equal(t, os.ModeSocket, fi.Mode().Type())
	assert.Zero(t, fi.Mode().Perm()&0o077, "mode %v: nobody but the owner may connect", fi.Mode().Perm())
	assert.Equal(t, 0, syscall.Umask(0), "the umask is restored")
}

// TestBackupRefusesNonFiles checks that kulamibot backup refuses to write
// over the bot's control socket, or anything that is not a file, while the
// bot runs and while it is stopped, and that the socket still works after.
func TestBackupRefusesNonFiles(t *testing.T) {
	dc := discordtest.New(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "kulami.db")
	e := fakeEnv(dc, db, nil)
	backup := func(file string) (int, string) {
		var out bytes.Buffer
		code := run(context.Background(), []string{"backup", file}, e, &out, &out)
		return code, out.String()
	}
	refusals := []struct{ file, want string }{
		{controlPath(db), "is the bot's control socket, not a file"},
		{dir, "that is a directory, not a file"},
	}

	cancel, done, stderr := startBot(t, e)
	dc.WaitReady(t)
	for _, r := range refusals {
		code, out := backup(r.file)
		assert.Equal(t, 1, code, out)
		assert.Contains(t, out, r.want)
	}
	fi, err := os.Stat(controlPath(db))
	require.NoError(t, err)
	assert.Equal(t, os.ModeSocket, fi.Mode().Type(), "the control socket is still there")
	code, out := backup(filepath.Join(dir, "backup.db"))
	require.Equal(t, 0, code, out)
	assert.Contains(t, out, "taken by the running bot", "the control socket still works")

	cancel()
	waitExit(t, done, stderr.String)
	for _, r := range refusals {
		code, out := backup(r.file)
		assert.Equal(t, 1, code, out)
		assert.Contains(t, out, r.want)
	}
	_, err = os.Stat(controlPath(db))
	assert.ErrorIs(t, err, os.ErrNotExist, "no file was written where the next start puts its socket")
}
