package loadtest

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWebhookToken(t *testing.T) {
	cases := []struct {
		path, token string
	}{
		{"/api/v10/webhooks/1/tok", "tok"},
		{"/api/v10/webhooks/1/tok/messages/@original", "tok"},
		{"/api/v9/webhooks/1/tok/messages/55", "tok"},
		{"/api/v10/webhooks/1", ""},
		{"/api/v10/webhooks/1/", ""},
		{"/api/v10/channels/1/messages", ""},
		{"/webhooks/1/tok", ""},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			got, ok := webhookToken(c.path)
			assert.Equal(t, c.token, got)
			assert.Equal(t, c.token != "", ok)
		})
	}
}

// TestLatencyProxy checks that the proxy holds each request for its
// latency, forwards it, and tells the watcher of a webhook when the
// request was answered, but not the watchers of others.
func TestLatencyProxy(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
	}))
	defer backend.Close()
	const lat = 30 * time.Millisecond
	p, err := newLatencyProxy(backend.URL, lat, lat)
	require.NoError(t, err)
	defer p.Close()
	w, stop := p.watch("tok")
	defer stop()
	other, stopOther := p.watch("other")
	defer stopOther()

	start := time.Now()
	resp, err := http.Post(p.URL()+"/api/v10/webhooks/1/tok", "application/json", nil)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusTeapot, resp.StatusCode, "forwarded")
	assert.GreaterOrEqual(t, time.Since(start), lat, "held")
	select {
	case <-w.signal:
		assert.False(t, w.lastAnswer().Before(start.Add(lat)))
	default:
		t.Error("the watcher of the webhook was not told")
	}
	select {
	case <-other.signal:
		t.Error("the watcher of another webhook was told")
	default:
		assert.True(t, other.lastAnswer().IsZero())
	}
}
