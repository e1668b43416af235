package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path/filepath"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/metrics"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
)

// Store is what kulamibot needs of a database: the bot's store, which
// migrate also copies, counted for the metrics, closed at the end.
type Store interface {
	bot.Store
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
	if errors.Is(err, fs.ErrNotExist) {
		// bbolt creates the file, so it is its folder that is missing
		// (the error would name the path twice, and not say so).
		return nil, fmt.Errorf("open %s: the folder %s does not exist: create it, or set storage.path to a file in a folder that exists", c.Path, filepath.Dir(c.Path))
	}
	if err != nil {
		return nil, err
	}
	return s, nil
}

// where names the database that c names, for logs and messages: never
// with the password a DSN may hold.
func (c StorageConfig) where() string {
	if c.Backend == "postgres" {
		return postgres.Describe(c.DSN)
	}
	return c.Path
}
