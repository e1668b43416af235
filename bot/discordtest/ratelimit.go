package discordtest

import (
	"fmt"
	"hash/fnv"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Rate limits, as Discord keeps them (https://discord.com/developers/docs/topics/rate-limits): each
// route has buckets, one per value of its major parameter (a channel, a guild, a webhook), that let a
// number of requests through in a window; every answer of a limited route says how its bucket stands in
// the X-RateLimit-* headers (limit, remaining, reset as a Unix time, reset-after in seconds, the bucket's
// hash), and a request past the limit is answered 429 with retry_after (seconds) and global false. The
// global limit counts every request of the bot (Discord's is 50 a second) and answers 429 with global
// true and X-RateLimit-Global. Windows and waits run on the system's clock, as discordgo's do, so tests
// keep them short. A request sent to a bucket (or, after a global 429, to any route) before the
// retry_after it was answered had passed is a violation: Discord counts such requests against the bot
// and bans a client that keeps sending them. Limits are off until a test sets them.
type rateLimits struct {
	routes  map[string]limit // by "METHOD /template"
	global  limit            // zero: none
	buckets map[string]*bucket
	all     bucket     // the global bucket
	forced  []*failure // RateLimited's 429s to come
}

// limit is how many requests a window lets through.
type limit struct {
	n      int
	window time.Duration
}

// bucket is one window of a limit: when it began, the requests it let through, and until when a 429
// told the bot to wait.
type bucket struct {
	start    time.Time
	used     int
	waitTill time.Time
}

// majorParams are the path parameters that split a route's limit into buckets, as Discord's are.
var majorParams = []string{"channel_id", "guild_id", "webhook_id"}

// RateLimit limits the requests with method to route (a template of Discord's OpenAPI description) to n
// a window, in a bucket per major parameter, as Discord does; see rateLimits.
func (s *Server) RateLimit(method, route string, n int, window time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.limits.routes == nil {
		s.limits.routes = map[string]limit{}
	}
	s.limits.routes[strings.ToUpper(method)+" "+route] = limit{n, window}
}

// GlobalLimit limits every request of the bot to n a window, as Discord's global limit does.
func (s *Server) GlobalLimit(n int, window time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits.global = limit{n, window}
}

// RateLimited answers the next times requests with method and route (a template or a concrete path, as
// for Fail) 429, telling the bot to wait retryAfter (whole milliseconds, as discordgo reads them),
// globally if global: a limit reached at once, whatever the machine's speed. The request changes
// nothing; one sent again before retryAfter has passed is a violation.
func (s *Server) RateLimited(method, route string, retryAfter time.Duration, global bool, times int) {
	f := &failure{method: strings.ToUpper(method), route: route, delay: retryAfter.Truncate(time.Millisecond),
		err: APIError{Status: http.StatusTooManyRequests, Message: "You are being rate limited."}}
	if global {
		f.err.Code = 1 // marks a global 429 among the forced ones
	}
	s.inject(&s.limits.forced, f, times)
}

// RateLimitedResponse is the body of an answer 429, as Discord's OpenAPI description has it.
type RateLimitedResponse struct {
	Code       int     `json:"code"`
	Message    string  `json:"message"`
	RetryAfter float64 `json:"retry_after"`
	Global     bool    `json:"global"`
}

// rateLimit checks c, a request to a route of the description, against the limits at now, writes the
// X-RateLimit-* headers of its answer to h, and returns the 429 to answer instead, if any. It runs with
// s.mu held.
func (s *Server) rateLimit(c *call, now time.Time, h http.Header) (reply, bool) {
	l := &s.limits
	key := c.method + " " + c.route
	b := l.buckets[bucketID(c, key)]
	if _, limited := l.routes[key]; limited && b == nil {
		b = s.newBucket(c, key)
	}
	if l.all.waitTill.After(now) || (b != nil && b.waitTill.After(now)) {
		s.violate(c.method, c.path, c.route, "a request sent before the retry_after of a 429 had passed")
	}
	if f := take(&l.forced, c.method, c.route, c.path); f != nil {
		global := f.err.Code == 1
		till := now.Add(f.delay)
		if global {
			l.all.waitTill = till
		} else {
			if b == nil {
				b = s.newBucket(c, key)
			}
			b.waitTill = till
		}
		return tooMany(h, key, f.delay, global, 1), true
	}
	if g := l.global; g.n > 0 {
		if now.Sub(l.all.start) >= g.window {
			l.all.start, l.all.used = now, 0
		}
		if l.all.used >= g.n {
			wait := l.all.start.Add(g.window).Sub(now)
			l.all.waitTill = now.Add(wait.Truncate(time.Millisecond))
			return tooMany(h, "", wait, true, g.n), true
		}
		l.all.used++
	}
	lim, limited := l.routes[key]
	if !limited {
		return reply{}, false
	}
	if now.Sub(b.start) >= lim.window {
		b.start, b.used = now, 0
	}
	reset := b.start.Add(lim.window)
	if b.used >= lim.n {
		wait := reset.Sub(now)
		b.waitTill = now.Add(wait.Truncate(time.Millisecond))
		return tooMany(h, key, wait, false, lim.n), true
	}
	b.used++
	bucketHeaders(h, key, lim.n, lim.n-b.used, reset, reset.Sub(now))
	return reply{}, false
}

// bucketID names the bucket of c's route (key) and major parameter.
func bucketID(c *call, key string) string {
	id := key
	for _, p := range majorParams {
		if v, ok := c.params[p]; ok {
			id += " " + v
		}
	}
	return id
}

// newBucket makes the bucket of c's route (key) and major parameter.
func (s *Server) newBucket(c *call, key string) *bucket {
	if s.limits.buckets == nil {
		s.limits.buckets = map[string]*bucket{}
	}
	b := &bucket{}
	s.limits.buckets[bucketID(c, key)] = b
	return b
}

// tooMany writes the headers of an answer 429 and returns it: Retry-After in whole seconds (rounded
// up), the bucket's headers with nothing remaining for a route's limit, X-RateLimit-Global and Scope.
func tooMany(h http.Header, key string, wait time.Duration, global bool, n int) reply {
	wait = max(wait.Truncate(time.Millisecond), time.Millisecond)
	h.Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
	if global {
		h.Set("X-RateLimit-Global", "true")
		h.Set("X-RateLimit-Scope", "global")
		// discordgo holds every bucket until then only if it hears when.
		h.Set("X-RateLimit-Reset-After", seconds(wait))
	} else {
		h.Set("X-RateLimit-Scope", "user")
		bucketHeaders(h, key, n, 0, time.Now().Add(wait), wait)
	}
	return reply{http.StatusTooManyRequests, RateLimitedResponse{Message: "You are being rate limited.", RetryAfter: wait.Seconds(), Global: global}}
}

// bucketHeaders writes the X-RateLimit-* headers of a bucket of route key.
func bucketHeaders(h http.Header, key string, n, remaining int, reset time.Time, after time.Duration) {
	hash := fnv.New64a()
	hash.Write([]byte(key))
	h.Set("X-RateLimit-Limit", strconv.Itoa(n))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(remaining))
	h.Set("X-RateLimit-Reset", fmt.Sprintf("%.3f", float64(reset.UnixMilli())/1000))
	h.Set("X-RateLimit-Reset-After", seconds(after))
	h.Set("X-RateLimit-Bucket", strconv.FormatUint(hash.Sum64(), 16))
}

// seconds writes d in seconds with milliseconds, rounded up, as Discord does.
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.3f", math.Ceil(float64(d)/float64(time.Millisecond))/1000)
}
