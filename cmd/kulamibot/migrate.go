package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/kulami/kulami/storage"
)

// migrate copies the database that from names into the new database to,
// which must be empty: a PostgreSQL database (to is a postgres:// URL)
// for a bbolt one, a bbolt file for a PostgreSQL one. It then compares
// every record of the two and reports how many of each kind it copied.
// The bot must be stopped (a bbolt file is locked while it runs; a bot
// on PostgreSQL would change the database during the copy).
func migrate(ctx context.Context, from StorageConfig, to string, out io.Writer) (err error) {
	target := from // with its PostgreSQL settings (pool, timeouts)
	target.Backend, target.Path, target.DSN = "bbolt", to, ""
	if strings.HasPrefix(to, "postgres://") || strings.HasPrefix(to, "postgresql://") {
		target.Backend, target.Path, target.DSN = "postgres", "", to
	}
	if target.Backend == from.Backend {
		if from.Backend == "bbolt" {
			return fmt.Errorf("migrate: the database (%s) is a bbolt file already; --to names the PostgreSQL database to copy it into, as a URL like postgres://kulami@localhost:5432/kulami (to copy the file, use kulamibot backup FILE)", from.where())
		}
		return fmt.Errorf("migrate: the database (%s) is on PostgreSQL already; --to names the bbolt file to copy it into, like kulami.db (to copy it to another server, use pg_dump)", from.where())
	}
	if err := target.check(); err != nil {
		return fmt.Errorf("migrate --to: %w", err)
	}
	if from.Backend == "bbolt" {
		if _, err := os.Stat(from.Path); err != nil {
			return fmt.Errorf("migrate: there is no database at %s (storage.path); nothing to copy", from.Path)
		}
	}
	log := slog.New(slog.NewTextHandler(out, nil)) // says that it waits for a PostgreSQL server
	src, err := openStore(from, storage.Options{}, log)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	defer src.Close()
	_, statErr := os.Stat(to)
	created := target.Backend == "bbolt" && errors.Is(statErr, os.ErrNotExist)
	dst, err := openStore(target, storage.Options{}, log)
	if err != nil {
		return fmt.Errorf("migrate --to: %w", err)
	}
	defer func() {
		dst.Close()
		if err != nil && created {
			os.Remove(to) // a part of a copy: the file is ours, and of no use
		}
	}()

	copied, err := dst.Import(ctx, progress(src.Export, out, migrateProgress))
	if err != nil {
		if target.Backend == "postgres" {
			return fmt.Errorf("migrate into %s: %w (records are copied in batches: the database may hold a part of the copy; drop and create it again before you retry)", target.where(), err)
		}
		return fmt.Errorf("migrate into %s: %w", target.where(), err)
	}
	fmt.Fprintln(out, "Comparing every record of the two…")
	compared, err := storage.Compare(ctx, src, dst)
	if err != nil {
		return fmt.Errorf("migrate: the copy in %s differs from %s: %w", target.where(), from.where(), err)
	}
	if !maps.Equal(copied, compared) {
		return fmt.Errorf("migrate: copied %v, but compared %v", copied, compared)
	}
	fmt.Fprintf(out, "Copied %s into %s and compared every record:\n", from.where(), target.where())
	for _, kind := range slices.Sorted(maps.Keys(copied)) {
		fmt.Fprintf(out, "  %6d %s\n", copied[kind], kind)
	}
	fmt.Fprintf(out, "Set storage.backend = %q and storage.%s to use it.\n", target.Backend, map[string]string{"bbolt": "path", "postgres": "dsn"}[target.Backend])
	return nil
}

// migrateProgress is every how many records migrate says how far it is.
const migrateProgress = 100000

// progress returns records (an Export) that also prints to out, every
// every records, how many it has given.
func progress(records func(context.Context, func(storage.Record) error) error, out io.Writer, every int) func(context.Context, func(storage.Record) error) error {
	return func(ctx context.Context, fn func(storage.Record) error) error {
		n := 0
		return records(ctx, func(r storage.Record) error {
			if n++; n%every == 0 {
				fmt.Fprintf(out, "Copied %d records…\n", n)
			}
			return fn(r)
		})
	}
}
