package discordtest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// maxBody is the largest request body the fake reads (Discord's upload limit for bots is 25 MiB).
const maxBody = 25 << 20

// call is one REST request being served.
type call struct {
	method  string
	path    string // relative to the API root
	version string // "9" or "10"
	route   string
	params  map[string]string
	query   url.Values
	body    []byte // the JSON body, or the payload_json part of a multipart body; nil if none
	user    string // the user whose Bearer token the request carries; "" for the bot's
	files   []File
	// arrived is when the request reached the fake, by the system clock and by the fake's (Now),
	// before any Delay or Hold: Discord judges a deadline by when a request reaches it, however long
	// it then takes to answer.
	arrived, arrivedNow time.Time
	// lost: handled, but the bot gets lostWith instead of the answer, or a broken connection if its
	// Status is 0 (LoseResponses).
	lost     bool
	lostWith APIError
	headers  http.Header // of the answer (the rate limit's)
}

// reply is what a handler answers: a status and a JSON-marshalable body (nil for none).
type reply struct {
	status int
	body   any
}

func jsonOK(body any) reply { return reply{http.StatusOK, body} }
func created(b any) reply   { return reply{http.StatusCreated, b} }
func noContent() reply      { return reply{status: http.StatusNoContent} }
func fail(e APIError) reply { return reply{e.Status, e} }

// handler serves one operation; it runs with s.mu held.
type handler func(s *Server, c *call) reply

// endpoint is one operation the fake implements: its key, "METHOD /route/{template}" with the route
// as Discord's OpenAPI description spells it, and its handler.
type endpoint struct {
	key   string
	serve handler
}

// endpointTables are the operations the fake implements, a table for each concept.
var endpointTables = [][]endpoint{channelEndpoints, messageEndpoints, interactionEndpoints, commandEndpoints, eventEndpoints, roleConnectionEndpoints}

// endpoints returns the fake's handlers by key.
func endpoints() map[string]handler {
	m := map[string]handler{}
	for _, table := range endpointTables {
		for _, e := range table {
			m[e.key] = e.serve
		}
	}
	return m
}

// APIError is an error answer in Discord's shape, for failure injection and the fake's own refusals.
type APIError struct {
	Status  int    `json:"-"`
	Code    int    `json:"code"`
	Message string `json:"message"`
}

func (e APIError) Error() string {
	return fmt.Sprintf("HTTP %d, {\"code\": %d, \"message\": %q}", e.Status, e.Code, e.Message)
}

// Errors that Discord answers and that tests may inject with Fail.
var (
	ErrMissingAccess       = APIError{Status: 403, Code: 50001, Message: "Missing Access"}
	ErrMissingPermissions  = APIError{Status: 403, Code: 50013, Message: "Missing Permissions"}
	ErrCannotSendToUser    = APIError{Status: 403, Code: 50007, Message: "Cannot send messages to this user"}
	ErrUnknownChannel      = APIError{Status: 404, Code: 10003, Message: "Unknown Channel"}
	ErrUnknownMessage      = APIError{Status: 404, Code: 10008, Message: "Unknown Message"}
	ErrUnknownInteraction  = APIError{Status: 404, Code: 10062, Message: "Unknown interaction"}
	ErrAlreadyAcknowledged = APIError{Status: 400, Code: 40060, Message: "Interaction has already been acknowledged."}
	ErrInvalidWebhookToken = APIError{Status: 401, Code: 50027, Message: "Invalid Webhook Token"}
	ErrServerError         = APIError{Status: 500, Code: 0, Message: "500: Internal Server Error"}
	ErrBadGateway          = APIError{Status: 502, Code: 0, Message: "502: Bad Gateway"}

	errNotFound       = APIError{Status: 404, Code: 0, Message: "404: Not Found"}
	errMethod         = APIError{Status: 405, Code: 0, Message: "405: Method Not Allowed"}
	errUnauthorized   = APIError{Status: 401, Code: 0, Message: "401: Unauthorized"}
	errInvalidBody    = APIError{Status: 400, Code: 50035, Message: "Invalid Form Body"}
	errEmptyMessage   = APIError{Status: 400, Code: 50006, Message: "Cannot send an empty message"}
	errUnknownGuild   = APIError{Status: 404, Code: 10004, Message: "Unknown Guild"}
	errUnknownMember  = APIError{Status: 404, Code: 10007, Message: "Unknown Member"}
	errUnknownUser    = APIError{Status: 404, Code: 10013, Message: "Unknown User"}
	errUnknownWebhook = APIError{Status: 404, Code: 10015, Message: "Unknown Webhook"}
	errNotAuthor      = APIError{Status: 403, Code: 50005, Message: "Cannot edit a message authored by another user"}
	errNotYourApp     = APIError{Status: 403, Code: 20012, Message: "You are not authorized to perform this action on this application"}
	errThreadExists   = APIError{Status: 400, Code: 160004, Message: "A thread has already been created for this message"}
	errNotImplemented = APIError{Status: 501, Code: 0, Message: "discordtest: route not implemented by the fake"}
)

