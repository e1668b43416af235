package bot

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
)

// NewSession returns a discordgo session that authenticates as the bot
// with token and sends its REST requests to apiURL (Discord's own, e.g.
// https://discord.com/api/v10, or a REST proxy) instead of the address
// discordgo builds in. The gateway address comes from that API too.
func NewSession(token, apiURL string) (*discordgo.Session, error) {
	base, err := url.Parse(strings.TrimSuffix(apiURL, "/"))
	if err != nil || (base.Scheme != "https" && base.Scheme != "http") || base.Host == "" {
		return nil, fmt.Errorf("the API URL %q is not an http(s) URL like https://discord.com/api/v10", apiURL)
	}
	s, err := discordgo.New("Bot " + token)
	if err != nil {
		return nil, err
	}
	s.Client = &http.Client{
		Timeout:   30 * time.Second,
		Transport: &apiRewriter{to: base.String() + "/", next: discordTransport()},
	}
	s.UserAgent = "DiscordBot (https://github.com/kulami/kulami, 1) kulamibot"
	s.ShouldRetryOnRateLimit = true
	return s, nil
}

// apiRewriter sends requests addressed to discordgo's built-in API base to
// another base URL.
type apiRewriter struct {
	to   string
	next http.RoundTripper
}

func (t *apiRewriter) RoundTrip(r *http.Request) (*http.Response, error) {
	rest, ok := strings.CutPrefix(r.URL.String(), discordgo.EndpointAPI)
	if !ok {
		return t.next.RoundTrip(r)
	}
	u, err := url.Parse(t.to + rest)
	if err != nil {
		return nil, err
	}
	r = r.Clone(r.Context())
	r.URL = u
	r.Host = u.Host
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		// net/http names the URL discordgo built (discord.com) in the
		// error; say where the request really went.
		return nil, &redirected{url: u.Redacted(), err: err}
	}
	return resp, nil
}

// redirected is the error of a request that apiRewriter sent to another
// base URL than discordgo built in.
type redirected struct {
	url string
	err error
}

func (e *redirected) Error() string {
	return fmt.Sprintf("%v (sent to %s, as api_url says)", e.err, e.url)
}
func (e *redirected) Unwrap() error { return e.err }

// RealURL makes err, which a REST request of a session of NewSession may
// have returned (wrapped or not), name only the URL the request was sent
// to: net/http names discordgo's own (https://discord.com/api/v9/…) in
// front of the real one, two URLs in one line. The result wraps err.
func RealURL(err error) error {
	var ue *url.Error
	var r *redirected
	if !errors.As(err, &ue) || !errors.As(ue.Err, &r) {
		return err
	}
	real := &url.Error{Op: ue.Op, URL: r.url, Err: r.err}
	return &renamed{msg: strings.Replace(err.Error(), ue.Error(), real.Error(), 1), err: err}
}

// renamed is an error with another message.
type renamed struct {
	msg string
	err error
}

func (e *renamed) Error() string { return e.msg }
func (e *renamed) Unwrap() error { return e.err }

// discordTransport is the HTTP transport of the REST API. All requests go
// to one host, so it keeps many idle connections to it (net/http keeps 2
// by default: under load the rest were closed after each request and
// opened again, a TLS handshake each against Discord), and it bounds the
// time of each step.
func discordTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = 256
	t.MaxIdleConnsPerHost = 256
	t.IdleConnTimeout = 90 * time.Second
	t.TLSHandshakeTimeout = 10 * time.Second
	t.ResponseHeaderTimeout = 20 * time.Second
	t.ForceAttemptHTTP2 = true
	return t
}
