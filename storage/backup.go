package storage

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// Backup writes a consistent copy of the whole database to w while the
// store stays in use (writes go on during the copy; the copy is the
// database as it was when Backup began). It returns the number of bytes
// written. The copy is a database file that Open reads.
func (s *Store) Backup(ctx context.Context, w io.Writer) (int64, error) {
	if err := begin(ctx); err != nil {
		return 0, fmt.Errorf("backup of %s: %w", s.path, err)
	}
	var n int64
	err := s.db.View(func(tx *bolt.Tx) error {
		var err error
		n, err = tx.WriteTo(w)
		return err
	})
	if err != nil {
		return n, fmt.Errorf("backup of %s: %w", s.path, err)
	}
	return n, nil
}

// backups serializes BackupFile in the process, so that one backup never
// takes another's partial file for a stale one. Only the process that
// holds the database's lock backs it up, so the partial files of a target
// are all from one process.
var backups sync.Mutex

// partialPrefix starts the name of the partial file of a backup to a file
// named base, in the same directory: ".<base>.partial-<random>".
func partialPrefix(base string) string { return "." + base + ".partial-" }

// BackupFile writes a consistent copy of the database to the file at
// path, as Backup does. It writes a partial file in the same directory
// (".<name>.partial-*"), removed if the backup fails, and renames it, so
// path holds either its former content or a complete copy, never a
// partial one; an existing file at path is replaced. The partial files a
// backup killed midway left (by SIGKILL, say) are removed by the next
// backup to the same path. A path that names the database itself, or
// anything but a regular file (the bot's control socket, a directory), is
// refused (ErrInvalid).
func (s *Store) BackupFile(ctx context.Context, path string) (err error) {
	if target, err := os.Stat(path); err == nil {
		if live, err := os.Stat(s.path); err == nil && os.SameFile(live, target) {
			return fmt.Errorf("backup to %s: %w: that is the database itself; name another file", path, ErrInvalid)
		}
		if !target.Mode().IsRegular() {
			return fmt.Errorf("backup to %s: %w: that is %s, not a file; name a file to write", path, ErrInvalid, kind(target.Mode()))
		}
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	backups.Lock()
	defer backups.Unlock()
	removePartials(dir, base)
	f, err := os.CreateTemp(dir, partialPrefix(base)+"*")
	if err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err := s.Backup(ctx, f); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		return fmt.Errorf("backup to %s: %w", path, err)
	}
	return syncDir(dir)
}

// removePartials removes the partial files that backups to base in dir
// killed midway left. It is best effort: a file it cannot remove only
// takes room.
func removePartials(dir, base string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), partialPrefix(base)) && e.Type().IsRegular() {
			os.Remove(filepath.Join(dir, e.Name()))
		}
	}
}

// kind names the type of a file that is not a regular file.
func kind(m os.FileMode) string {
	switch {
	case m&os.ModeSocket != 0:
		return "a socket (the bot's control socket is one)"
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
