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
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/bwmarrin/discordgo"
)

// latencyProxy stands between the bot and the fake Discord: it holds every
// REST request for a random time in [min, max] before the fake serves it,
// as a distant Discord would, and tells watchers which messages the bot
// wrote: those of an interaction's webhook (its response, followups) and
// those of a channel. It notes every board the bot posted, and injects
// the REST faults of a run (see injectREST). It is safe for concurrent use.
type latencyProxy struct {
	min, max time.Duration
	next     *httputil.ReverseProxy
	srv      *httptest.Server
	closing  chan struct{} // closed by Close: held requests end
	faults   atomic.Pointer[restFaults]

	mu      sync.Mutex
	watches map[string]*watch // by interaction token or channel ID
	tokens  map[string]string // the channel of each interaction token watched
	boards  []postedBoard     // the boards posted, in order
	storm   map[string]string // the reviews and replays posted: message ID → kind
}

// restFaults are the faults the proxy injects into the bot's REST calls.
type restFaults struct {
	kind string          // faultDiscord500 or faultDiscordHang
	rate float64         // the share of calls hit
	over <-chan struct{} // closed when the fault ends: none after
	log  *faultLog
}

// postedBoard is a board the bot posted in a channel.
type postedBoard struct {
	channel string
	game    uint64 // from the custom IDs of its components
	ply     int    // the ply it shows
	over    bool   // it shows the end of its game
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
	p := &latencyProxy{min: min, max: max, next: next, closing: make(chan struct{}),
		watches: map[string]*watch{}, tokens: map[string]string{}, storm: map[string]string{}}
	next.ModifyResponse = p.noteMessage
	p.srv = httptest.NewServer(p)
	return p, nil
}

// URL is the base URL that stands for the fake's.
func (p *latencyProxy) URL() string { return p.srv.URL }

// Close stops the proxy.
func (p *latencyProxy) Close() {
	close(p.closing)
	p.srv.Close()
}

// injectREST makes the proxy fail the share rate of the bot's REST calls
// until over is closed, the way kind says: faultDiscord500 answers 500 Internal
// Server Error at once, faultDiscordHang holds the call without answering
// until the bot gives up on it; neither reaches the fake. Each goes to
// log, with the channel it was for.
func (p *latencyProxy) injectREST(kind string, rate float64, over <-chan struct{}, log *faultLog) {
	p.faults.Store(&restFaults{kind: kind, rate: rate, over: over, log: log})
}

// ServeHTTP delays and forwards one request, or fails it.
func (p *latencyProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d := p.min
	if p.max > p.min {
		d += rand.N(p.max - p.min + 1)
	}
	time.Sleep(d)
	if f := p.faults.Load(); f != nil && !closed(f.over) && rand.Float64() < f.rate {
		p.fail(w, r, f)
		return
	}
	p.next.ServeHTTP(w, r)
}

// closed reports whether c is closed.
func closed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// fail serves the fault f to the request r.
func (p *latencyProxy) fail(w http.ResponseWriter, r *http.Request, f *restFaults) {
	from := time.Now()
	if f.kind == faultDiscordHang {
		// Read to its end, a request's context ends when the client
		// closes the connection.
		_, _ = io.Copy(io.Discard, r.Body)
		select {
		case <-r.Context().Done(): // the bot gave up
		case <-p.closing:
		}
	} else {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"message": "500: Internal Server Error", "code": 0}`)
	}
	f.log.struck(p.channelOf(r.URL.Path), from, time.Now())
}

// channelOf is the channel a REST call is for, or "-" if it is not known
// (an interaction nobody watched, a call of no channel).
func (p *latencyProxy) channelOf(path string) string {
	key, ok := watchKey(path)
	if !ok {
		return "-"
	}
	if strings.Contains(path, "/webhooks/") {
		p.mu.Lock()
		defer p.mu.Unlock()
		if ch, ok := p.tokens[key]; ok {
			return ch
		}
		return "-"
	}
	return key
}

// noteMessage notes the board or the storm's message the fake has just
// stored, if it is one, and tells the watcher of a request's interaction
// or channel about the message, if any.
func (p *latencyProxy) noteMessage(resp *http.Response) error {
	now := time.Now()
	key, ok := watchKey(resp.Request.URL.Path)
	if !ok || resp.StatusCode/100 != 2 || resp.Request.Method == http.MethodGet {
		return nil
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return err
	}
	var m discordgo.Message
	if json.Unmarshal(body, &m) != nil || m.ID == "" {
		return nil
	}
	p.mu.Lock()
	p.noteBoard(&m, resp.Request.Method)
	w := p.watches[key]
	p.mu.Unlock()
	if w == nil {
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

// lastMove reads the ply a board shows from its text ("Move 12: … played
// **D4**."), with the hole played; 0 and "" before the first move.
var lastMove = regexp.MustCompile(`Move (\d+): .* played \*\*([^*]+)\*\*`)

// noteBoard notes m, a message the bot wrote with method, if it is a new
// board, or a review or a replay. p.mu is held.
func (p *latencyProxy) noteBoard(m *discordgo.Message, method string) {
	switch {
	case len(m.Attachments) > 0 && strings.HasSuffix(m.Attachments[0].Filename, ".gif"):
		p.storm[m.ID] = faultGIFs
	case strings.HasPrefix(m.Content, "**Review of game #"):
		p.storm[m.ID] = faultReviews
	case method != http.MethodPost || len(m.Attachments) == 0 || m.Attachments[0].Filename != "board.png":
		return
	}
	b := postedBoard{channel: m.ChannelID, over: strings.Contains(m.Content, "**Game over.**")}
	if sub := lastMove.FindStringSubmatch(m.Content); sub != nil {
		b.ply, _ = strconv.Atoi(sub[1])
	}
	b.game = componentsGame(m.Components)
	if b.game != 0 {
		p.boards = append(p.boards, b)
	}
}

// componentsGame is the game the custom IDs of a message's components
// name (kulami:<action>:<channel>:<game>:...), or 0.
func componentsGame(components []discordgo.MessageComponent) uint64 {
	for _, c := range components {
		row, ok := c.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range row.Components {
			var id string
			switch c := c.(type) {
			case *discordgo.Button:
				id = c.CustomID
			case *discordgo.SelectMenu:
				id = c.CustomID
			}
			if parts := strings.Split(id, ":"); len(parts) >= 4 {
				if game, err := strconv.ParseUint(parts[3], 10, 64); err == nil {
					return game
				}
			}
		}
	}
	return 0
}

// posted returns the boards posted so far, and how many reviews and
// replays.
func (p *latencyProxy) posted() (boards []postedBoard, reviews, gifs int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, kind := range p.storm {
		if kind == faultReviews {
			reviews++
		} else {
			gifs++
		}
	}
	return slices.Clone(p.boards), reviews, gifs
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
	p.tokens[token] = channel
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
