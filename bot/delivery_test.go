package bot_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// captured is a request to the interactions endpoint, as it came: what an
// attacker who sees the traffic could send again.
type captured struct {
	header http.Header
	body   []byte
}

// capturing returns next, recording the requests it serves in got.
func capturing(next http.Handler, mu *sync.Mutex, got *[]captured) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		mu.Lock()
		*got = append(*got, captured{header: r.Header.Clone(), body: body})
		mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}

// TestReplayToAnotherProcess, on PostgreSQL: two bots share the database
// behind a load balancer; a signed request that one of them handled,
// captured and sent again as it was (headers and body) to the other, is
// refused there as a replay: acknowledged quietly, not handled again (no
// second board posted, no second move).
func TestReplayToAnotherProcess(t *testing.T) {
	t.Parallel()
	pg, err := postgres.OpenConfig(pgtest.Schema(t), storage.Options{}, patientPG)
	require.NoError(t, err)
	h := newHarnessWith(t, "http", func(h *harness) { h.wrap = func(*storage.Store) bot.Store { return pg } })
	t.Cleanup(func() { h.stop(); pg.Close() })

	var mu sync.Mutex
	var got []captured
	first := httptest.NewServer(capturing(h.bot.HTTPHandler(h.dc.PublicKey()), &mu, &got))
	t.Cleanup(first.Close)
	h.url = first.URL + "/interactions"

	s, err := bot.NewSession(h.dc.Token(), h.dc.APIURL())
	require.NoError(t, err)
	otherLogs := &discordtest.LogBuffer{}
	other := bot.New(s, bot.Options{Store: pg, Logger: slog.New(slog.NewTextHandler(otherLogs, nil)), Clock: h.clock, MoveTime: h.moveTime, ChallengeExpiry: h.expiry})
	second := httptest.NewServer(other.HTTPHandler(h.dc.PublicKey()))
	t.Cleanup(func() { second.Close(); other.Close(hung) })

	ch, _ := h.startGame(pg, "replays")
	g, err := pg.Game(t.Context(), ch)
	require.NoError(t, err)
	mover, _ := h.players(g)
	h.command(ch, mover, "move", discordtest.StringOption("cell", "D4"))
	h.boardAt(ch, 1)
	h.command(ch, h.carol, "board")
	h.waitBoard(ch, "the board shown again", func(m *discordtest.Message) bool { return len(boardsOf(h.dc.Messages(ch))) == 3 })

	mu.Lock()
	requests := append([]captured(nil), got...)
	mu.Unlock()
	require.GreaterOrEqual(t, len(requests), 2, "the move and the board went through the first bot")
	for _, c := range requests[len(requests)-2:] { // the move, then the board
		req, err := http.NewRequest(http.MethodPost, second.URL+"/interactions", bytes.NewReader(c.body))
		require.NoError(t, err)
		req.Header = c.header.Clone()
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		var answer discordgo.InteractionResponse
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&answer))
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode, "the replay's signature is Discord's, so it is acknowledged")
		assert.Contains(t, []discordgo.InteractionResponseType{discordgo.InteractionResponseDeferredChannelMessageWithSource, discordgo.InteractionResponseDeferredMessageUpdate}, answer.Type,
			"the replay is only acknowledged, not answered")
	}
	other.Close(hung) // whatever the replays started is done

	assert.Len(t, boardsOf(h.dc.Messages(ch)), 3, "no board posted for the replays")
	g, err = pg.Game(t.Context(), ch)
	require.NoError(t, err)
	assert.Equal(t, 1, g.Ply(), "the move was made once")
	assert.Contains(t, otherLogs.String(), "interaction delivered again", "the second bot refused the replays")
}

