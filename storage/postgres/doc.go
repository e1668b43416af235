// Package postgres keeps kulami's games in a PostgreSQL database: the
// backend for a bot that runs as several processes sharing one database.
// It stores exactly what the bbolt backend (package storage) stores, with
// the same semantics: every method is storage.Core's, run over this
// package's transactions, and the conformance suite (storage/storagetest)
// runs against both.
//
// # Transactions
//
// Every method is one transaction. A write runs at READ COMMITTED and
// locks the rows it reads to change (SELECT … FOR UPDATE), so two
// UpdateGame on one channel, in one process or two, run one after the
// other: the second sees the first's move, and a move made against the
// board before it is refused by the game itself (game.ErrStale). A read
// runs at REPEATABLE READ, READ ONLY: one snapshot, as a bbolt read
// transaction. A write that the server refuses for a conflict with a
// concurrent one (a serialization failure, a deadlock, or a row that
// another transaction inserted first, such as the first game of a channel
// or a player's first profile) is run again, up to ten times; so an
// update function may run more than once. Commits are durable: the server's
// synchronous_commit is left as it is (on by default), except for
// NoteBoard and the batches of a resume after an outage (see there and
// tx.Recomputable). A transaction queues its writes and sends them
// with its next read or its COMMIT (pipeline.go): a move is two round
// trips to the server.
//
// # Faults
//
// A transaction that fails for a connection that could not be made, or
// that broke before its COMMIT was sent (a restarted server, a connection
// the server ended while the pool held it or in the middle of the
// transaction: 57P01, or pgx failing to prepare the batch of the COMMIT),
// runs again on a new
// connection, after a pause that grows from nothing to half a second; one
// whose COMMIT may have reached the server is never run again. Every
// session has a lock_timeout (Config.LockTimeout): a write that waits
// longer for a row that another transaction holds fails with
// storage.ErrBusy, so a stuck game delays its own calls only; a read
// never waits for a row lock. A call waits at most Config.AcquireTimeout
// for a free connection (storage.ErrBusy too), and every statement ends
// when the caller's context does. The pool opens connections as the load
// needs them, up to Config.PoolMax, and closes them after a minute idle.
// OpenConfig waits for a server that it cannot reach yet, up to
// Config.ConnectWait, logging each attempt.
//
// The scheduler's leases (storage.Core.Claim) are rows of the table
// leases, locked while they are checked: a process that dies leaves a
// lease that lapses, and another process takes the work over.
//
// # Schema
//
// The tables are plain: text, bigint, smallint, integer, bytea, primary
// keys and ordinary indexes, two sequences for IDs. Every value is the JSON
// that the bbolt backend stores ({"v":1,"data":{…}}) in a text column;
// the columns beside it are what queries select and order by. Times are
// Unix nanoseconds in bigint columns, so that they order as Go's times
// do. A channel's active game or open challenge is one row of one table,
// so the primary key keeps a channel from holding both. Migrations are
// SQL files embedded in the binary (migrations/NNNN_*.sql), applied at
// Open in order, each in one transaction with its row in the table
// kulami_migrations: a dependency-free mechanism of a few dozen lines,
// rather than a migration library, because kulami needs nothing but
// "apply the missing steps in order, atomically", and embedded files keep
// the binary the only thing to deploy.
//
// # What it relies on
//
// For a PostgreSQL-compatible distributed database (CockroachDB,
// YugabyteDB, …) to serve, it must provide: transactional DDL (a failed
// migration changes nothing); SELECT … FOR UPDATE row locks held to the
// end of the transaction; INSERT … ON CONFLICT … DO UPDATE; data-modifying
// WITH (an INSERT, a DELETE … RETURNING inside WITH, for the guilds' game
// counts); array parameters (channel = ANY($1)); sequences
// with nextval, setval and last_value/is_called; row-value comparison
// ((a, b) < (x, y)) for history pages; bytea ordered by its bytes; ORDER
// BY … COLLATE "C"; READ COMMITTED and REPEATABLE READ isolation (a
// database that runs everything SERIALIZABLE also works: its refusals are
// retried); and, for NoteBoard and a resume's batches, SET LOCAL
// synchronous_commit (a database that ignores it just commits them
// durably). Nothing else: no
// stored procedures, triggers, advisory locks, LISTEN/NOTIFY or
// extensions.
//
// A Store is safe for concurrent use, and any number of processes may
// open the same database.
//
// # Usage
//
//	s, err := postgres.Open("postgres://kulami@db:5432/kulami", storage.Options{})
//	if err != nil { ... } // unreachable server, errors.Is(err, storage.ErrSchemaTooNew), ...
//	defer s.Close()
//	// s has the methods of storage.Store: CreateGame, UpdateGame, ...
package postgres
