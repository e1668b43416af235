package storage

import (
	"bytes"
	"errors"
	"fmt"
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

	missing := filepath.Join(t.TempDir(), "no-such-dir", "backup.db")
	err := s.BackupFile(t.Context(), missing)
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.ErrorContains(t, err, missing)
}
