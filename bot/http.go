package bot

import (
	"crypto/ed25519"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
)

// maxBody is the largest interaction body the endpoint reads.
const maxBody = 1 << 20

// maxSkew is how far the signature timestamp may be from now.
const maxSkew = 5 * time.Minute

// ParsePublicKey reads the application's public key as the Developer
// Portal shows it (64 hex digits).
func ParsePublicKey(s string) (ed25519.PublicKey, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != ed25519.PublicKeySize {
		return nil, fmt.Errorf("the public key must be the 64 hex digits the Developer Portal shows under General Information")
	}
	return ed25519.PublicKey(b), nil
}

// HTTPHandler returns the http-mode endpoint: POST /interactions receives
// interactions signed with key (bad or missing signature or a stale
// timestamp: 401; a body over 1 MiB: 413), answers PING, and feeds every
// other interaction to the same handlers as the gateway; GET /healthz
// answers 200 while the bot runs; with Options.RoleLinks, GET
// /linked-roles and /linked-roles/callback serve its sign-in pages, which
// take no signature. Refused signatures are counted and
// logged at most once a minute (see refusals).
func (b *Bot) HTTPHandler(key ed25519.PublicKey) http.Handler {
	mux := http.NewServeMux()
	refused := &refusals{}
	mux.HandleFunc("POST /interactions", func(w http.ResponseWriter, r *http.Request) {
		b.serveInteraction(w, r, key, refused)
	})
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, "ok\n")
	})
	if b.opt.RoleLinks != nil {
		links := b.opt.RoleLinks.Handler()
		mux.Handle("GET "+roleLinksPath, links)
		mux.Handle("GET "+roleLinksCallback, links)
	}
	return mux
}

// refusalLogEvery is how often at most the endpoint logs the requests it
// refused for their signature: anyone can send those, as many as they
// like, and a line each would flood the log.
const refusalLogEvery = time.Minute

// refusals counts the requests refused for their signature, to log them
// at most once per refusalLogEvery: the first at once, then one line with
// the count since the line before, at the first refusal a minute or more
// after it. It is safe for concurrent use.
type refusals struct {
	mu     sync.Mutex
	count  int       // refused and not logged yet
	logged time.Time // when the last line was logged
}

// note counts a refusal at now and returns how many refusals to log now
// (this one and those not logged before), or 0 if the last line is less
// than refusalLogEvery old.
func (r *refusals) note(now time.Time) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.count++
	if !r.logged.IsZero() && now.Sub(r.logged) < refusalLogEvery {
		return 0
	}
	n := r.count
	r.count, r.logged = 0, now
	return n
}

func (b *Bot) serveInteraction(w http.ResponseWriter, r *http.Request, key ed25519.PublicKey, refused *refusals) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			http.Error(w, "request body too large", http.StatusRequestEntityTooLarge)
			return
		}
		http.Error(w, "cannot read the request body", http.StatusBadRequest)
		return
	}
	if err := verify(key, r.Header, body, time.Now()); err != nil {
		if n := refused.note(b.clock.Now()); n > 0 {
			b.log.Warn("interactions refused for their signature", "count", n, "remote", r.RemoteAddr, "reason", err)
		}
		http.Error(w, "invalid request signature", http.StatusUnauthorized)
		return
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(body, &i); err != nil {
		http.Error(w, "the body is not an interaction", http.StatusBadRequest)
		return
	}
	if i.Type == discordgo.InteractionPing {
		writeResponse(w, &discordgo.InteractionResponse{Type: discordgo.InteractionResponsePong})
		return
	}
	if now := time.Now(); !b.recent.first(i.ID, now) || !b.firstDelivery(r.Context(), i.ID, now) {
		// Delivered again (a retry, or a replay to this process or
		// another sharing the store): it was handled the first time, so
		// only acknowledge it, quietly, as the endpoint must answer.
		b.log.Info("interaction delivered again; it was handled already", "interaction", i.ID)
		writeResponse(w, &discordgo.InteractionResponse{Type: deferType(&i), Data: &discordgo.InteractionResponseData{Flags: discordgo.MessageFlagsEphemeral}})
		return
	}

	out := &httpResponse{w: w, written: make(chan struct{})}
	defer out.end()
	done := make(chan struct{})
	b.inflight.Add(1)
	go func() {
		defer b.inflight.Done()
		defer close(done)
		b.handle(b.baseCtx, b.session, &i, recipientsOf(body), out.write)
	}()
	// handle answers every interaction in time, deferring for slow
	// handlers, so the first response comes before done.
	select {
	case <-out.written:
	case <-done:
		err := out.write(&discordgo.InteractionResponse{
			Type: discordgo.InteractionResponseChannelMessageWithSource,
			Data: message{content: i18n.FromLocale(string(i.Locale)).T("error.generic"), ephemeral: true}.responseData(),
		})
		if !errors.Is(err, errAlreadyResponded) { // else it answered just before
			b.log.Error("handler finished without answering", "interaction", i.ID)
		}
	}
}

// httpResponse hands the first response to an interaction from its
// handler to the HTTP request that brought the interaction: the
// handler's goroutine writes it, while the request waits for written;
// once the request is over, writing fails. It is safe for concurrent use.
type httpResponse struct {
	mu      sync.Mutex
	w       http.ResponseWriter // nil once the request is over
	written chan struct{}       // closed once a response is written
}

// write writes resp as the HTTP response, once.
func (h *httpResponse) write(resp *discordgo.InteractionResponse) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	select {
	case <-h.written:
		return errAlreadyResponded
	default:
	}
	if h.w == nil {
		return errors.New("the HTTP request ended before the answer was written")
	}
	defer close(h.written)
	return writeResponse(h.w, resp)
}

// end ends the request, after a write under way: writes fail from now on.
func (h *httpResponse) end() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.w = nil
}

func writeResponse(w http.ResponseWriter, resp *discordgo.InteractionResponse) error {
	if resp.Data != nil && len(resp.Data.Files) > 0 {
		// Discord does not take files in the HTTP response; handlers send
		// images with editReply or followup instead.
		return errors.New("bot: files in an HTTP interaction response")
	}
	body, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(body)))
	_, err = w.Write(body)
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	return err
}

var (
	errNoSignature  = errors.New("missing X-Signature-Ed25519 or X-Signature-Timestamp")
	errBadSignature = errors.New("signature does not match")
	errStale        = errors.New("timestamp too old or in the future")
)

// verify checks Discord's signature of an interaction: Ed25519 over the
// timestamp header followed by the body, with a timestamp close to now.
func verify(key ed25519.PublicKey, h http.Header, body []byte, now time.Time) error {
	sigHex, ts := h.Get("X-Signature-Ed25519"), h.Get("X-Signature-Timestamp")
	if sigHex == "" || ts == "" {
		return errNoSignature
	}
	sig, err := hex.DecodeString(sigHex)
	if err != nil || len(sig) != ed25519.SignatureSize {
		return errBadSignature
	}
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errBadSignature
	}
	if d := now.Sub(time.Unix(sec, 0)); d > maxSkew || d < -maxSkew {
		return errStale
	}
	msg := make([]byte, 0, len(ts)+len(body))
	msg = append(append(msg, ts...), body...)
	if !ed25519.Verify(key, msg, sig) {
		return errBadSignature
	}
	return nil
}