// failure is an injected error answer or delay.
type failure struct {
	method, route string // route is a template or a concrete path
	err           APIError
	delay         time.Duration
	hold          *Held // holds the request until released (Hold)
	left          int   // answers left; <0 for unlimited
}

// Fail makes the fake answer err to the next times requests with the given method whose route template
// (e.g. "/channels/{channel_id}/messages") or concrete path (e.g. "/channels/123/messages") is route;
// times <= 0 means every such request until ClearFailures. The requests are still validated and recorded,
// but change nothing. For a 429, use RateLimited, which answers it as Discord does.
func (s *Server) Fail(method, route string, err APIError, times int) {
	s.inject(&s.failures, &failure{method: strings.ToUpper(method), route: route, err: err}, times)
}

// inject adds f to list, for the next times requests (times <= 0: every one until ClearFailures).
func (s *Server) inject(list *[]*failure, f *failure, times int) {
	f.left = times
	if times <= 0 {
		f.left = -1
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	*list = append(*list, f)
}

// Delay makes the fake wait d before it answers the next times requests with the given method and route
// (a template or a concrete path, as for Fail); times <= 0 means every such request until ClearFailures.
// It stands for a slow or rate-limited Discord: the request is then handled as usual.
func (s *Server) Delay(method, route string, d time.Duration, times int) {
	s.inject(&s.delays, &failure{method: strings.ToUpper(method), route: route, delay: d}, times)
}

// Hold holds the next times requests with the given method and route (as for Fail; times <= 0 means
// every such request until ClearFailures) until Release is called or the server closes. It stands for a
// Discord that stays slow for as long as a test needs: the requests are then handled as usual.
func (s *Server) Hold(method, route string, times int) *Held {
	if times <= 0 {
		times = -1
	}
	h := &Held{arrived: make(chan struct{}), released: make(chan struct{}), timeout: s.cfg.timeout}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.delays = append(s.delays, &failure{method: strings.ToUpper(method), route: route, hold: h, left: times})
	s.holds = append(s.holds, h)
	return h
}

// Held is the requests a Hold holds.
type Held struct {
	arrive, release   sync.Once
	arrived, released chan struct{}
	timeout           time.Duration // the server's WithTimeout
}

// Wait waits until a request is held.
func (h *Held) Wait(tb testing.TB) {
	tb.Helper()
	select {
	case <-h.arrived:
	case <-time.After(h.timeout):
		tb.Fatalf("discordtest: no request was held within %v", h.timeout)
	}
}

// Release lets the requests held go on, and those the Hold would hold from now on.
func (h *Held) Release() { h.release.Do(func() { close(h.released) }) }

// wait holds a request until it is released.
func (h *Held) wait() {
	h.arrive.Do(func() { close(h.arrived) })
	<-h.released
}

// LoseResponses makes the fake handle the next times requests with the given method and route (as for
// Fail; times <= 0 means every such request until ClearFailures) as usual, then answer err instead, or
// with a zero err break the connection: Discord did what the request asked, but the bot sees an error,
// as when its HTTP client times out, the connection breaks after the request was sent, or a proxy in
// front of Discord answers 502 (ErrBadGateway; discordgo sends the request again). A callback whose
// answer was lost acknowledged its interaction all the same: a second acknowledgement is answered 400
// Interaction has already been acknowledged (40060) without a violation, since the bot could not know.
func (s *Server) LoseResponses(method, route string, err APIError, times int) {
	s.inject(&s.losses, &failure{method: strings.ToUpper(method), route: route, err: err}, times)
}

// ClearFailures removes every injected failure, delay, loss and 429 (RateLimited), and ends
// RejectCallbacks; the rate limits stay.
func (s *Server) ClearFailures() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures, s.delays, s.losses, s.rejections, s.limits.forced = nil, nil, nil, 0, nil
}

