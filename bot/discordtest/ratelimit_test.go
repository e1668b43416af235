package discordtest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// post sends a message to channel with the bot's token, as raw HTTP, and returns the answer's status,
// headers and body.
func post(t *testing.T, s *discordtest.Server, channel string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, s.APIURL()+"/channels/"+channel+"/messages", bytes.NewReader([]byte(`{"content":"hi"}`)))
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bot "+s.Token())
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, resp.Header, body
}

// TestRateLimitBuckets checks a route's limit as Discord keeps it: a bucket a channel, the
// X-RateLimit-* headers on every answer, a 429 with retry_after past the limit that changes nothing,
// and a request sent again before retry_after is a violation. The window is a minute, far longer than
// the test, so that no bucket resets while it runs.
func TestRateLimitBuckets(t *testing.T) {
	s := discordtest.New(t, discordtest.CollectViolations())
	a, b := s.AddChannel("a"), s.AddChannel("b")
	s.RateLimit("POST", "/channels/{channel_id}/messages", 2, time.Minute)

	for remaining := 1; remaining >= 0; remaining-- {
		status, h, _ := post(t, s, a.ID)
		require.Equal(t, http.StatusOK, status)
		assert.Equal(t, "2", h.Get("X-RateLimit-Limit"))
		assert.Equal(t, strconv.Itoa(remaining), h.Get("X-RateLimit-Remaining"))
		after, err := strconv.ParseFloat(h.Get("X-RateLimit-Reset-After"), 64)
		require.NoError(t, err)
		assert.InDelta(t, 60, after, 1, "the bucket resets a minute after its first request")
		reset, err := strconv.ParseFloat(h.Get("X-RateLimit-Reset"), 64)
		require.NoError(t, err)
		assert.InDelta(t, float64(time.Now().Add(time.Minute).Unix()), reset, 2, "reset is a Unix time")
		assert.NotEmpty(t, h.Get("X-RateLimit-Bucket"))
	}
	status, h, body := post(t, s, a.ID)
	require.Equal(t, http.StatusTooManyRequests, status)
	var limited discordtest.RateLimitedResponse
	require.NoError(t, json.Unmarshal(body, &limited))
	assert.False(t, limited.Global)
	assert.InDelta(t, 60, limited.RetryAfter, 1)
	assert.Equal(t, "60", h.Get("Retry-After"))
	assert.Equal(t, "0", h.Get("X-RateLimit-Remaining"))
	assert.Equal(t, "user", h.Get("X-RateLimit-Scope"))
	assert.Len(t, s.Messages(a.ID), 2, "the request limited changed nothing")
	assert.Empty(t, s.Violations(), "the first 429 is no fault of the bot's")

	status, _, _ = post(t, s, b.ID)
	assert.Equal(t, http.StatusOK, status, "another channel has a bucket of its own")

	status, _, _ = post(t, s, a.ID)
	assert.Equal(t, http.StatusTooManyRequests, status)
	require.Len(t, s.Violations(), 1, "a request sent again before retry_after")
	assert.Contains(t, s.Violations()[0].Message, "retry_after")
}

// TestGlobalLimit checks the global limit: past it, every route answers 429 with global true and
// X-RateLimit-Global, and a request sent before its retry_after is a violation.
func TestGlobalLimit(t *testing.T) {
	s := discordtest.New(t, discordtest.CollectViolations())
	a, b := s.AddChannel("a"), s.AddChannel("b")
	s.GlobalLimit(1, time.Minute)
	status, _, _ := post(t, s, a.ID)
	require.Equal(t, http.StatusOK, status)
	status, h, body := post(t, s, b.ID)
	require.Equal(t, http.StatusTooManyRequests, status)
	var limited discordtest.RateLimitedResponse
	require.NoError(t, json.Unmarshal(body, &limited))
	assert.True(t, limited.Global)
	assert.Equal(t, "true", h.Get("X-RateLimit-Global"))
	assert.Equal(t, "global", h.Get("X-RateLimit-Scope"))
	assert.Empty(t, s.Violations())
	status, _, _ = post(t, s, a.ID)
	assert.Equal(t, http.StatusTooManyRequests, status)
	assert.Len(t, s.Violations(), 1, "a request sent during the global limit's retry_after")
}

// TestDiscordgoWaitsOutRateLimits checks that discordgo, the bot's client, waits out a 429's
// retry_after, a route's or the global one, and sends the request again, which then goes through: one
// message each, and no violation.
func TestDiscordgoWaitsOutRateLimits(t *testing.T) {
	for _, global := range []bool{false, true} {
		t.Run(map[bool]string{false: "route", true: "global"}[global], func(t *testing.T) {
			s := discordtest.New(t)
			ch := s.AddChannel("games")
			s.RateLimited("POST", "/channels/{channel_id}/messages", 20*time.Millisecond, global, 2)
			m, err := s.Session().ChannelMessageSend(ch.ID, "hello")
			require.NoError(t, err)
			assert.Len(t, s.Messages(ch.ID), 1)
			assert.Equal(t, m.ID, s.Messages(ch.ID)[0].ID)
			var statuses []int
			for _, r := range s.RequestsTo("POST", "/channels/{channel_id}/messages") {
				statuses = append(statuses, r.Status)
			}
			assert.Equal(t, []int{429, 429, 200}, statuses)
			checkAnswers(t, s)
		})
	}
}
