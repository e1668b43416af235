//go:build unix

package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

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