func (s *Server) injected(c *call) (APIError, bool) {
	if f := take(&s.failures, c.method, c.route, c.path); f != nil {
		return f.err, true
	}
	return APIError{}, false
}

// delayFor returns how long to hold a request to path before handling it, its Hold, if any, and
// whether to lose its answer (LoseResponses), then the answer instead.
func (s *Server) delayFor(method, path string) (time.Duration, *Held, *failure) {
	route := ""
	if rt, _ := s.spec.match(path); rt != nil {
		route = rt.template
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	lost := take(&s.losses, method, route, path)
	if f := take(&s.delays, method, route, path); f != nil {
		return f.delay, f.hold, lost
	}
	return 0, nil, lost
}

// take returns the first injection of list for a request, counting one
// use of it and dropping it when it is used up.
func take(list *[]*failure, method, route, path string) *failure {
	for i, f := range *list {
		if f.method != method || (f.route != route && f.route != path) {
			continue
		}
		if f.left > 0 {
			f.left--
			if f.left == 0 {
				*list = append((*list)[:i:i], (*list)[i+1:]...)
			}
		}
		return f
	}
	return nil
}

// serveUnknown answers requests outside the API, the gateway and the attachments.
func (s *Server) serveUnknown(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.violate(r.Method, r.URL.Path, "", "not a Discord API path (want /api/v9/... or /api/v10/...)")
	s.record(Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Status: errNotFound.Status})
	s.mu.Unlock()
	writeJSON(w, errNotFound.Status, errNotFound)
}

// serveREST validates, records and answers one API request.
func (s *Server) serveREST(w http.ResponseWriter, r *http.Request) {
	c := &call{method: r.Method, query: r.URL.Query(), arrived: time.Now(), arrivedNow: s.Now(), headers: w.Header()}
	rest, version := "", ""
	for _, v := range []string{"9", "10"} {
		if p, found := strings.CutPrefix(r.URL.Path, "/api/v"+v+"/"); found {
			rest, version = "/"+p, v
		}
	}
	if version == "" {
		s.serveUnknown(w, r)
		return
	}
	c.path, c.version = rest, version
	raw, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	var problems []string
	if err != nil {
		problems = append(problems, fmt.Sprintf("read body: %v", err))
	}
	if len(raw) > maxBody {
		problems = append(problems, "body larger than 25 MiB")
	}
	multi := false
	if len(raw) > 0 {
		mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("Content-Type %q: %v", r.Header.Get("Content-Type"), err))
		case mt == "application/json":
			c.body = raw
		case mt == "multipart/form-data":
			multi = true
			c.body, c.files, err = readMultipart(raw, params["boundary"])
			if err != nil {
				problems = append(problems, err.Error())
			}
		default:
			problems = append(problems, fmt.Sprintf("unsupported Content-Type %q", mt))
		}
	}

	d, hold, lost := s.delayFor(c.method, c.path)
	if lost != nil {
		c.lost, c.lostWith = true, lost.err
	}
	if d > 0 {
		time.Sleep(d)
	}
	if hold != nil {
		hold.wait()
	}
	s.awaitHTTPAnswer(c.path)
	s.mu.Lock()
	defer s.mu.Unlock()
	rep := s.serveCall(c, r.Header.Get("Authorization"), multi, problems)
	var out []byte
	if rep.body != nil {
		out, err = json.Marshal(rep.body)
		if err != nil {
			panic(fmt.Sprintf("discordtest: marshal answer to %s %s: %v", c.method, c.path, err))
		}
	}
	s.record(Request{Method: c.method, Path: c.path, Query: c.query, Route: c.route, Body: c.body, Files: c.files, Status: rep.status, Response: out})
	s.notify()
	switch {
	case c.lost && c.lostWith.Status == 0:
		breakConnection(w)
	case c.lost:
		writeJSON(w, c.lostWith.Status, c.lostWith)
	default:
		writeRaw(w, rep.status, out)
	}
}

// breakConnection closes the connection of a request without an answer (LoseResponses).
func breakConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(fmt.Sprintf("discordtest: lose an answer: %v", err))
	}
	_ = conn.Close()
}

