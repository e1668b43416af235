package bot

import (
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
		Transport: &apiRewriter{to: base.String() + "/", next: http.DefaultTransport},
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
	return t.next.RoundTrip(r)
}
