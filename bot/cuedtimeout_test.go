package bot

import (
	"context"
	"net/http"
	"regexp"
	"strings"
	"sync"
)

// CuedTimeouts makes the bot's REST requests that a test picks run out of
// time when the test says (Expire), as they do on the client's Timeout
// when Discord is slower than it: the request ends with a deadline
// exceeded, the error the bot sees then. A test of a slow Discord holds
// the request at the fake (discordtest's Hold), waits until it is held,
// and expires it; no other request can time out, and this one cannot come
// back in time, however slow or loaded the machine. It is safe for
// concurrent use.
type CuedTimeouts struct {
	picks func(*http.Request) bool
	mu    sync.Mutex
	live  map[*http.Request]context.CancelCauseFunc // the picked requests under way
}

// NewCuedTimeouts returns the timeouts of the requests picks reports true
// of.
func NewCuedTimeouts(picks func(*http.Request) bool) *CuedTimeouts {
	return &CuedTimeouts{picks: picks, live: map[*http.Request]context.CancelCauseFunc{}}
}

// Wrap returns next with the timeouts: the bot's session's transport.
func (c *CuedTimeouts) Wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if !c.picks(r) {
			return next.RoundTrip(r)
		}
		ctx, cancel := context.WithCancelCause(r.Context())
		r = r.WithContext(ctx)
		c.mu.Lock()
		c.live[r] = cancel
		c.mu.Unlock()
		defer func() {
			c.mu.Lock()
			delete(c.live, r)
			c.mu.Unlock()
		}()
		return next.RoundTrip(r)
	})
}

// Expire makes the picked requests under way run out of time, and returns
// how many there were.
func (c *CuedTimeouts) Expire() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cancel := range c.live {
		cancel(context.DeadlineExceeded)
	}
	return len(c.live)
}

// roundTripFunc is a function that is an http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// RequestTo returns whether a request is a call of Discord's API with
// method to route, as discordtest names routes
// ("/channels/{channel_id}/messages").
func RequestTo(method, route string) func(*http.Request) bool {
	params := regexp.MustCompile(`\\\{[a-z_]+\\\}`)
	path := regexp.MustCompile(`^/api/v\d+` + params.ReplaceAllString(regexp.QuoteMeta(route), `[^/]+`) + `$`)
	return func(r *http.Request) bool { return r.Method == strings.ToUpper(method) && path.MatchString(r.URL.Path) }
}
