package metrics

import (
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Transport returns next (http.DefaultTransport if nil) counting every
// request in kulami_discord_requests_total and its time in
// kulami_discord_request_seconds, by route template (see Route), and the
// 429s in kulami_discord_rate_limited_total: set it as the Transport of
// the discordgo Session's Client.
func (m *Metrics) Transport(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return roundTripper(func(r *http.Request) (*http.Response, error) {
		route := Route(r.URL.Path)
		start := time.Now()
		resp, err := next.RoundTrip(r)
		m.requestTime.WithLabelValues(route).Observe(time.Since(start).Seconds())
		status := "error"
		if err == nil {
			status = strconv.Itoa(resp.StatusCode)
			if resp.StatusCode == http.StatusTooManyRequests {
				m.limited.WithLabelValues(route, scope(resp.Header.Get("X-RateLimit-Scope"))).Inc()
			}
		}
		m.requests.WithLabelValues(r.Method, route, status).Inc()
		return resp, err
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// scope returns a 429's X-RateLimit-Scope as a label: one of Discord's
// three, or unknown.
func scope(s string) string {
	switch s {
	case "user", "global", "shared":
		return s
	}
	return "unknown"
}

// Route returns the template of a Discord REST path, as a label of few
// values: the part after the API version (/api/v10), with every ID
// replaced by {id} and every other segment that is not a plain word of
// the API (a token, an emoji) by {token}, so that
// /api/v10/webhooks/123/abc…/messages/@original is
// /webhooks/{id}/{token}/messages/@original.
func Route(path string) string {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	for i, s := range segs {
		if len(s) > 1 && s[0] == 'v' && allDigits(s[1:]) { // the API version: what follows is the route
			segs = segs[i+1:]
			break
		}
	}
	var b strings.Builder
	for _, s := range segs {
		b.WriteByte('/')
		switch {
		case allDigits(s):
			b.WriteString("{id}")
		case isWord(s):
			b.WriteString(s)
		default:
			b.WriteString("{token}")
		}
	}
	if b.Len() == 0 {
		return "/"
	}
	return b.String()
}

func allDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// isWord reports whether s may be a fixed segment of a Discord route:
// lower-case letters and hyphens, perhaps after an @ (@me, @original),
// and short (a token is long).
func isWord(s string) bool {
	s = strings.TrimPrefix(s, "@")
	if s == "" || len(s) > 24 {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && r != '-' {
			return false
		}
	}
	return true
}
