package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// TestMetricsAfterAGame runs kulamibot in gateway mode with its metrics on
// a listener of their own, plays a short game (a challenge, its
// acceptance, two typed moves, an abort) and checks what /metrics counts
// against what was played and what the fake Discord received.
func TestMetricsAfterAGame(t *testing.T) {
	dc := discordtest.New(t)
	games := dc.AddChannel("games")
	alice, bob := dc.AddUser("alice"), dc.AddUser("bob")
	addr := freeAddr(t)
	cancel, done, stderr := startBot(t, fakeEnv(dc, filepath.Join(t.TempDir(), "kulami.db"), map[string]string{"KULAMI_METRICS_LISTEN": addr}))
	url := "http://" + addr
	dc.WaitReady(t)
	require.Eventually(t, func() bool { code, _ := get(url + "/readyz"); return code == http.StatusOK }, hung, 10*time.Millisecond, "the bot is ready")
	code, body := get(url + "/healthz")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "ok\n", body)

	dc.SendInteraction(challenge(dc, games.ID, alice, bob))
	msg := waitMessage(t, dc, games.ID, "the challenge", func(m *discordtest.Message) bool { return buttonsOf(m)["Accept"] != "" })
	dc.SendInteraction(dc.Button(msg.ID, bob, buttonsOf(msg)["Accept"]))
	users := map[string]*discordgo.User{alice.ID: alice, bob.ID: bob}
	for ply := range 2 {
		board := waitBoards(t, dc, games.ID, ply+1)
		var player *discordgo.User
		for id, u := range users {
			if strings.Contains(board.Content, "<@"+id+">, your move") {
				player = u
			}
		}
		require.NotNil(t, player, "the board names the player to move")
		i := dc.Command(games.ID, player, "kulami", discordtest.Subcommand("move", discordtest.StringOption("cell", firstHole(t, board))))
		dc.SendInteraction(i)
		assert.Contains(t, dc.WaitResponse(t, i.ID).Content, "You played")
	}
	waitBoards(t, dc, games.ID, 3)
	abort := dc.Command(games.ID, alice, "kulami", discordtest.Subcommand("abort"))
	dc.SendInteraction(abort)
	dc.WaitResponse(t, abort.ID)
	waitBoards(t, dc, games.ID, 4) // the final board

	m := scrape(t, url)
	assert.Equal(t, 2.0, m.sum("kulami_moves_total", nil))
	assert.Equal(t, 0.0, m.sum("kulami_games_active", nil), "the game is over")
	assert.Equal(t, 1.0, m.sum("kulami_games_ended_total", labels{"reason": "aborted"}))
	assert.Equal(t, 1.0, m.sum("kulami_games_ended_total", nil), "one game ended")
	for _, c := range []struct {
		kind, command string
		n             float64
	}{{"command", "challenge", 1}, {"component", "accept", 1}, {"command", "move", 2}, {"command", "abort", 1}} {
		l := labels{"kind": c.kind, "command": c.command}
		assert.Equal(t, c.n, m.sum("kulami_interactions_total", l), "%v", l)
		assert.Equal(t, c.n, m.histogramCount("kulami_interaction_ack_seconds", l), "every interaction was answered: %v", l)
	}
	assert.Equal(t, 5.0, m.sum("kulami_interactions_total", nil))
	assert.Zero(t, m.sum("kulami_interaction_late_answers_total", nil))
	assert.Positive(t, m.histogramCount("kulami_storage_commit_seconds", labels{"result": "ok"}), "commits are timed")
	assert.Positive(t, m.sum("kulami_render_seconds", nil), "boards were drawn")
	assert.Positive(t, m.sum("kulami_board_cache_hits_total", nil), "the later boards found the layout drawn")
	assert.Contains(t, m, "go_goroutines")
	assert.Equal(t, 1.0, m.sum("kulami_gateway_connected", labels{"shard": "0"}))
	assert.Len(t, m.matching("kulami_gateway_heartbeat_latency_seconds", labels{"shard": "0"}), 1)

	// Every request the fake Discord received is counted, by method, route
	// and status, and nothing else, once the bot is idle (it retires the
	// old boards after it answers).
	var want, got map[string]float64
	require.Eventually(t, func() bool {
		want, got = restByRoute(dc), scrape(t, url).restByRoute()
		return assert.ObjectsAreEqual(want, got)
	}, hung, 10*time.Millisecond)
	assert.Equal(t, want, got)
	assert.NotZero(t, want["POST /channels/{id}/messages 200"], "the boards were posted")
	assert.Equal(t, 5.0, want["POST /interactions/{id}/{token}/callback 204"], "the interactions were answered")

	// Discord asks the bot to reconnect: the gateway counts it, and the
	// bot is ready again once it has.
	dc.Reconnect()
	require.Eventually(t, func() bool {
		m := scrape(t, url)
		return m.sum("kulami_gateway_reconnects_total", labels{"shard": "0"}) == 1 && m.sum("kulami_gateway_connected", nil) == 1
	}, hung, 10*time.Millisecond, "the reconnection is counted")
	require.Eventually(t, func() bool { code, _ := get(url + "/readyz"); return code == http.StatusOK }, hung, 10*time.Millisecond, "the bot is ready again")

	cancel()
	waitExit(t, done, stderr.String)
}

// restByRoute counts the requests dc received by method, route and
// status, as the metrics name them.
func restByRoute(dc *discordtest.Server) map[string]float64 {
	out := map[string]float64{}
	for _, r := range dc.Requests() {
		out[fmt.Sprintf("%s %s %d", r.Method, routeOf(r.Route), r.Status)]++
	}
	return out
}

