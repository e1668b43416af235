package loadtest

import (
	"bytes"
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"
)

// latencyProxy stands between the bot and the fake Discord: it holds every
// REST request for a random time in [min, max] before the fake serves it,
// as a distant Discord would, and tells watchers which messages the bot
// wrote: those of an interaction's webhook (its response, followups) and
// those of a channel. It is safe for concurrent use.
type latencyProxy struct {
	min, max time.Duration
	next     *httputil.ReverseProxy
	srv      *httptest.Server

	mu      sync.Mutex
	watches map[string]*watch // by interaction token or channel ID
}

// watch is what the proxy tells the watcher of an interaction.
type watch struct {
	signal chan struct{} // has a value when a message was written since it was read

	mu      sync.Mutex
	written map[string]time.Time // message ID → when the fake last stored it
	order   []string             // the message IDs, as first written
}

// newLatencyProxy starts a proxy to the fake at target; close it with
// Close.
func newLatencyProxy(target string, min, max time.Duration) (*latencyProxy, error) {
	u, err := url.Parse(target)
	if err != nil {
		return nil, err
	}
	next := httputil.NewSingleHostReverseProxy(u)
	// The proxy's own connections are not under test: keep them open
	// rather than dial one for every request, as two idle ones per host
	// (the default) would.
	next.Transport = &http.Transport{MaxIdleConnsPerHost: 1024, IdleConnTimeout: time.Minute}
	p := &latencyProxy{min: min, max: max, next: next, watches: map[string]*watch{}}
	next.ModifyResponse = p.noteMessage
	p.srv = httptest.NewServer(p)
	return p, nil
}

// URL is the base URL that stands for the fake's.
func (p *latencyProxy) URL() string { return p.srv.URL }

// Close stops the proxy.
func (p *latencyProxy) Close() { p.srv.Close() }

// ServeHTTP delays and forwards one request.
func (p *latencyProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d := p.min
	if p.max > p.min {
		d += rand.N(p.max - p.min + 1)
	}
	time.Sleep(d)
	p.next.ServeHTTP(w, r)
}

// noteMessage tells the watcher of a request's interaction or channel
// about the message the fake has just stored for it, if any.
func (p *latencyProxy) noteMessage(resp *http.Response) error {
	now := time.Now()
	key, ok := watchKey(resp.Request.URL.Path)
	if !ok || resp.StatusCode/100 != 2 || resp.Request.Method == http.MethodGet {
		return nil
	}
	p.mu.Lock()
	w := p.watches[key]
	p.mu.Unlock()
	if w == nil {
		return nil
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return err
	}
	var m struct {
		ID string `json:"id"`
	}
	if json.Unmarshal(body, &m) != nil || m.ID == "" {
		return nil
	}
	w.mu.Lock()
	if _, seen := w.written[m.ID]; !seen {
		w.order = append(w.order, m.ID)
	}
	w.written[m.ID] = now
	w.mu.Unlock()
	select {
	case w.signal <- struct{}{}:
	default:
	}
	return nil
}

// watchKey returns the key of a request that may write a message: the
// interaction token of /api/v10/webhooks/{application}/{token}[/...], or
// the channel of /api/v10/channels/{channel}/messages[/...].
func watchKey(path string) (string, bool) {
	parts := strings.Split(path, "/") // "", "api", "v10", "webhooks", app, token, ...
	if len(parts) < 6 || parts[1] != "api" || parts[5] == "" {
		return "", false
	}
	switch {
	case parts[3] == "webhooks":
		return parts[5], true
	case parts[3] == "channels" && parts[4] != "" && parts[5] == "messages":
		return parts[4], true
	}
	return "", false
}

// watch starts watching the messages written for the interaction with
// token, in channel; call the returned stop when done. A channel has one
// watcher at a time.
func (p *latencyProxy) watch(token, channel string) (w *watch, stop func()) {
	w = &watch{signal: make(chan struct{}, 1), written: map[string]time.Time{}}
	p.mu.Lock()
	p.watches[token], p.watches[channel] = w, w
	p.mu.Unlock()
	return w, func() {
		p.mu.Lock()
		delete(p.watches, token)
		delete(p.watches, channel)
		p.mu.Unlock()
	}
}

// messages returns the IDs of the messages written so far, newest first,
// with when each was last stored.
func (w *watch) messages() ([]string, map[string]time.Time) {
	w.mu.Lock()
	defer w.mu.Unlock()
	ids := make([]string, len(w.order))
	for k, id := range w.order {
		ids[len(ids)-1-k] = id
	}
	written := make(map[string]time.Time, len(w.written))
	for id, t := range w.written {
		written[id] = t
	}
	return ids, written
}