// TestReplayCheckBridgesSlowDatabase, on PostgreSQL: while the table of
// deliveries is locked, the first interaction waits for it only until
// the check's time is over (on the bot's Timer), the next ones not at
// all, and each is handled once and recorded in the process; once the
// table answers, the bot writes them to it, so that a replay of one to
// another process sharing the database is refused there. Issue 41, item
// 5: the check let such interactions through unrecorded (fail open), and
// every interaction waited 500 ms while the table was slow.
func TestReplayCheckBridgesSlowDatabase(t *testing.T) {
	t.Parallel()
	dsn := pgtest.Schema(t)
	const app = "kulami_test_slow_deliveries"
	pg, err := postgres.OpenConfig(pgtest.WithParam(t, dsn, "application_name", app), storage.Options{}, patientPG)
	require.NoError(t, err)
	timer := bot.NewManualTimer()
	h := newHarnessWith(t, "http", func(h *harness) {
		h.timer = timer
		h.wrap = func(*storage.Store) bot.Store { return pg }
	})
	t.Cleanup(func() { h.stop(); pg.Close() })
	var mu sync.Mutex
	var got []captured
	first := httptest.NewServer(capturing(h.bot.HTTPHandler(h.dc.PublicKey()), &mu, &got))
	t.Cleanup(first.Close)
	h.url = first.URL + "/interactions"
	ch, _ := h.startGame(pg, "bridged")

	holder, err := pgx.Connect(t.Context(), dsn)
	require.NoError(t, err)
	defer holder.Close(context.Background())
	tx, err := holder.Begin(t.Context())
	require.NoError(t, err)
	defer tx.Rollback(context.Background())
	_, err = tx.Exec(t.Context(), `LOCK TABLE deliveries IN EXCLUSIVE MODE`)
	require.NoError(t, err)

	timer.WaitPending(t, 0)
	slow := h.dc.Command(ch, h.carol, "kulami", discordtest.Subcommand("board"))
	sent := sendAsync(h, slow)
	require.Eventually(t, func() bool {
		var n int
		err := holder.QueryRow(t.Context(), `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, app).Scan(&n)
		return err == nil && n == 1
	}, hung, time.Millisecond, "the check waits for the locked table")
	timer.Advance(500 * time.Millisecond) // the check's time
	<-sent
	h.waitBoard(ch, "the board the slow check let through", func(m *discordtest.Message) bool { return len(boardsOf(h.dc.Messages(ch))) == 2 })
	next := h.command(ch, h.carol, "board") // the timer stays where it is: no wait
	h.waitBoard(ch, "the board of the next interaction", func(m *discordtest.Message) bool { return len(boardsOf(h.dc.Messages(ch))) == 3 })
	assert.Contains(t, h.logs.String(), "recording them in this process")

	require.NoError(t, tx.Rollback(t.Context())) // the table answers again
	require.Eventually(t, func() bool {
		var n int
		err := holder.QueryRow(t.Context(), `SELECT count(*) FROM deliveries WHERE id = ANY($1)`, []string{slow.ID, next.ID}).Scan(&n)
		return err == nil && n == 2
	}, hung, time.Millisecond, "both deliveries written once the table answers")

	s, err := bot.NewSession(h.dc.Token(), h.dc.APIURL())
	require.NoError(t, err)
	otherLogs := &discordtest.LogBuffer{}
	other := bot.New(s, bot.Options{Store: pg, Logger: slog.New(slog.NewTextHandler(otherLogs, nil)), Clock: h.clock, MoveTime: h.moveTime, ChallengeExpiry: h.expiry})
	second := httptest.NewServer(other.HTTPHandler(h.dc.PublicKey()))
	t.Cleanup(func() { second.Close(); other.Close(hung) })
	mu.Lock()
	requests := append([]captured(nil), got...)
	mu.Unlock()
	for _, c := range requests[len(requests)-2:] { // the two boards asked while the table was locked
		req, err := http.NewRequest(http.MethodPost, second.URL+"/interactions", bytes.NewReader(c.body))
		require.NoError(t, err)
		req.Header = c.header.Clone()
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
	}
	other.Close(hung)
	assert.Len(t, boardsOf(h.dc.Messages(ch)), 3, "no board posted for the replays")
	assert.Equal(t, 2, strings.Count(otherLogs.String(), "interaction delivered again"), "the second bot refused both replays")
}
