package postgres

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// mustOpenConfig opens a store as c says in a new schema of its own, its
// connections named app (application_name), closed when the test ends.
func mustOpenConfig(tb testing.TB, app string, c Config) *Store {
	tb.Helper()
	s, err := OpenConfig(pgtest.WithParam(tb, pgtest.Schema(tb), "application_name", app), storage.Options{}, c)
	require.NoError(tb, err)
	tb.Cleanup(func() { s.Close() })
	return s
}

// mustConnect returns a connection of its own to the tests' server, in
// the schema of s but named otherwise, closed when the test ends.
func mustConnect(tb testing.TB, s *Store) *pgx.Conn {
	tb.Helper()
	cfg := s.pool.Config().ConnConfig.Copy()
	cfg.RuntimeParams["application_name"] = "kulami_test_other"
	conn, err := pgx.ConnectConfig(tb.Context(), cfg)
	require.NoError(tb, err)
	tb.Cleanup(func() { conn.Close(context.Background()) })
	return conn
}

// mustCreateGame starts a game between alice and bob in channel.
func mustCreateGame(tb testing.TB, s *Store, channel string) {
	tb.Helper()
	players := [2]game.Player{{UserID: "100", Name: "alice"}, {UserID: "200", Name: "bob"}}
	g, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Full, Players: players}, t0)
	require.NoError(tb, err)
	require.NoError(tb, s.CreateGame(tb.Context(), &storage.Game{GuildID: "1", ChannelID: channel, Game: g}))
}

// TestLostConnectionsRetried: the server ends every connection of the
// store's pool between two calls (as a restart does); the next call, a
// read or a write, gets a new connection and succeeds.
func TestLostConnectionsRetried(t *testing.T) {
	const app = "kulami_test_lost"
	s := mustOpenConfig(t, app, Config{})
	admin := mustConnect(t, s)
	mustCreateGame(t, s, "c1")
	calls := []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"read", func(ctx context.Context) error { _, err := s.Game(ctx, "c1"); return err }},
		{"write", func(ctx context.Context) error {
			_, err := s.UpdateGame(ctx, "c1", func(g *storage.Game) error { return nil })
			return err
		}},
		{"settings", func(ctx context.Context) error {
			_, err := s.UpdateUserSettings(ctx, "100", func(u *storage.UserSettings) error {
				u.DMReminders = !u.DMReminders
				return nil
			})
			return err
		}},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			// Several connections idle in the pool, all of them ended.
			var wg sync.WaitGroup
			for range 4 {
				wg.Go(func() { assert.NoError(t, c.call(t.Context())) })
			}
			wg.Wait()
			var ended int
			require.NoError(t, admin.QueryRow(t.Context(), `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 5000))
				FROM pg_stat_activity WHERE application_name = $1`, app).Scan(&ended))
			require.Positive(t, ended)
			assert.NoError(t, c.call(t.Context()), "the call after the server ended %d connections", ended)
			assert.NoError(t, c.call(t.Context()))
		})
	}
}

