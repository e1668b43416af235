package discordtest

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// callbackRoute is the route whose request body is an interaction response.
const callbackRoute = "/interactions/{interaction_id}/{interaction_token}/callback"

// Signature says how PostBody signs a request.
type Signature int

const (
	// SignValid signs the body with the application's key and the current time, as Discord does.
	SignValid Signature = iota
	// SignWrongKey signs with another key.
	SignWrongKey
	// SignTampered sends the signature of a different body.
	SignTampered
	// SignStale signs correctly, but with a timestamp ten minutes old.
	SignStale
	// SignNone sends neither X-Signature-Ed25519 nor X-Signature-Timestamp.
	SignNone
)

// PublicKey is the application's Ed25519 public key, with which the bot verifies interactions.
func (s *Server) PublicKey() ed25519.PublicKey { return s.key.Public().(ed25519.PublicKey) }

// PublicKeyHex is PublicKey in hex, as the developer portal shows it.
func (s *Server) PublicKeyHex() string { return hex.EncodeToString(s.PublicKey()) }

// Sign returns the hex signature Discord sends in X-Signature-Ed25519: the application's signature of
// timestamp followed by body.
func (s *Server) Sign(timestamp string, body []byte) string {
	return hex.EncodeToString(ed25519.Sign(s.key, append([]byte(timestamp), body...)))
}

// PostInteraction sends an interaction to the bot's HTTP interactions endpoint at url, signed as Discord
// signs it, and returns the bot's answer (its body can be read again). A 200 answer is validated against
// the spec's schema for an interaction response (for multipart, its payload_json) and recorded like a
// callback, so Response, Original and WaitResponse work in both modes; any other answer is a violation.
func (s *Server) PostInteraction(url string, i *discordgo.Interaction) (*http.Response, error) {
	s.mu.Lock()
	in := s.deliver(i)
	in.httpPending = true
	body := s.wireInteraction(i)
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		in.httpPending = false
		s.notify()
		s.mu.Unlock()
	}()

	start := time.Now()
	resp, err := s.PostBody(url, body, SignValid)
	if err != nil {
		return nil, err
	}
	elapsed := time.Since(start)
	out, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(out))
	if err != nil {
		return resp, err
	}

	c := &call{method: "POST", path: url + " (HTTP interaction response)", route: callbackRoute}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.notify()
	if resp.StatusCode != http.StatusOK {
		s.violate(c.method, c.path, c.route, fmt.Sprintf("answered HTTP %d; Discord expects 200 with an interaction response", resp.StatusCode))
		return resp, nil
	}
	if elapsed > s.cfg.ackDeadline {
		s.violate(c.method, c.path, c.route, fmt.Sprintf("answered after %v; Discord allows %v", elapsed.Round(time.Millisecond), s.cfg.ackDeadline))
	}
	mt, params, err := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	switch {
	case err != nil:
		s.violate(c.method, c.path, c.route, fmt.Sprintf("Content-Type %q: %v", resp.Header.Get("Content-Type"), err))
		return resp, nil
	case mt == "application/json":
		c.body = out
	case mt == "multipart/form-data":
		if c.body, c.files, err = readMultipart(out, params["boundary"]); err != nil {
			s.violate(c.method, c.path, c.route, err.Error())
			return resp, nil
		}
	default:
		s.violate(c.method, c.path, c.route, fmt.Sprintf("unsupported Content-Type %q", mt))
		return resp, nil
	}
	op := s.routeOp(callbackRoute, "POST")
	if err := s.spec.validateJSON(op.bodyPointer, c.body); err != nil {
		s.violate(c.method, c.path, c.route, fmt.Sprintf("interaction response does not match the schema:\n%v", err))
		return resp, nil
	}
	s.respond(in, c, true)
	return resp, nil
}

// awaitHTTPAnswer holds a webhook request for an interaction whose HTTP answer the fake is still
// reading, until it is recorded (at most the ack deadline). Discord has the answer as soon as the bot's
// server has written it, before the bot's next request arrives on another connection; the fake reads it
// a moment later, and without this wait that moment would look like a request before any response.
func (s *Server) awaitHTTPAnswer(path string) {
	parts := strings.Split(path, "/") // "", "webhooks", id, token, ...
	if len(parts) < 4 || parts[1] != "webhooks" {
		return
	}
	deadline := time.NewTimer(s.cfg.ackDeadline)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		i := s.byToken[parts[3]]
		pending := i != nil && i.httpPending && i.resp == nil
		changed := s.changed
		s.mu.Unlock()
		if !pending {
			return
		}
		select {
		case <-changed:
		case <-deadline.C:
			return
		}
	}
}

// routeOp finds an operation of the spec by route template and method.
func (s *Server) routeOp(template, method string) *operation {
	for _, r := range s.spec.routes {
		if r.template == template {
			return r.ops[method]
		}
	}
	panic("discordtest: no route " + template)
}

// PostBody posts a raw body to an HTTP interactions endpoint, signed as sig says, and records nothing:
// for tests of how the bot refuses bad signatures, stale timestamps or oversized bodies.
func (s *Server) PostBody(url string, body []byte, sig Signature) (*http.Response, error) {
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "Discord-Interactions/1.0 (+https://discord.com)")
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	switch sig {
	case SignValid:
		req.Header.Set("X-Signature-Ed25519", s.Sign(ts, body))
	case SignWrongKey:
		_, other, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return nil, err
		}
		req.Header.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(other, append([]byte(ts), body...))))
	case SignTampered:
		req.Header.Set("X-Signature-Ed25519", s.Sign(ts, append(bytes.Clone(body), ' ')))
	case SignStale:
		ts = strconv.FormatInt(time.Now().Add(-10*time.Minute).Unix(), 10)
		req.Header.Set("X-Signature-Ed25519", s.Sign(ts, body))
	}
	if sig != SignNone {
		req.Header.Set("X-Signature-Timestamp", ts)
	}
	client := &http.Client{Timeout: s.cfg.timeout}
	return client.Do(req)
}
