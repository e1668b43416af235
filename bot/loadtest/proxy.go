package loadtest

import (
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
// as a distant Discord would, and tells the watchers of an interaction
// when a request on its webhook (a followup or an edit of its response)
// has been answered. It is safe for concurrent use.
type latencyProxy struct {
	min, max time.Duration
	next     *httputil.ReverseProxy
	srv      *httptest.Server

	mu      sync.Mutex
	watches map[string]*watch // by interaction token
}

// watch is what the proxy tells the watcher of one interaction.
type watch struct {
	signal chan struct{} // has a value when last changed since it was read
	mu     sync.Mutex
	last   time.Time // when the last request on the webhook was answered
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
	if token, ok := webhookToken(r.URL.Path); ok {
		p.mu.Lock()
		wt := p.watches[token]
		p.mu.Unlock()
		if wt != nil {
			wt.mu.Lock()
			wt.last = time.Now()
			wt.mu.Unlock()
			select {
			case wt.signal <- struct{}{}:
			default:
			}
		}
	}
}

// webhookToken returns the interaction token of a request on an
// interaction's webhook: /api/v10/webhooks/{application}/{token}[/...].
func webhookToken(path string) (string, bool) {
	parts := strings.Split(path, "/") // "", "api", "v10", "webhooks", app, token, ...
	if len(parts) < 6 || parts[1] != "api" || parts[3] != "webhooks" || parts[5] == "" {
		return "", false
	}
	return parts[5], true
}

// watch starts watching the webhook of the interaction with token; call
// the returned stop when done.
func (p *latencyProxy) watch(token string) (w *watch, stop func()) {
	w = &watch{signal: make(chan struct{}, 1)}
	p.mu.Lock()
	p.watches[token] = w
	p.mu.Unlock()
	return w, func() {
		p.mu.Lock()
		delete(p.watches, token)
		p.mu.Unlock()
	}
}

// lastAnswer is when the last request on the webhook was answered, or the
// zero time.
func (w *watch) lastAnswer() time.Time {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.last
}
