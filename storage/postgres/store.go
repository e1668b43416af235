package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/kulami/kulami/storage"
)

// maxAttempts is how often Update runs a transaction that the database
// asks to retry (a serialization failure, a deadlock, or a row that a
// concurrent transaction inserted first) before it gives up.
const maxAttempts = 10

// Store is a kulami database on a PostgreSQL server: the PostgreSQL
// backend. Its methods other than NoteBoard and Close are storage.Core's.
// It is safe for concurrent use, and several processes may share one
// database.
type Store struct {
	*storage.Core
	pool *pgxpool.Pool
}

// Open connects to the database that dsn names (a URL such as
// postgres://user@host:5432/kulami, or key=value pairs; see pgx), applies
// the migrations it lacks (see Migrate) and returns the store. opt's
// Timeout bounds the connection and the migration (storage.DefaultTimeout
// if zero, then at least ten seconds), RatingPeriod, the defaults of
// settings and Updated count as for bbolt; NoSync does not apply. An unreachable
// server or a database of a newer kulamibot (storage.ErrSchemaTooNew) is
// an error that says what to do.
func Open(dsn string, opt storage.Options) (*Store, error) {
	if err := CheckDSN(dsn); err != nil {
		return nil, fmt.Errorf("open PostgreSQL: %w", err)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open PostgreSQL: %w", err)
	}
	timeout := max(opt.Timeout, 10*time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open PostgreSQL: %w", err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open %s: %w", Describe(dsn), err)
	}
	s := &Store{pool: pool}
	s.Core = storage.NewCore(backend{pool}, opt)
	return s, nil
}

// CheckDSN returns an error that says what is wrong with dsn, without
// repeating it (it may hold a password), if it cannot name a database.
func CheckDSN(dsn string) error {
	if _, err := pgxpool.ParseConfig(dsn); err != nil {
		// pgconn's message quotes the DSN with the password masked, as
		// well as it can tell it; keep only what follows the quote.
		msg := err.Error()
		if i := strings.LastIndex(msg, "`: "); i >= 0 {
			msg = msg[i+3:]
		}
		return fmt.Errorf("the DSN cannot be read (%s); write it as a URL, like postgres://user@host:5432/database?sslmode=disable", msg)
	}
	return nil
}

// Describe names the database of dsn for logs and messages, as in
// "PostgreSQL database kulami on db:5432 as kulami": never with its
// password.
func Describe(dsn string) string {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return "PostgreSQL database (the DSN cannot be read)"
	}
	c := cfg.ConnConfig
	return fmt.Sprintf("PostgreSQL database %s on %s:%d as %s", c.Database, c.Host, c.Port, c.User)
}

// Close closes the connections to the server. Methods called after
// Close fail.
func (s *Store) Close() error {
	s.pool.Close()
	return nil
}

// PoolStat returns the figures of the store's pool of connections (in
// use, idle, waits for one), for monitoring.
func (s *Store) PoolStat() *pgxpool.Stat { return s.pool.Stat() }

// backend runs the transactions of a Store.
type backend struct{ pool *pgxpool.Pool }

// View runs fn in a read-only transaction that sees one snapshot of the
// database (REPEATABLE READ), as a bbolt read transaction does.
func (b backend) View(ctx context.Context, fn func(storage.Tx) error) error {
	return b.run(ctx, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", false, func(t *tx) error { return fn(t) })
}

// Update runs fn in a read-write transaction (READ COMMITTED, with the
// rows it reads to change locked by SELECT … FOR UPDATE) and commits it,
// durably. It runs fn again, up to maxAttempts times, if the database
// refuses the transaction for a conflict with a concurrent one.
func (b backend) Update(ctx context.Context, fn func(storage.Tx) error) error {
	return b.update(ctx, func(t *tx) error { return fn(t) })
}

// Leases implements storage.Backend: the leases are rows of the table
// leases, which every process sharing the database sees, read and
// written in a transaction as Update runs it.
func (b backend) Leases(ctx context.Context, fn func(storage.LeaseTx) error) error {
	return b.update(ctx, func(t *tx) error { return fn(t) })
}

// update is Update for a function of the backend's own transaction.
func (b backend) update(ctx context.Context, fn func(*tx) error) error {
	var err error
	for range maxAttempts {
		err = b.run(ctx, "BEGIN ISOLATION LEVEL READ COMMITTED", true, fn)
		if !retryable(err) {
			return err
		}
	}
	return fmt.Errorf("gave up after %d attempts, each in conflict with another writer: %w", maxAttempts, err)
}

// run runs fn in one transaction begun by the statement begin, on a
// connection of its own, and commits it if fn returns nil. Every
// statement of the transaction, the ROLLBACK of a failed one included,
// runs with ctx: pgx cancels the statement it waits for when ctx is done,
// and the transaction then ends without a commit.
func (b backend) run(ctx context.Context, begin string, write bool, fn func(*tx) error) error {
	conn, err := b.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("connect: %w", err)
	}
	defer conn.Release()
	t := &tx{ctx: ctx, conn: conn, write: write, pending: &pgx.Batch{}}
	t.exec(begin)
	if err = fn(t); err == nil {
		t.exec("COMMIT")
		if err = t.send(t.take()); err == nil {
			return nil
		}
	}
	if t.begun {
		if _, rerr := conn.Exec(ctx, "ROLLBACK"); rerr != nil {
			conn.Conn().Close(ctx) // the pool drops a closed connection
		}
	}
	return err
}

// retryable reports whether err is the database's refusal of a
// transaction that may succeed if run again.
func retryable(err error) bool {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return false
	}
	switch pe.Code {
	case "40001", // serialization_failure
		"40P01", // deadlock_detected
		"23505": // unique_violation: a concurrent transaction inserted the row first
		return true
	}
	return false
}
