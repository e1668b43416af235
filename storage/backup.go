package storage

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

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

// BackupFile writes a consistent copy of the database to the file at
// path, as Backup does. It writes a temporary file in the same directory
// and renames it, so path holds either its former content or a complete
// copy, never a partial one; an existing file at path is replaced. A path
// that names the database itself is refused (ErrInvalid).
func (s *Store) BackupFile(ctx context.Context, path string) (err error) {
	if live, err := os.Stat(s.path); err == nil {
		if target, err := os.Stat(path); err == nil && os.SameFile(live, target) {
			return fmt.Errorf("backup to %s: %w: that is the database itself; name another file", path, ErrInvalid)
		}
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".*.tmp")
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

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