// restByRoute returns kulami_discord_requests_total by method, route and
// status.
func (s scraped) restByRoute() map[string]float64 {
	out := map[string]float64{}
	for _, m := range s["kulami_discord_requests_total"].GetMetric() {
		l := labelsOf(m)
		out[l["method"]+" "+l["route"]+" "+l["status"]] = m.GetCounter().GetValue()
	}
	return out
}

// routeOf turns a route template of the fake Discord, like
// /channels/{channel_id}/messages, into the metrics' form:
// /channels/{id}/messages, with {token} for a token.
func routeOf(template string) string {
	return placeholder.ReplaceAllStringFunc(template, func(p string) string {
		if strings.HasSuffix(p, "token}") {
			return "{token}"
		}
		return "{id}"
	})
}

var placeholder = regexp.MustCompile(`\{[a-z_.]+\}`)

// freeAddr returns a local address no one listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// get returns the status and body of GET url; status 0 if it failed.
func get(url string) (int, string) {
	resp, err := http.Get(url)
	if err != nil {
		return 0, ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// waitMessage waits for a message of channel that cond accepts.
func waitMessage(t *testing.T, dc *discordtest.Server, channel, what string, cond func(*discordtest.Message) bool) *discordtest.Message {
	t.Helper()
	var found *discordtest.Message
	dc.WaitUntil(t, what, func() bool {
		for _, m := range dc.Messages(channel) {
			if cond(m) {
				found = m
			}
		}
		return found != nil
	})
	return found
}

// waitBoards waits for n board images in channel and returns the last.
func waitBoards(t *testing.T, dc *discordtest.Server, channel string, n int) *discordtest.Message {
	t.Helper()
	var last *discordtest.Message
	dc.WaitUntil(t, fmt.Sprintf("%d boards", n), func() bool {
		k := 0
		for _, m := range dc.Messages(channel) {
			if len(m.Files) > 0 && m.Files[0].Name == "board.png" {
				k, last = k+1, m
			}
		}
		return k >= n
	})
	return last
}

// buttonsOf returns the custom IDs of a message's buttons by label.
func buttonsOf(m *discordtest.Message) map[string]string {
	out := map[string]string{}
	for _, row := range m.Components {
		if r, ok := row.(*discordgo.ActionsRow); ok {
			for _, c := range r.Components {
				if b, ok := c.(*discordgo.Button); ok {
					out[b.Label] = b.CustomID
				}
			}
		}
	}
	return out
}

// firstHole returns the first hole offered in a board's menus.
func firstHole(t *testing.T, board *discordtest.Message) string {
	t.Helper()
	for _, row := range board.Components {
		if r, ok := row.(*discordgo.ActionsRow); ok {
			for _, c := range r.Components {
				if s, ok := c.(*discordgo.SelectMenu); ok && len(s.Options) > 0 {
					return s.Options[0].Value
				}
			}
		}
	}
	t.Fatal("the board offers no hole")
	return ""
}

// scraped are the metric families of one scrape, by name.
type scraped map[string]*dto.MetricFamily

type labels map[string]string

// scrape reads url's /metrics.
func scrape(t *testing.T, url string) scraped {
	t.Helper()
	resp, err := http.Get(url + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(resp.Body)
	require.NoError(t, err)
	return families
}

func labelsOf(m *dto.Metric) labels {
	out := labels{}
	for _, l := range m.GetLabel() {
		out[l.GetName()] = l.GetValue()
	}
	return out
}

// matching returns the series of family name whose labels include want.
func (s scraped) matching(name string, want labels) []*dto.Metric {
	var out []*dto.Metric
	for _, m := range s[name].GetMetric() {
		l, ok := labelsOf(m), true
		for k, v := range want {
			ok = ok && l[k] == v
		}
		if ok {
			out = append(out, m)
		}
	}
	return out
}

// sum adds up the series of name whose labels include want: counters and
// gauges by value, summaries by their sum.
func (s scraped) sum(name string, want labels) float64 {
	var n float64
	for _, m := range s.matching(name, want) {
		n += m.GetCounter().GetValue() + m.GetGauge().GetValue() + m.GetUntyped().GetValue() + m.GetSummary().GetSampleSum()
	}
	return n
}

// histogramCount returns the observations of the histograms of name whose
// labels include want.
func (s scraped) histogramCount(name string, want labels) float64 {
	var n float64
	for _, m := range s.matching(name, want) {
		n += float64(m.GetHistogram().GetSampleCount())
	}
	return n
}

// TestOpsOnTheHTTPListener: in http mode, with no listener of their own,
// the operators' endpoints are served next to /interactions.
func TestOpsOnTheHTTPListener(t *testing.T) {
	dc := discordtest.New(t)
	addr := freeAddr(t)
	cancel, done, stderr := startBot(t, fakeEnv(dc, filepath.Join(t.TempDir(), "kulami.db"), map[string]string{
		"KULAMI_DISCORD_MODE":       "http",
		"KULAMI_DISCORD_PUBLIC_KEY": dc.PublicKeyHex(),
		"KULAMI_HTTP_LISTEN":        addr,
	}))
	url := "http://" + addr
	require.Eventually(t, func() bool { code, _ := get(url + "/readyz"); return code == http.StatusOK }, hung, 10*time.Millisecond, "the bot is ready")
	_, body := get(url + "/readyz")
	assert.Equal(t, "ready\n", body)
	code, body := get(url + "/healthz")
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "ok\n", body)
	m := scrape(t, url)
	assert.Contains(t, m, "kulami_games_ended_total")
	assert.NotContains(t, m, "kulami_gateway_connected", "no gateway in http mode")
	assert.Equal(t, 1.0, m.sum("kulami_discord_requests_total", labels{"route": "/applications/{id}/guilds/{id}/commands"}), "the commands were registered")
	cancel()
	waitExit(t, done, stderr.String)
}