// TestLockedGameDelaysItsCallsOnly: while another transaction holds a
// game's row, writes to that game wait for it, and meanwhile a read of it
// and a write to another game are served at once; a write that waits
// longer than the lock timeout fails with storage.ErrBusy. Nothing here
// is timed: the writes waiting are seen in pg_stat_activity, what is
// served at once is served while they still wait, and only PostgreSQL's
// lock timeout can end a wait with that error (the test's own deadline is
// a minute).
func TestLockedGameDelaysItsCallsOnly(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), hung)
	defer cancel()
	// lock locks the row of the game of channel locked from another
	// connection, until the test ends or the transaction is rolled back.
	lock := func(t *testing.T, s *Store) pgx.Tx {
		t.Helper()
		holder, err := mustConnect(t, s).Begin(ctx)
		require.NoError(t, err)
		t.Cleanup(func() { holder.Rollback(context.Background()) })
		_, err = holder.Exec(ctx, `SELECT 1 FROM active WHERE channel = 'locked' FOR UPDATE`)
		require.NoError(t, err)
		return holder
	}

	t.Run("others served while writes wait", func(t *testing.T) {
		s := mustOpenConfig(t, "kulami_test_locked", Config{PoolMax: 4, LockTimeout: hung})
		mustCreateGame(t, s, "locked")
		mustCreateGame(t, s, "free")
		watcher := mustConnect(t, s)
		holder := lock(t, s)

		var wg sync.WaitGroup
		for range 3 { // three of the four connections wait for the row
			wg.Go(func() {
				_, err := s.UpdateGame(ctx, "locked", func(g *storage.Game) error { return nil })
				assert.NoError(t, err, "served once the row is free")
			})
		}
		waiting := func() int {
			var n int
			require.NoError(t, watcher.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
				WHERE application_name = 'kulami_test_locked' AND wait_event_type = 'Lock'`).Scan(&n))
			return n
		}
		require.Eventually(t, func() bool { return waiting() == 3 }, hung, 5*time.Millisecond, "three writes wait for the locked row")
		_, err := s.UpdateGame(ctx, "free", func(g *storage.Game) error { return g.Play(engine.Red, 0, mustCell(t, "D4"), t0) })
		require.NoError(t, err)
		_, err = s.Game(ctx, "locked")
		require.NoError(t, err)
		assert.Equal(t, 3, waiting(), "the other game and a read of the locked one wait for nothing: served while the writes still wait")
		assert.Equal(t, int32(3), s.pool.Stat().AcquiredConns(), "the waiting writes still hold their connections")
		require.NoError(t, holder.Rollback(ctx))
		wg.Wait()
	})

	t.Run("a write fails after the lock timeout", func(t *testing.T) {
		s := mustOpenConfig(t, "kulami_test_locked_out", Config{PoolMax: 4, LockTimeout: 100 * time.Millisecond})
		mustCreateGame(t, s, "locked")
		lock(t, s)
		var wg sync.WaitGroup
		for range 3 { // PostgreSQL counts the timeout per lock: a write behind another waits for its place in the row's queue, then for the row
			wg.Go(func() {
				_, err := s.UpdateGame(ctx, "locked", func(g *storage.Game) error { return nil })
				assert.ErrorIs(t, err, storage.ErrBusy)
				assert.ErrorContains(t, err, "stayed locked by another transaction")
			})
		}
		wg.Wait()
	})
}

// TestAcquireTimeout: a call that finds no connection free within the
// acquire timeout fails with storage.ErrBusy instead of waiting on (the
// test's own deadline is a minute: only the acquire timeout can end the
// wait with that error).
func TestAcquireTimeout(t *testing.T) {
	const timeout = 200 * time.Millisecond
	s := mustOpenConfig(t, "kulami_test_acquire", Config{PoolMax: 1, AcquireTimeout: timeout})
	conn, err := s.pool.Acquire(t.Context()) // the pool's only connection
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(t.Context(), hung)
	defer cancel()
	_, err = s.Game(ctx, "c1")
	conn.Release()
	assert.ErrorIs(t, err, storage.ErrBusy)
	assert.ErrorContains(t, err, "no connection to the database was free within 200ms")
	_, err = s.Game(t.Context(), "c1")
	assert.ErrorIs(t, err, storage.ErrNotFound, "served once a connection is free")
}

// TestPoolConfig: the pool's size comes from Config, else from the DSN,
// else DefaultPoolMax; every session has the lock timeout.
func TestPoolConfig(t *testing.T) {
	dsn := pgtest.Schema(t)
	cases := []struct {
		name string
		dsn  string
		c    Config
		want int32
	}{
		{"default", dsn, Config{}, int32(DefaultPoolMax())},
		{"config", dsn, Config{PoolMax: 3}, 3},
		{"dsn", pgtest.WithParam(t, dsn, "pool_max_conns", "5"), Config{}, 5},
		{"config over dsn", pgtest.WithParam(t, dsn, "pool_max_conns", "5"), Config{PoolMax: 6}, 6},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := OpenConfig(c.dsn, storage.Options{}, c.c)
			require.NoError(t, err)
			defer s.Close()
			assert.Equal(t, c.want, s.pool.Config().MaxConns)
			var lt string
			require.NoError(t, s.pool.QueryRow(t.Context(), `SHOW lock_timeout`).Scan(&lt))
			assert.Equal(t, "2s", lt)
		})
	}
	assert.True(t, hasParam("host=db pool_max_conns=3", "pool_max_conns"))
	assert.False(t, hasParam("host=db application_name=pool_max_conns", "pool_max_conns"))
}

// logWriter keeps what a logger writes, and calls first (if set) at its
// first line.
type logWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	first func()
}

func (w *logWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.buf.Len() == 0 && w.first != nil {
		w.first()
	}
	return w.buf.Write(p)
}

func (w *logWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}

// withHost returns the URL dsn with its host:port replaced by addr.
func withHost(t *testing.T, dsn, addr string) string {
	t.Helper()
	u, err := url.Parse(dsn)
	require.NoError(t, err)
	u.Host = addr
	return u.String()
}

// proxy forwards the connections to addr to the server at to, until
// the test ends.
func proxy(t *testing.T, addr, to string) {
	l, err := net.Listen("tcp", addr)
	require.NoError(t, err)
	pgtest.Serve(t, l, func(c net.Conn) {
		defer c.Close()
		s, err := net.Dial("tcp", to)
		if err != nil {
			return
		}
		defer s.Close()
		go io.Copy(s, c)
		io.Copy(c, s)
	})
}

// TestOpenWaitsForServer: Open waits for a server it cannot reach, saying
// so once per attempt, up to ConnectWait; it fails at once when waiting
// cannot help.
func TestOpenWaitsForServer(t *testing.T) {
	t.Run("never there", func(t *testing.T) {
		addr := pgtest.FreeAddr(t)
		var log logWriter
		start := time.Now()
		_, err := OpenConfig("postgres://kulami@"+addr+"/kulami?sslmode=disable", storage.Options{},
			Config{ConnectWait: 300 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(&log, nil))})
		assert.ErrorContains(t, err, "PostgreSQL at "+addr+" cannot be reached (waited 300ms)")
		assert.ErrorContains(t, err, "connection refused")
		assert.Less(t, time.Since(start), 20*time.Second, "its ConnectWait, not the default's 30 s (a bound no machine's load reaches)")
		assert.Contains(t, log.String(), "waiting for PostgreSQL at "+addr+": ")
	})
	t.Run("one line, one hint", func(t *testing.T) {
		// Without sslmode, pgx tries twice (TLS, then not) and reports
		// both; the message says it once, and the hint on where to look
		// comes with the first warning.
		addr := pgtest.FreeAddr(t)
		var log logWriter
		_, err := OpenConfig("postgres://kulami@"+addr+"/kulami", storage.Options{},
			Config{ConnectWait: 300 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(&log, nil))})
		require.Error(t, err)
		assert.NotContains(t, err.Error(), "\n")
		assert.Equal(t, 1, strings.Count(err.Error(), "connection refused"), err.Error())
		assert.Contains(t, err.Error(), "that storage.dsn names its host and port ("+addr+"), and that no firewall blocks that port")
		require.GreaterOrEqual(t, strings.Count(log.String(), "waiting for PostgreSQL"), 2, log.String())
		assert.Equal(t, 1, strings.Count(log.String(), "no firewall"), log.String())
	})
	t.Run("comes up", func(t *testing.T) {
		dsn := pgtest.Schema(t)
		u, err := url.Parse(dsn)
		require.NoError(t, err)
		addr := pgtest.FreeAddr(t)
		// The server becomes reachable when Open says it waits: Open
		// connects at its next attempt, however long the machine takes,
		// and does not wait out its ConnectWait.
		log := logWriter{first: func() { proxy(t, addr, u.Host) }}
		s, err := OpenConfig(withHost(t, dsn, addr), storage.Options{},
			Config{ConnectWait: hung, Logger: slog.New(slog.NewTextHandler(&log, nil))})
		require.NoError(t, err)
		defer s.Close()
		assert.Equal(t, 1, strings.Count(log.String(), "waiting for PostgreSQL at "+addr+": "), "connected at the attempt after the server came up: %s", log.String())
		_, err = s.Game(t.Context(), "c1")
		assert.ErrorIs(t, err, storage.ErrNotFound, "the store works")
	})
	t.Run("no such database", func(t *testing.T) {
		dsn := pgtest.DSN(t)
		u, err := url.Parse(dsn)
		require.NoError(t, err)
		u.Path = "/no_such_database"
		var log logWriter
		_, err = OpenConfig(u.String(), storage.Options{}, Config{Logger: slog.New(slog.NewTextHandler(&log, nil))})
		assert.ErrorContains(t, err, "3D000")
		assert.Empty(t, log.String(), "no waiting for what waiting cannot cure")
	})
}

// TestTerminatedMidTransactionRetried: the server ends the store's own
// connection in the middle of a write transaction, after its first batch
// (BEGIN and a read; pg_terminate_backend, 57P01). A transaction whose
// COMMIT was not sent (the next batch has none, or pgx failed preparing
// it) was rolled back by the server: it is run again on a new connection
// and commits once. One whose COMMIT went with the batch that failed is
// not run again here (the server may have committed it before it ended
// the connection): its caller is told.
func TestTerminatedMidTransactionRetried(t *testing.T) {
	tests := []struct {
		name     string
		warm     bool // the statements are prepared on the connection (pgx's cache)
		readLast bool // the transaction reads after its write, before the COMMIT
		retried  bool
	}{
		{name: "read after the first batch", warm: true, readLast: true, retried: true},
		{name: "commit's batch never prepared", warm: false, retried: true},
		{name: "commit's batch sent", warm: true, retried: false},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			app := fmt.Sprint("kulami_test_terminated_", i)
			s := mustOpenConfig(t, app, Config{PoolMax: 1})
			admin := mustConnect(t, s)
			mustCreateGame(t, s, "c1")
			b := backend{s.pool, hung}
			var attempts int
			write := func(tx storage.Tx, terminate bool) error {
				attempts++
				g, _, err := tx.Game("c1")
				if err != nil {
					return err
				}
				if terminate {
					var ended int
					require.NoError(t, admin.QueryRow(t.Context(), `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 5000))
						FROM pg_stat_activity WHERE application_name = $1 AND state LIKE 'idle in transaction%'`, app).Scan(&ended))
					require.Equal(t, 1, ended, "the transaction's own connection")
				}
				g.BoardMessageID = fmt.Sprint("board ", attempts)
				if err := tx.PutGame(g, time.Time{}); err != nil {
					return err
				}
				if tt.readLast {
					_, _, err = tx.Game("c1")
				}
				return err
			}
			if !tt.warm {
				s.pool.Reset() // a new connection, nothing prepared on it
			} else {
				require.NoError(t, b.Update(t.Context(), func(tx storage.Tx) error { return write(tx, false) }))
			}
			before := attempts
			err := b.Update(t.Context(), func(tx storage.Tx) error { return write(tx, attempts == before) })
			g, gerr := s.Game(t.Context(), "c1")
			require.NoError(t, gerr)
			if !tt.retried {
				assert.Error(t, err)
				assert.Equal(t, before+1, attempts)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, before+2, attempts, "run again once, on a new connection")
			assert.Equal(t, fmt.Sprint("board ", before+2), g.BoardMessageID, "the second attempt's write, committed")
		})
	}
}
