package postgres

import (
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

// A transaction sends its statements in as few round trips to the server
// as it can, since a move waits for each: a write is queued, not sent, and
// goes with the next read or with the COMMIT; BEGIN goes with the first
// read. A move (UpdateGame) is then two round trips: BEGIN with the
// SELECT … FOR UPDATE of the game, then its UPDATE with the COMMIT. The
// server runs them in order, as if each were sent alone; an error of a
// queued write comes back with the next send, and the transaction ends
// with it (rolled back).

// maxPending is how many statements a transaction queues at most: a long
// run of writes (an Import) is sent in batches of this size, so that
// neither side's buffers fill up.
const maxPending = 1000

// exec queues the write sql. An error of a batch sent here is returned
// by the next send.
func (t *tx) exec(sql string, args ...any) {
	t.pending.Queue(sql, args...)
	if t.pending.Len() >= maxPending {
		if err := t.send(t.take()); err != nil && t.err == nil {
			t.err = err
		}
	}
}

// lazyRow is a row that a query will give: Scan sends the query, with
// what is queued before it, and scans its first row.
type lazyRow struct {
	t    *tx
	sql  string
	args []any
}

// queryRow returns the row that sql selects, sent when it is scanned.
func (t *tx) queryRow(sql string, args ...any) pgx.Row { return &lazyRow{t, sql, args} }

// Scan implements pgx.Row: pgx.ErrNoRows if the query selects none.
func (r *lazyRow) Scan(dest ...any) error {
	b := r.t.take()
	b.Queue(r.sql, r.args...).QueryRow(func(row pgx.Row) error { return row.Scan(dest...) })
	return r.t.send(b)
}

// query sends sql, with what is queued before it, and calls fn with its
// rows; fn must not use the transaction.
func (t *tx) query(sql string, args []any, fn func(pgx.Rows) error) error {
	b := t.take()
	b.Queue(sql, args...).Query(fn)
	return t.send(b)
}

// take returns the statements queued, and queues none.
func (t *tx) take() *pgx.Batch {
	b := t.pending
	t.pending = &pgx.Batch{}
	return b
}

// send sends the statements of b in one round trip and returns the first
// error of them. It notes the transaction lost if nothing of b was sent
// (pgconn.SafeToRetry), or if b had no COMMIT and the connection broke
// (a server that restarted, or ended this connection: 57P01), or if b
// was not sent for the connection broke while preparing its statements
// (pgx.ErrPreprocessingBatch), the COMMIT included: the server rolls back
// the transaction of a connection it loses before its COMMIT, so nothing
// of it was done, whichever batch of it broke.
func (t *tx) send(b *pgx.Batch) error {
	if t.err != nil {
		return t.err
	}
	t.begun = true
	err := t.conn.SendBatch(t.ctx, b).Close()
	if err != nil && t.ctx.Err() == nil &&
		(pgconn.SafeToRetry(err) || (!t.committing || unsent(err)) && t.conn.Conn().IsClosed()) {
		t.lost = true
	}
	return err
}

// unsent reports whether err is pgx's failure to prepare the statements
// of a batch, before it sends any of them.
func unsent(err error) bool {
	var pe pgx.ErrPreprocessingBatch
	return errors.As(err, &pe)
}
