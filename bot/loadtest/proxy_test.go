package loadtest

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWatchKey(t *testing.T) {
	cases := []struct {
		path, key string
	}{
		{"/api/v10/webhooks/1/tok", "tok"},
		{"/api/v10/webhooks/1/tok/messages/@original", "tok"},
		{"/api/v9/webhooks/1/tok/messages/55", "tok"},
		{"/api/v10/channels/7/messages", "7"},
		{"/api/v10/channels/7/messages/55", "7"},
		{"/api/v10/webhooks/1", ""},
		{"/api/v10/webhooks/1/", ""},
		{"/api/v10/channels/7", ""},
		{"/api/v10/channels/7/threads", ""},
		{"/api/v10/channels//messages", ""},
		{"/webhooks/1/tok", ""},
	}
	for _, c := range cases {
		t.Run(c.path, func(t *testing.T) {
			got, ok := watchKey(c.path)
			assert.Equal(t, c.key, got)
			assert.Equal(t, c.key != "", ok)
		})
	}
}

// TestLatencyProxy checks that the proxy holds each request for its
// latency, forwards it unchanged, and tells the watcher of an interaction
// or channel which messages were written for it, and no one else.
func TestLatencyProxy(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case strings.HasSuffix(r.URL.Path, "/nothing"):
			w.WriteHeader(http.StatusNoContent)
		case r.Method == http.MethodGet:
			io.WriteString(w, `{"id":"read"}`)
		case strings.Contains(r.URL.Path, "/channels/"):
			io.WriteString(w, `{"id":"m2","content":"x"}`)
		default:
			io.WriteString(w, `{"id":"m1","content":"x"}`)
		}
	}))
	defer backend.Close()
	const lat = 30 * time.Millisecond
	p, err := newLatencyProxy(backend.URL, lat, lat)
	require.NoError(t, err)
	defer p.Close()
	w, stop := p.watch("tok", "7")
	defer stop()
	other, stopOther := p.watch("other", "8")
	defer stopOther()

	do := func(method, path string) string {
		req, err := http.NewRequest(method, p.URL()+path, nil)
		require.NoError(t, err)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return string(b)
	}
	start := time.Now()
	assert.Equal(t, `{"id":"m1","content":"x"}`, do("POST", "/api/v10/webhooks/1/tok"), "forwarded unchanged")
	assert.GreaterOrEqual(t, time.Since(start), lat, "held")
	do("PATCH", "/api/v10/channels/7/messages/m2")
	do("POST", "/api/v10/webhooks/1/tok/nothing")
	do("GET", "/api/v10/webhooks/1/tok/messages/@original")

	select {
	case <-w.signal:
	default:
		t.Error("the watcher was not told")
	}
	ids, written := w.messages()
	assert.Equal(t, []string{"m2", "m1"}, ids, "newest first; no reads, nothing without an ID")
	assert.False(t, written["m1"].Before(start.Add(lat)), "stored after the latency")
	assert.True(t, written["m2"].After(written["m1"]))

	select {
	case <-other.signal:
		t.Error("the watcher of another interaction was told")
	default:
	}
	ids, _ = other.messages()
	assert.Empty(t, ids)
}
