package discordtest

import (
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"
)

// Request is one REST request the fake received, as recorded.
type Request struct {
	Method string
	Path   string     // relative to the API root, e.g. /channels/123/messages
	Query  url.Values // the query string
	Route  string     // the matching route of the OpenAPI description, e.g. /channels/{channel_id}/messages; "" if none
	// Body is the JSON body, or the payload_json part of a multipart body; nil if there was none.
	Body     json.RawMessage
	Files    []File          // the files[n] parts of a multipart body, in order
	Status   int             // the status the fake answered
	Response json.RawMessage // the JSON the fake answered; nil for none
}

// File is an uploaded file: an attachment of a message or of an interaction response.
type File struct {
	Name        string
	ContentType string
	Data        []byte
	Description string // the attachment's description: alt text, for an image
}

// Violation is a request that Discord would refuse or that the fake cannot serve.
type Violation struct {
	Method, Path string
	Route        string // the matching route template, "" if none
	Message      string // what is wrong, with the validator's message for an invalid body
}

func (v Violation) String() string {
	route := v.Route
	if route == "" {
		route = "none"
	}
	return fmt.Sprintf("%s %s (route %s): %s", v.Method, v.Path, route, v.Message)
}

// violate records a violation and, unless violations are collected, fails the test. Call with s.mu held.
func (s *Server) violate(method, path, route, msg string) {
	v := Violation{Method: method, Path: path, Route: route, Message: msg}
	s.violations = append(s.violations, v)
	if !s.cfg.collect {
		s.tb.Errorf("discordtest: %s", v)
	}
}

// record appends a request. Call with s.mu held.
func (s *Server) record(r Request) {
	s.requests = append(s.requests, r)
}

// Violations returns the violations so far (see CollectViolations).
func (s *Server) Violations() []Violation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.violations)
}

// Requests returns the REST requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.requests)
}

// RequestsTo returns the recorded requests with the given method to the given route template, e.g.
// RequestsTo("POST", "/channels/{channel_id}/messages").
func (s *Server) RequestsTo(method, route string) []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Method == strings.ToUpper(method) && r.Route == route {
			out = append(out, r)
		}
	}
	return out
}

// WaitUntil waits until cond returns true, calling it whenever the fake's state changes (a request
// was served, an interaction responded to, a gateway session started), and fails the test after the
// timeout, saying what it waited for. cond may call the Server's query methods.
func (s *Server) WaitUntil(tb testing.TB, what string, cond func() bool) {
	tb.Helper()
	deadline := time.NewTimer(s.cfg.timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		ch := s.changed
		closed := s.closed
		s.mu.Unlock()
		if cond() {
			return
		}
		if closed {
			tb.Fatalf("discordtest: server closed while waiting for %s", what)
		}
		select {
		case <-ch:
		case <-deadline.C:
			tb.Fatalf("discordtest: timed out after %v waiting for %s", s.cfg.timeout, what)
		}
	}
}
