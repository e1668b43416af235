package bot_test

import (
	"bytes"
	"encoding/binary"
	"io"
	"net"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// TestMoveCommitCut, on PostgreSQL: the store fails a move while its
// COMMIT is under way, so that the bot cannot know from the error whether
// the move is stored: the connection is lost as the COMMIT goes to the
// server (which rolls the move back: "before"), or once the server has
// committed it, on the way back ("after"); or the server's answer is late,
// and the interaction's time for the database (15 s; the bot deferred at
// 2.5 s) runs out while it waits ("late"). The bot looks the move up, and
// answers each truly: the board (pinging the opponent) and no failure if
// the move is stored; that nothing changed, and no board, if not. The interaction's time moves
// only when the test says (bot.ManualTimer).
func TestMoveCommitCut(t *testing.T) {
	t.Parallel()
	for _, when := range []string{"before", "after", "late"} {
		for _, how := range []string{"clicked", "typed"} {
			t.Run(when+"/"+how, func(t *testing.T) {
				t.Parallel()
				dsn := pgtest.WithParam(t, pgtest.Schema(t), "sslmode", "disable")
				cut := startCommitCut(t, dsn, when)
				pg, err := postgres.Open(cut.dsn, storage.Options{})
				require.NoError(t, err)
				timer := bot.NewManualTimer()
				h := newHarnessWith(t, "gateway", func(h *harness) {
					h.manual = true
					h.timer = timer
					h.wrap = func(*storage.Store) bot.Store { return pg }
				})
				t.Cleanup(func() { h.stop(); pg.Close() })
				ch, board := h.startGame(pg, "cut")
				g, err := pg.Game(t.Context(), ch)
				require.NoError(t, err)
				first, second := h.players(g)

				cut.armed.Store(true)
				i := h.dc.Command(ch, first, "kulami", discordtest.Subcommand("move", discordtest.StringOption("cell", "D4")))
				if how == "clicked" {
					i = h.dc.Select(board.ID, first, menuOf(board, "D4"), "D4")
				}
				h.send(i)
				if when == "late" {
					select {
					case <-cut.held:
					case <-time.After(hung):
						require.FailNow(t, "the move's COMMIT never came")
					}
					timer.Advance(15 * time.Second) // the bot defers, then the time of its storage calls runs out (storeWork)
				}
				answers := func() string {
					out := contents(h.dc.Followups(i.ID))
					if r, ok := h.dc.Response(i.ID); ok {
						out = append(out, r.Content)
					}
					if original, ok := h.dc.Original(i.ID); ok {
						out = append(out, original.Content)
					}
					return strings.Join(out, "\n")
				}
				if when != "before" {
					later := h.boardAt(ch, 1)
					assert.Contains(t, later.Notified, second.ID, "the board pings the opponent")
					assert.NotContains(t, answers(), "nothing was changed")
					assert.NotContains(t, strings.ToLower(answers()), "try again")
					assert.Contains(t, h.logs.String(), "the store failed a move that committed all the same")
				} else {
					h.dc.WaitUntil(t, "the move answered as failed", func() bool { return strings.Contains(answers(), "nothing was changed") })
					assert.Zero(t, boardsAt(h, ch, 1), "no board of a move not stored")
				}
				cut.release()
				assert.True(t, cut.done.Load(), "the move's COMMIT was cut")
				g, err = pg.Game(t.Context(), ch)
				require.NoError(t, err)
				assert.Equal(t, map[string]int{"before": 0, "after": 1, "late": 1}[when], g.Ply(), "the move is stored if the server committed it, once")
			})
		}
	}
}

// commitCut is a TCP proxy between a store and PostgreSQL that, once
// armed, loses the connection of the first transaction that then writes
// a game (writesGame) at its COMMIT: before the COMMIT reaches
// the server ("before"), or once the server has answered that it
// committed, before that answer reaches the store ("after"); or it holds
// that answer until released ("late"). It reads the protocol's messages
// to know them, following the statements a connection prepares (pgx
// prepares and names them) to the binds that run them.
type commitCut struct {
	dsn      string // the store's DSN, through the proxy
	to       string // the server's address
	when     string
	armed    atomic.Bool
	taken    atomic.Bool   // a transaction is chosen to cut
	done     atomic.Bool   // it was cut (or, "late", held)
	held     chan struct{} // closed when "late" holds the answer to the COMMIT
	released chan struct{} // closed by release
	once     sync.Once
}

// release lets the connection held ("late") go, lost.
func (cc *commitCut) release() { cc.once.Do(func() { close(cc.released) }) }

// startCommitCut starts a proxy to the server of dsn (which must not ask
// for TLS), stopped when the test ends.
func startCommitCut(t *testing.T, dsn, when string) *commitCut {
	u, err := url.Parse(dsn)
	require.NoError(t, err)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	cc := &commitCut{to: u.Host, when: when, held: make(chan struct{}), released: make(chan struct{})}
	u.Host = l.Addr().String()
	cc.dsn = u.String()
	pgtest.Serve(t, l, cc.serve)
	t.Cleanup(cc.release) // first: a connection held returns
	return cc
}

// serve forwards one connection, cutting it as the proxy says.
func (cc *commitCut) serve(client net.Conn) {
	defer client.Close()
	server, err := net.Dial("tcp", cc.to)
	if err != nil {
		return
	}
	defer server.Close()
	var mine, committing atomic.Bool // this connection's transaction is the one cut; its COMMIT is sent
	cutNow := func() {
		cc.done.Store(true)
		client.Close()
		server.Close()
	}
	go func() {
		defer server.Close()
		stmts := map[string]string{} // the statements prepared, by name
		first := true
		for {
			typ, body, err := readMessage(client, first)
			if err != nil {
				return
			}
			startup := first
			first = false
			var sql string
			switch typ {
			case 'P': // Parse: name, query
				f := bytes.Split(body, []byte{0})
				sql = string(f[1])
				stmts[string(f[0])] = sql
			case 'B': // Bind: portal, statement
				sql = stmts[string(bytes.Split(body, []byte{0})[1])]
			case 'Q':
				sql = string(body)
			}
			if cc.armed.Load() && writesGame(sql) && cc.taken.CompareAndSwap(false, true) {
				mine.Store(true)
			}
			if typ == 'B' && mine.Load() && strings.HasPrefix(sql, "COMMIT") {
				if cc.when == "before" {
					cutNow()
					return
				}
				committing.Store(true)
			}
			if err := writeMessage(server, typ, body, startup); err != nil {
				return
			}
		}
	}()
	for {
		typ, body, err := readMessage(server, false)
		if err != nil {
			return
		}
		if typ == 'C' && committing.Load() && string(body) == "COMMIT\x00" { // CommandComplete
			if cc.when == "late" {
				cc.done.Store(true)
				close(cc.held)
				<-cc.released
			}
			cutNow()
			return
		}
		if err := writeMessage(client, typ, body, false); err != nil {
			return
		}
	}
}

// readMessage reads a message of the protocol: a type byte, then its
// length and body; the startup message has no type.
func readMessage(r io.Reader, startup bool) (byte, []byte, error) {
	var typ [1]byte
	if !startup {
		if _, err := io.ReadFull(r, typ[:]); err != nil {
			return 0, nil, err
		}
	}
	var n [4]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return 0, nil, err
	}
	body := make([]byte, binary.BigEndian.Uint32(n[:])-4)
	_, err := io.ReadFull(r, body)
	return typ[0], body, err
}

// writeMessage writes a message as readMessage reads it.
func writeMessage(w io.Writer, typ byte, body []byte, startup bool) error {
	var b []byte
	if !startup {
		b = append(b, typ)
	}
	b = binary.BigEndian.AppendUint32(b, uint32(len(body)+4))
	_, err := w.Write(append(b, body...))
	return err
}

// writesGame reports whether sql writes a game: puts it (INSERT INTO
// active), or updates one its transaction read (UPDATE active SET id …,
// not the board's note).
func writesGame(sql string) bool {
	return strings.Contains(sql, "INSERT INTO active") || strings.Contains(sql, "UPDATE active SET id ")
}
