package metrics_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/jobs"
	"github.com/kulami/kulami/bot/metrics"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine/game"
)

var _ bot.Metrics = (*metrics.Metrics)(nil)

func TestRoute(t *testing.T) {
	tests := []struct{ path, want string }{
		{"/api/v10/channels/123456789012345678/messages", "/channels/{id}/messages"},
		{"/api/v10/channels/123/messages/456", "/channels/{id}/messages/{id}"},
		{"/api/v10/webhooks/123/aW50ZXJhY3Rpb246MTIzOnRva2VuLXNlY3JldC12YWx1ZQ/messages/@original", "/webhooks/{id}/{token}/messages/@original"},
		{"/api/v10/interactions/123/aW50ZXJhY3Rpb24tdG9rZW4/callback", "/interactions/{id}/{token}/callback"},
		{"/api/v10/applications/123/guilds/456/commands", "/applications/{id}/guilds/{id}/commands"},
		{"/api/v10/users/@me/channels", "/users/@me/channels"},
		{"/api/v10/channels/1/messages/2/reactions/%E2%9C%85/@me", "/channels/{id}/messages/{id}/reactions/{token}/@me"},
		{"/channels/1/threads", "/channels/{id}/threads"},
		{"/api/v10", "/"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			assert.Equal(t, tt.want, metrics.Route(tt.path))
		})
	}
}

func TestEvents(t *testing.T) {
	m := metrics.New(prometheus.NewRegistry())
	m.Interaction("command", "move")
	m.Interaction("command", "move")
	m.Answered("command", "move", 100*time.Millisecond)
	m.Answered("command", "move", 3500*time.Millisecond)
	m.Moved(2)
	m.Moved(1)
	m.GameEnded(game.Resigned)
	m.Reminded(nil)
	m.Reminded(errors.New("403"))
	m.Reminded(nil)
	m.Updated(time.Millisecond, nil)

	scrape := scrapeOf(t, m)
	for _, line := range []string{
		`kulami_interactions_total{command="move",kind="command"} 2`,
		`kulami_interaction_ack_seconds_count{command="move",kind="command"} 2`,
		`kulami_interaction_ack_seconds_bucket{command="move",kind="command",le="3"} 1`,
		`kulami_interaction_late_answers_total{command="move",kind="command"} 1`,
		`kulami_moves_total 3`,
		`kulami_games_ended_total{reason="resigned"} 1`,
		`kulami_games_ended_total{reason="timed-out"} 0`,
		`kulami_reminders_total{result="sent"} 2`,
		`kulami_reminders_total{result="failed"} 1`,
		`kulami_storage_commit_seconds_count{result="ok"} 1`,
	} {
		assert.Contains(t, scrape, line+"\n")
	}
	assert.Contains(t, scrape, "go_goroutines ", "the Go runtime's figures")
	assert.Contains(t, scrape, "process_cpu_seconds_total ", "the process's figures")
}

func TestTransport(t *testing.T) {
	discord := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/messages") && r.Method == http.MethodPost {
			w.Header().Set("X-RateLimit-Scope", "user")
			w.WriteHeader(http.StatusTooManyRequests)
			return
		}
		io.WriteString(w, "{}")
	}))
	t.Cleanup(discord.Close)
	m := metrics.New(prometheus.NewRegistry())
	client := &http.Client{Transport: m.Transport(nil)}
	for _, req := range []struct{ method, path string }{
		{http.MethodGet, "/api/v10/channels/1/messages/2"},
		{http.MethodGet, "/api/v10/channels/3/messages/4"},
		{http.MethodPost, "/api/v10/channels/1/messages"},
	} {
		r, err := http.NewRequest(req.method, discord.URL+req.path, nil)
		require.NoError(t, err)
		resp, err := client.Do(r)
		require.NoError(t, err)
		resp.Body.Close()
	}
	scrape := scrapeOf(t, m)
	assert.Contains(t, scrape, `kulami_discord_requests_total{method="GET",route="/channels/{id}/messages/{id}",status="200"} 2`+"\n")
	assert.Contains(t, scrape, `kulami_discord_requests_total{method="POST",route="/channels/{id}/messages",status="429"} 1`+"\n")
	assert.Contains(t, scrape, `kulami_discord_rate_limited_total{route="/channels/{id}/messages",scope="user"} 1`+"\n")
	assert.Contains(t, scrape, `kulami_discord_request_seconds_count{route="/channels/{id}/messages/{id}"} 2`+"\n")
}

type fakeSources struct {
	active int
	err    error
}

