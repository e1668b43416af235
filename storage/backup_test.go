package storage

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBackupWhileWriting(t *testing.T) {
	s := mustOpen(t, Options{})
	for i := range 5 {
		mustCreate(t, s, fmt.Sprintf("c%d", i), alice, bob)
	}

	var wg sync.WaitGroup
	var played error
	wg.Go(func() {
		for i := range 5 {
			for _, m := range []string{"D4", "D7"} {
				_, err := s.UpdateGame(t.Context(), fmt.Sprintf("c%d", i), func(g *Game) error {
					c, err := engine.ParseCell(m)
					if err != nil {
						return err
					}
					return play(g, c)
				})
				played = errors.Join(played, err)
			}
		}
	})
	var buf bytes.Buffer
	n, err := s.Backup(t.Context(), &buf)
	wg.Wait()
	require.NoError(t, err)
	require.NoError(t, played)
	assert.Equal(t, int64(buf.Len()), n)

	path := filepath.Join(t.TempDir(), "copy.db")
	require.NoError(t, os.WriteFile(path, buf.Bytes(), 0o600))
	c := mustOpenPath(t, path, Options{})
	require.NoError(t, checkFile(c))
	games := activeGames(t, c)
	assert.Len(t, games, 5, "the copy holds every game")
	for _, g := range games {
		assert.Contains(t, []int{0, 1, 2}, g.Ply(), "each game as one transaction left it")
	}
}

func TestBackupFile(t *testing.T) {
	s := mustOpen(t, Options{})
	mustCreate(t, s, "c", alice, bob)
	mustPlay(t, s, "c", "D4")
	dir := t.TempDir()
	path := filepath.Join(dir, "backup.db")
	require.NoError(t, os.WriteFile(path, []byte("yesterday's backup"), 0o600))

	require.NoError(t, s.BackupFile(t.Context(), path))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 1, "no temporary file is left behind")
	c := mustOpenPath(t, path, Options{})
	g, err := c.Game(t.Context(), "c")
	require.NoError(t, err)
	assert.Equal(t, 1, g.Ply())
}

func TestBackupFileRefuses(t *testing.T) {
	s := mustOpen(t, Options{})
	mustCreate(t, s, "c", alice, bob)
	link := filepath.Join(t.TempDir(), "link.db")
	require.NoError(t, os.Symlink(s.Path(), link))

	for _, path := range []string{s.Path(), link} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			err := s.BackupFile(t.Context(), path)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.ErrorContains(t, err, "that is the database itself; name another file")
			g, err := s.Game(t.Context(), "c")
			require.NoError(t, err, "the database is untouched")
			assert.Equal(t, alice, g.Player(engine.Red))
		})
	}

	t.Run("not a file", func(t *testing.T) {
		dir := t.TempDir()
		socket := filepath.Join(dir, "kulami.db.sock")
		ln, err := net.Listen("unix", socket)
		require.NoError(t, err)
		t.Cleanup(func() { ln.Close() })
		for _, c := range []struct{ path, want string }{
			{socket, "that is a socket (the bot's control socket is one), not a file"},
			{dir, "that is a directory, not a file"},
		} {
			err := s.BackupFile(t.Context(), c.path)
			assert.ErrorIs(t, err, ErrInvalid)
			assert.ErrorContains(t, err, c.want)
		}
		fi, err := os.Stat(socket)
		require.NoError(t, err)
		assert.Equal(t, os.ModeSocket, fi.Mode().Type(), "the socket is left as it was")
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		assert.Len(t, entries, 1, "nothing was written")
	})

	missing := filepath.Join(t.TempDir(), "no-such-dir", "backup.db")
	err := s.BackupFile(t.Context(), missing)
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.ErrorContains(t, err, missing)
}

// TestBackupFilePartials checks that a backup leaves no partial file: a
// failed one removes its own, and the next backup to a path removes those
// that backups killed midway (by SIGKILL, say) left, and no other file.
func TestBackupFilePartials(t *testing.T) {
	s := mustOpen(t, Options{})
	mustCreate(t, s, "c", alice, bob)
	dir := t.TempDir()
	path := filepath.Join(dir, "backup.db")
	killed := []string{".backup.db.partial-1234", ".backup.db.partial-5678"}
	kept := []string{".other.db.partial-1234", ".backup.db.1234.tmp", "backup.db.partial-1234", "notes.txt"}
	for _, name := range append(append([]string{}, killed...), kept...) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("half a database"), 0o600))
	}

	require.NoError(t, s.BackupFile(t.Context(), path))
	names := func() []string {
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		return names
	}
	assert.ElementsMatch(t, append([]string{"backup.db"}, kept...), names(), "the killed backups' partial files are gone, and only they")
	c := mustOpenPath(t, path, Options{})
	_, err := c.Game(t.Context(), "c")
	require.NoError(t, err, "the backup is complete")

	require.NoError(t, s.Close())
	assert.Error(t, s.BackupFile(t.Context(), filepath.Join(dir, "failed.db")), "a closed store cannot be backed up")
	assert.ElementsMatch(t, append([]string{"backup.db"}, kept...), names(), "the failed backup removed its partial file")
}
