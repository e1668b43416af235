package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/user"
	"path/filepath"
	"syscall"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/linkedroles"
	"github.com/kulami/kulami/bot/metrics"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
)

// Store is what kulamibot needs of a database: the bot's store, which
// migrate also copies, counted for the metrics, closed at the end.
type Store interface {
	bot.Store
	linkedroles.Store
	metrics.GameCounter
	storage.Exporter
	Import(ctx context.Context, records func(ctx context.Context, fn func(storage.Record) error) error) (map[string]int, error)
	Close() error
}

// Both backends are a Store, and so a bot.Store: checked when kulamibot
// compiles, the one package that imports the bot and the backends.
var (
	_ Store = (*storage.Store)(nil)
	_ Store = (*postgres.Store)(nil)
)

// openStore opens the database that c names, with the options opt; a
// PostgreSQL store logs to log while it waits for its server, a bbolt
// file the progress of its schema upgrade.
func openStore(c StorageConfig, opt storage.Options, log *slog.Logger) (Store, error) {
	if c.Backend == "postgres" {
		s, err := postgres.OpenConfig(c.DSN, opt, c.pgConfig(log))
		if err != nil {
			return nil, err
		}
		return s, nil
	}
	opt.Log = log // the progress of a schema upgrade
	s, err := storage.Open(c.Path, opt)
	if err != nil {
		return nil, pathError(c.Path, err)
	}
	return s, nil
}

// pathError words the error of opening the database file path for the
// reasons an operator meets, each with what to do: the folder is missing,
// the bot's user may not write the folder or the file, the file system is
// read-only, the path is a folder. Any other error is returned as it is
// (storage.Open words a file that is not a database, or is locked). The
// system's own words name the path twice and not the cause ("open
// /srv/k.db: open /srv/k.db: permission denied").
func pathError(path string, err error) error {
	dir := filepath.Dir(path)
	_, statErr := os.Stat(path)
	exists := statErr == nil
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// bbolt creates the file, so it is its folder that is missing.
		return fmt.Errorf("open %s: the folder %s does not exist: create it, or set storage.path to a file in a folder that exists", path, dir)
	case errors.Is(err, syscall.EISDIR):
		return fmt.Errorf("open %s: it is a folder, not a file: set storage.path to a file in it, such as %s", path, filepath.Join(path, "kulami.db"))
	case errors.Is(err, syscall.EROFS):
		return fmt.Errorf("open %s: the folder %s is on a read-only file system: set storage.path to a file on one the bot may write", path, dir)
	case errors.Is(err, fs.ErrPermission) && exists:
		return fmt.Errorf("open %s: the bot's user (%s) may not read and write this file: give it that permission (chown or chmod the file), or set storage.path to a file it may write", path, whoAmI())
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("open %s: the bot's user (%s) may not create a file in the folder %s: give it write permission there (chown or chmod the folder), or set storage.path to a file in a folder it may write", path, whoAmI(), dir)
	}
	return err
}

// whoAmI names the user the bot runs as, for a message about permissions.
func whoAmI() string {
	if u, err := user.Current(); err == nil {
		return fmt.Sprintf("%s, uid %s", u.Username, u.Uid)
	}
	return fmt.Sprintf("uid %d", os.Getuid())
}

// where names the database that c names, for logs and messages: never
// with the password a DSN may hold.
func (c StorageConfig) where() string {
	if c.Backend == "postgres" {
		return postgres.Describe(c.DSN)
	}
	return c.Path
}