// serveCall checks the request against the spec, then answers an injected failure or the handler's reply.
func (s *Server) serveCall(c *call, auth string, multi bool, problems []string) reply {
	rt, params := s.spec.match(c.path)
	if rt == nil {
		s.violate(c.method, c.path, "", "no such route in Discord's OpenAPI description")
		return fail(errNotFound)
	}
	c.route, c.params = rt.template, params
	op := rt.ops[c.method]
	if op == nil {
		methods := make([]string, 0, len(rt.ops))
		for m := range rt.ops {
			methods = append(methods, m)
		}
		sort.Strings(methods)
		s.violate(c.method, c.path, c.route, fmt.Sprintf("method %s not allowed (the route has %s)", c.method, strings.Join(methods, ", ")))
		return fail(errMethod)
	}
	if bearer, ok := strings.CutPrefix(auth, "Bearer "); ok {
		if e, ok := s.bearer(c, op, bearer); !ok {
			return fail(e)
		}
	} else if want := "Bot " + s.token; (op.needsBot && auth != want) || (auth != "" && auth != want) || (auth == want && !op.botOK) {
		s.violate(c.method, c.path, c.route, "missing or wrong Authorization header (want \"Bot \" + Server.Token, or a user's Bearer token where the route takes OAuth2)")
		return fail(errUnauthorized)
	}
	names := make([]string, 0, len(params))
	for name := range params {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if ptr, ok := op.pathParams[name]; ok {
			if err := s.spec.validateParam(ptr, params[name]); err != nil {
				problems = append(problems, fmt.Sprintf("path parameter %s=%q: %v", name, params[name], err))
			}
		}
	}
	problems = append(problems, s.spec.checkQuery(op, c.query)...)
	switch {
	case multi && !op.multipart:
		problems = append(problems, "multipart/form-data body, but the route takes only JSON")
	case op.bodyPointer == "" && c.body != nil:
		problems = append(problems, "the route takes no body")
	case op.bodyPointer != "" && c.body == nil && op.bodyRequired && !multi:
		problems = append(problems, "missing request body")
	case op.bodyPointer != "" && c.body != nil:
		if err := s.spec.validateJSON(op.bodyPointer, docAllowance(c.route, c.body)); err != nil {
			what := "body"
			if multi {
				what = "payload_json"
			}
			problems = append(problems, fmt.Sprintf("%s does not match the route's schema:\n%v", what, err))
		}
	}
	if len(problems) > 0 {
		for _, p := range problems {
			s.violate(c.method, c.path, c.route, p)
		}
		return fail(errInvalidBody)
	}
	if rep, limited := s.rateLimit(c, time.Now(), c.headers); limited {
		return rep
	}
	if e, ok := s.injected(c); ok {
		return fail(e)
	}
	if ch := s.channels[c.params["channel_id"]]; ch != nil && ch.foreign {
		return s.refuse(c, ErrMissingAccess, fmt.Sprintf("channel %s is a DM, group DM or server the bot is not in; it can only answer interactions there", ch.id))
	}
	s.archiveQuietThreads()
	h := s.handlers[c.method+" "+c.route]
	if h == nil {
		s.violate(c.method, c.path, c.route, "route not implemented by discordtest (add a handler)")
		return fail(errNotImplemented)
	}
	return h(s, c)
}

// readMultipart splits a multipart body into its payload_json part and its files[n] parts.
func readMultipart(body []byte, boundary string) ([]byte, []File, error) {
	if boundary == "" {
		return nil, nil, fmt.Errorf("multipart body without boundary")
	}
	mr := multipart.NewReader(bytes.NewReader(body), boundary)
	var payload []byte
	var files []File
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("multipart body: %w", err)
		}
		data, err := io.ReadAll(p)
		if err != nil {
			return nil, nil, fmt.Errorf("multipart part %q: %w", p.FormName(), err)
		}
		switch name := p.FormName(); {
		case name == "payload_json":
			payload = data
		case strings.HasPrefix(name, "files[") && strings.HasSuffix(name, "]"):
			files = append(files, File{Name: p.FileName(), ContentType: p.Header.Get("Content-Type"), Data: data})
		default:
			return nil, nil, fmt.Errorf("multipart part %q is neither payload_json nor files[n] (discordtest reads only those)", name)
		}
	}
	if payload == nil {
		return nil, nil, fmt.Errorf("multipart body without a payload_json part")
	}
	return payload, files, nil
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("discordtest: marshal answer: %v", err))
	}
	writeRaw(w, status, b)
}

func writeRaw(w http.ResponseWriter, status int, body []byte) {
	if body != nil {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(status)
	_, _ = w.Write(body)
}
