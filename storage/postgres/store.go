package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
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
	pool   *pgxpool.Pool
	pruned prunes // of the deliveries (see FirstDelivery)
}

// Open is OpenConfig with the default Config.
func Open(dsn string, opt storage.Options) (*Store, error) {
	return OpenConfig(dsn, opt, Config{})
}

// OpenConfig connects to the database that dsn names (a URL such as
// postgres://user@host:5432/kulami, or key=value pairs; see pgx), applies
// the migrations it lacks (see Migrate) and returns the store, which uses
// the server as c says. A server that cannot be reached yet (down,
// starting up, refusing connections) is waited for, up to c.ConnectWait,
// with a line logged per attempt; a refusal that waiting cannot cure (a
// wrong password, no such database) fails at once. opt's Timeout bounds
// each connection attempt and the migration (storage.DefaultTimeout if
// zero, then at least ten seconds), RatingPeriod, the defaults of
// settings and Updated count as for bbolt; NoSync does not apply. An unreachable
// server or a database of a newer kulamibot (storage.ErrSchemaTooNew) is
// an error that says what to do.
func OpenConfig(dsn string, opt storage.Options, c Config) (*Store, error) {
	if err := CheckDSN(dsn); err != nil {
		return nil, fmt.Errorf("open PostgreSQL: %w", err)
	}
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, fmt.Errorf("open PostgreSQL: %w", err)
	}
	c = c.withDefaults()
	c.apply(dsn, cfg)
	pool, err := pgxpool.NewWithConfig(context.Background(), cfg)
	if err != nil {
		return nil, fmt.Errorf("open PostgreSQL: %w", err)
	}
	timeout := max(opt.Timeout, 10*time.Second)
	if err := waitForServer(pool, timeout, c); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open %s: %w", Describe(dsn), err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open %s: %w", Describe(dsn), err)
	}
	b := backend{pool, c.AcquireTimeout}
	// Once, after migration 0004, as part of opening the database (not a
	// write of the store's, for opt.Updated): it reads every finished
	// game, so it gets a time of its own.
	rctx, rcancel := context.WithTimeout(context.Background(), max(timeout, rebuildTimeout))
	defer rcancel()
	migrating := opt
	migrating.Updated = nil
	log := opt.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if err := storage.NewCore(b, migrating).RebuildSeasons(rctx, seasonsMark, log); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open %s: %w", Describe(dsn), err)
	}
	s := &Store{pool: pool}
	s.Core = storage.NewCore(b, opt)
	return s, nil
}

// rebuildTimeout bounds the one-time filling of the seasons' ladders from
// the finished games after migration 0004 (see storage.Core.RebuildSeasons).
const rebuildTimeout = 10 * time.Minute

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
type backend struct {
	pool           *pgxpool.Pool
	acquireTimeout time.Duration // see Config.AcquireTimeout
}

// View runs fn in a read-only transaction that sees one snapshot of the
// database (REPEATABLE READ), as a bbolt read transaction does. It runs
// fn again after a transient failure (see transact).
func (b backend) View(ctx context.Context, fn func(storage.Tx) error) error {
	return b.transact(ctx, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", false, func(t *tx) error { return fn(t) })
}

// Update runs fn in a read-write transaction (READ COMMITTED, with the
// rows it reads to change locked by SELECT … FOR UPDATE) and commits it,
// durably. It runs fn again, up to maxAttempts times, if the database
// refuses the transaction for a conflict with a concurrent one, or after
// a transient failure (see transact).
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
	return b.transact(ctx, "BEGIN ISOLATION LEVEL READ COMMITTED", true, fn)
}

// transact runs fn in a transaction begun by begin (see run), up to
// maxAttempts times: again at once after a write's conflict with a
// concurrent one (retryable), and after a short pause that doubles each
// time, up to maxPause, after a transient failure that cannot have
// committed anything: a connection that could not be made or broke before
// the COMMIT was sent (see tx.lost), as when the server restarted.
func (b backend) transact(ctx context.Context, begin string, write bool, fn func(*tx) error) error {
	var err error
	var pause time.Duration // none before the first retry: a fresh connection may do
	for range maxAttempts {
		var lost bool
		lost, err = b.run(ctx, begin, write, fn)
		switch {
		case err == nil:
			return nil
		case write && retryable(err):
		case lost:
			if pause > 0 {
				select {
				case <-time.After(pause):
				case <-ctx.Done():
					return err
				}
			}
			pause = min(max(2*pause, 10*time.Millisecond), maxPause)
		default:
			return err
		}
	}
	return fmt.Errorf("gave up after %d attempts, each in conflict with another writer or on a lost connection: %w", maxAttempts, err)
}

// maxPause is the longest pause between two attempts of a transaction
// that failed on a lost connection.
const maxPause = 500 * time.Millisecond

// run runs fn in one transaction begun by the statement begin, on a
// connection of its own, and commits it if fn returns nil. Every
// statement of the transaction, the ROLLBACK of a failed one included,
// runs with ctx: pgx cancels the statement it waits for when ctx is done,
// and the transaction then ends without a commit. lost says that the
// transaction failed for a connection that could not be made or broke
// before anything was committed: it may succeed on another. Then the
// pool's other connections are dropped too (Reset), since they are most
// likely as dead: a restarted server ended them all.
func (b backend) run(ctx context.Context, begin string, write bool, fn func(*tx) error) (lost bool, err error) {
	conn, err := b.acquire(ctx)
	if err != nil {
		return ctx.Err() == nil && (pgconn.SafeToRetry(err) || unreachable(err)), fmt.Errorf("connect: %w", err)
	}
	defer conn.Release()
	t := &tx{ctx: ctx, conn: conn, write: write, pending: &pgx.Batch{}}
	t.exec(begin)
	if err = fn(t); err == nil {
		t.writeBands()
		t.committing = true
		t.exec("COMMIT")
		if err = t.send(t.take()); err == nil {
			return false, nil
		}
	}
	if t.begun && !conn.Conn().IsClosed() {
		if _, rerr := conn.Exec(ctx, "ROLLBACK"); rerr != nil {
			conn.Conn().Close(ctx) // the pool drops a closed connection
		}
	}
	if t.lost {
		b.pool.Reset()
	}
	return t.lost, locked(err)
}

// acquire returns a connection of the pool, waiting for one at most
// b.acquireTimeout: longer, it fails with storage.ErrBusy.
func (b backend) acquire(ctx context.Context) (*pgxpool.Conn, error) {
	actx, cancel := context.WithTimeout(ctx, b.acquireTimeout)
	defer cancel()
	conn, err := b.pool.Acquire(actx)
	if err != nil && ctx.Err() == nil && actx.Err() != nil {
		return nil, fmt.Errorf("%w: no connection to the database was free within %v (storage.pool_acquire_timeout)", storage.ErrBusy, b.acquireTimeout)
	}
	return conn, err
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

// locked wraps storage.ErrBusy around err if it is the server's
// lock_timeout: a row the transaction needs was locked by another for
// longer than Config.LockTimeout.
func locked(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "55P03" { // lock_not_available
		return fmt.Errorf("%w: a row it needs stayed locked by another transaction (storage.lock_timeout): %w", storage.ErrBusy, err)
	}
	return err
}