func (f fakeSources) JobStats() []jobs.ClassStats {
	return []jobs.ClassStats{{Class: "move", Waiting: 2, Running: 1, Started: 4, Waited: 2 * time.Second}}
}

func (f fakeSources) Stats() draw.Stats {
	return draw.Stats{Renders: 3, RenderTime: 300 * time.Millisecond, CacheHits: 5, CacheMisses: 1, CacheItems: 2, CacheBytes: 1000}
}

func (f fakeSources) ActiveGames(context.Context) (int, error) { return f.active, f.err }

func TestCollectors(t *testing.T) {
	m := metrics.New(prometheus.NewRegistry())
	src := &fakeSources{active: 7}
	m.Jobs(src)
	m.Renderer(src)
	m.Games(src)
	scrape := scrapeOf(t, m)
	for _, line := range []string{
		`kulami_jobs_waiting{class="move"} 2`,
		`kulami_jobs_running{class="move"} 1`,
		`kulami_job_wait_seconds_sum{class="move"} 2`,
		`kulami_job_wait_seconds_count{class="move"} 4`,
		`kulami_render_seconds_sum 0.3`,
		`kulami_render_seconds_count 3`,
		`kulami_board_cache_hits_total 5`,
		`kulami_board_cache_misses_total 1`,
		`kulami_board_cache_bytes 1000`,
		`kulami_games_active 7`,
	} {
		assert.Contains(t, scrape, line+"\n")
	}

	src.err = errors.New("database unreachable")
	scrape = scrapeOf(t, m)
	assert.NotContains(t, scrape, "kulami_games_active", "a count that failed is left out")
	assert.Contains(t, scrape, "kulami_moves_total 0", "the others are still served")
}

func TestHandler(t *testing.T) {
	m := metrics.New(prometheus.NewRegistry())
	var notReady error
	srv := httptest.NewServer(m.Handler(func(ctx context.Context) error {
		_, ok := ctx.Deadline()
		assert.True(t, ok, "the checks have a deadline")
		return notReady
	}, slog.New(slog.DiscardHandler)))
	t.Cleanup(srv.Close)

	tests := []struct {
		name     string
		path     string
		notReady error
		code     int
		body     string
	}{
		{"alive", "/healthz", errors.New("ignored"), http.StatusOK, "ok\n"},
		{"ready", "/readyz", nil, http.StatusOK, "ready\n"},
		{"not ready", "/readyz", errors.New("the gateway is not connected"), http.StatusServiceUnavailable, "not ready: the gateway is not connected\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			notReady = tt.notReady
			code, body := get(t, srv.URL+tt.path)
			assert.Equal(t, tt.code, code)
			assert.Equal(t, tt.body, body)
		})
	}
	code, body := get(t, srv.URL+"/metrics")
	assert.Equal(t, http.StatusOK, code)
	assert.Contains(t, body, "# TYPE kulami_moves_total counter")
}

// scrapeOf returns what m's /metrics serves.
func scrapeOf(t *testing.T, m *metrics.Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler(func(context.Context) error { return nil }, slog.New(slog.DiscardHandler)).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	return rec.Body.String()
}

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// BenchmarkMoveCounted is what the metrics add to one move handled in
// gateway mode: the interaction and its answer, the move, one commit and
// the REST calls (the callback, the new board, the old board's edit) through
// the counting transport, to a Discord that answers at once.
func BenchmarkMoveCounted(b *testing.B) {
	m := metrics.New(prometheus.NewRegistry())
	ok := &http.Response{StatusCode: http.StatusOK, Body: http.NoBody}
	rt := m.Transport(roundTrip(func(*http.Request) (*http.Response, error) { return ok, nil }))
	reqs := []*http.Request{
		httptest.NewRequest(http.MethodPost, "https://discord.com/api/v10/interactions/123456789012345678/aW50ZXJhY3Rpb246dG9rZW4/callback", nil),
		httptest.NewRequest(http.MethodPost, "https://discord.com/api/v10/channels/123456789012345678/messages", nil),
		httptest.NewRequest(http.MethodPatch, "https://discord.com/api/v10/channels/123456789012345678/messages/223456789012345678", nil),
	}
	b.ReportAllocs()
	for b.Loop() {
		m.Interaction("component", "move")
		m.Answered("component", "move", 5*time.Millisecond)
		m.Moved(1)
		m.Updated(2*time.Millisecond, nil)
		for _, r := range reqs {
			if _, err := rt.RoundTrip(r); err != nil {
				b.Fatal(err)
			}
		}
	}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
