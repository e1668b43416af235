package postgres

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/kulami/kulami/storage"
)

// migrationFiles are the steps of the schema: migrations/NNNN_what.sql
// brings the database from version NNNN-1 to NNNN.
//
//go:embed migrations/*.sql
var embeddedMigrations embed.FS

// migrationFiles are where migrations reads the steps: the embedded files,
// or others in a test.
var migrationFiles fs.FS = embeddedMigrations

// migration is one step of the schema.
type migration struct {
	version int
	name    string
	sql     string
}

// migrations returns the steps of the schema in order, checking that they
// are numbered 1, 2, 3, … without a gap.
func migrations() ([]migration, error) {
	files, err := fs.Glob(migrationFiles, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []migration
	for i, f := range files { // fs.Glob sorts them
		name := path.Base(f)
		num, _, _ := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if err != nil || v != i+1 {
			return nil, fmt.Errorf("migration %s: want number %04d", name, i+1)
		}
		sql, err := fs.ReadFile(migrationFiles, f)
		if err != nil {
			return nil, err
		}
		out = append(out, migration{version: v, name: name, sql: string(sql)})
	}
	return out, nil
}

// SchemaVersion returns the schema version this build writes: the number
// of its migrations.
func SchemaVersion() int {
	m, _ := migrations()
	return len(m)
}

// migrate brings the database to the schema version of this build, one
// transaction per step, each recording its version in the table
// kulami_migrations in the same transaction (PostgreSQL's DDL is
// transactional: a failed step leaves the database as it was). Processes
// that start at once take turns: each step locks the row of version 0
// first, and skips a step that another process applied meanwhile. It
// refuses a database of a newer schema (storage.ErrSchemaTooNew).
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	steps, err := migrations()
	if err != nil {
		return err
	}
	// Two processes that create the table at once may both find it
	// missing; the second then fails on the catalog (a unique violation,
	// or a duplicate table or type), and finds it there on its next try.
	for range maxAttempts {
		if err = createMigrationsTable(ctx, pool); !retryable(err) && !duplicate(err) {
			break
		}
	}
	if err != nil {
		return fmt.Errorf("create the table of migrations: %w", err)
	}
	for {
		done, err := migrateStep(ctx, pool, steps)
		if err != nil || done {
			return err
		}
	}
}

// duplicate reports whether err says that an object to create exists.
func duplicate(err error) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && (pe.Code == "42P07" || pe.Code == "42710") // duplicate_table, duplicate_object
}

// createMigrationsTable creates the table of migrations, if missing, with
// its row 0, which migrateStep locks.
func createMigrationsTable(ctx context.Context, pool *pgxpool.Pool) error {
	if _, err := pool.Exec(ctx, `CREATE TABLE IF NOT EXISTS kulami_migrations (
		version integer PRIMARY KEY,
		name    text NOT NULL,
		applied timestamptz NOT NULL DEFAULT now())`); err != nil {
		return err
	}
	_, err := pool.Exec(ctx, `INSERT INTO kulami_migrations (version, name) VALUES (0, 'lock') ON CONFLICT (version) DO NOTHING`)
	return err
}

// migrateStep applies the next step the database lacks, if any, and
// reports whether none was left.
func migrateStep(ctx context.Context, pool *pgxpool.Pool, steps []migration) (done bool, err error) {
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT version FROM kulami_migrations WHERE version = 0 FOR UPDATE`); err != nil {
			return err
		}
		var have int
		if err := tx.QueryRow(ctx, `SELECT max(version) FROM kulami_migrations`).Scan(&have); err != nil {
			return err
		}
		switch {
		case have > len(steps):
			return fmt.Errorf("%w: the database has schema version %d, this kulamibot reads versions up to %d; upgrade kulamibot to use it", storage.ErrSchemaTooNew, have, len(steps))
		case have == len(steps):
			done = true
			return nil
		}
		step := steps[have]
		if _, err := tx.Exec(ctx, step.sql); err != nil {
			return fmt.Errorf("migrate schema version %d to %d (%s): %w", have, step.version, step.name, err)
		}
		_, err := tx.Exec(ctx, `INSERT INTO kulami_migrations (version, name) VALUES ($1, $2)`, step.version, step.name)
		return err
	})
	return done, err
}
