package postgres

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
)

// The defaults of Config.
const (
	// DefaultAcquireTimeout is how long a call waits for a free
	// connection: a queue of honest work (a burst of two hundred clicks on
	// a pool of eight) waits its turn, the bot deferring its answers, and
	// only a pool held that long (its connections stuck behind locked
	// rows) answers "busy".
	DefaultAcquireTimeout = 10 * time.Second
	// DefaultLockTimeout is how long a write waits for a row that another
	// transaction holds: a move waits for the one before it (a few
	// milliseconds), never for a stuck transaction.
	DefaultLockTimeout = 2 * time.Second
	// DefaultConnectWait is how long OpenConfig waits for a server that is
	// down or starting, as when the bot and the database start together.
	DefaultConnectWait = 30 * time.Second
)

// idleTime is how long a connection that nothing used stays open: the
// pool opens connections as the load needs them, up to PoolMax, and
// closes them again this long after a burst.
const idleTime = time.Minute

// Config is how a Store uses its server. The zero value takes the
// defaults.
type Config struct {
	// PoolMax is the most connections the store opens at once. 0: the
	// DSN's pool_max_conns if it has one, else DefaultPoolMax.
	PoolMax int
	// AcquireTimeout is how long a call waits for a free connection when
	// PoolMax are busy; then it fails with storage.ErrBusy. 0:
	// DefaultAcquireTimeout.
	AcquireTimeout time.Duration
	// LockTimeout is the server's lock_timeout on every connection: how
	// long a statement waits for a row that another transaction has
	// locked; then the call fails with storage.ErrBusy. PostgreSQL counts
	// it per lock, so a write queued behind another for the same row may
	// wait twice as long: for its place in the queue, then for the row.
	// It wins over a lock_timeout in the DSN. 0: DefaultLockTimeout.
	LockTimeout time.Duration
	// ConnectWait bounds how long OpenConfig waits for a server that it
	// cannot reach. 0: DefaultConnectWait.
	ConnectWait time.Duration
	// Logger is where OpenConfig says that it waits for the server; nil:
	// slog.Default().
	Logger *slog.Logger
}

// DefaultPoolMax returns the pool size a Store takes if neither Config
// nor the DSN sets one: four connections per core the Go runtime uses
// (GOMAXPROCS), from 8 to 32. A transaction spends its time waiting for
// round trips and, for a write, for the row of a game that another
// transaction is changing, not on a core: a few per core let a burst of
// interactions go on while some wait. At least 8, so that the waiters
// (each at most LockTimeout) leave connections for the other games; at
// most 32, so that several processes stay within the server's
// max_connections (100 by default).
func DefaultPoolMax() int {
	return min(max(8, 4*runtime.GOMAXPROCS(0)), 32)
}

// withDefaults returns c with its zero fields set to the defaults, but
// PoolMax (see apply).
func (c Config) withDefaults() Config {
	if c.AcquireTimeout <= 0 {
		c.AcquireTimeout = DefaultAcquireTimeout
	}
	if c.LockTimeout <= 0 {
		c.LockTimeout = DefaultLockTimeout
	}
	if c.ConnectWait <= 0 {
		c.ConnectWait = DefaultConnectWait
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// apply sets the pool of cfg, parsed from dsn, as c says: its size, how
// long its connections stay idle (unless the DSN says) and the
// lock_timeout of its sessions.
func (c Config) apply(dsn string, cfg *pgxpool.Config) {
	switch {
	case c.PoolMax > 0:
		cfg.MaxConns = int32(c.PoolMax)
	case !hasParam(dsn, "pool_max_conns"):
		cfg.MaxConns = int32(DefaultPoolMax())
	}
	if !hasParam(dsn, "pool_max_conn_idle_time") {
		cfg.MaxConnIdleTime = idleTime
	}
	cfg.ConnConfig.RuntimeParams["lock_timeout"] = strconv.FormatInt(max(c.LockTimeout.Milliseconds(), 1), 10)
}

// hasParam reports whether dsn, a URL or key=value pairs, sets key.
func hasParam(dsn, key string) bool {
	if u, err := url.Parse(dsn); err == nil && (u.Scheme == "postgres" || u.Scheme == "postgresql") {
		return u.Query().Has(key)
	}
	for _, f := range strings.Fields(dsn) {
		if k, _, ok := strings.Cut(f, "="); ok && k == key {
			return true
		}
	}
	return false
}

// waitForServer waits until the server of pool takes a connection, for
// at most c.ConnectWait (and one attempt's timeout), logging each attempt
// that fails; an error that waiting cannot cure (a wrong password, no
// such database) ends it at once.
func waitForServer(pool *pgxpool.Pool, timeout time.Duration, c Config) error {
	cc := pool.Config().ConnConfig
	addr := net.JoinHostPort(cc.Host, strconv.Itoa(int(cc.Port)))
	deadline := time.Now().Add(c.ConnectWait)
	hint := unreachableHint(addr)
	for pause := 100 * time.Millisecond; ; pause = min(2*pause, 2*time.Second) {
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		err := pool.Ping(ctx)
		cancel()
		switch {
		case err == nil:
			return nil
		case !unreachable(err):
			return err
		case !time.Now().Before(deadline):
			return fmt.Errorf("PostgreSQL at %s cannot be reached (waited %v): %s; %s", addr, c.ConnectWait, reason(err), unreachableHint(addr))
		}
		wait := min(pause, time.Until(deadline))
		msg := fmt.Sprintf("waiting for PostgreSQL at %s: %s", addr, reason(err))
		if hint != "" { // the first time only
			msg += "; " + hint
			hint = ""
		}
		c.Logger.Warn(msg, "retry_in", wait.Round(time.Millisecond))
		time.Sleep(wait)
	}
}

// unreachableHint says what to check when the server at addr cannot be
// reached.
func unreachableHint(addr string) string {
	return fmt.Sprintf("check that the server runs, that storage.dsn names its host and port (%s), and that no firewall blocks that port", addr)
}

// unreachable reports whether err says that the server could not be
// reached or did not take connections yet: what waiting may cure.
func unreachable(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "57P03", // cannot_connect_now: starting up or shutting down
			"57P01", // admin_shutdown
			"53300": // too_many_connections
			return true
		}
		return false
	}
	var ce *pgconn.ConnectError
	return errors.As(err, &ce)
}

// reason is err without pgx's preface of a failed connection, which
// repeats the user and database, and without the address, which the
// caller names: one line. pgx tries a server twice by default (with TLS,
// then without) and joins the two errors; the last is the one that tells.
func reason(err error) string {
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) && ce.Unwrap() != nil {
		err = ce.Unwrap()
	}
	lines := strings.Split(err.Error(), "\n")
	last := lines[len(lines)-1]
	if _, rest, ok := strings.Cut(last, "): "); ok && strings.Contains(last[:len(last)-len(rest)], " (") {
		return rest // "host:port (ip): " first
	}
	return last
}
