package linkedroles

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Errors of Discord's answers, which the flow and the pushes tell apart.
var (
	// ErrInvalidGrant: Discord refused a code or refresh token (400
	// invalid_grant): unknown, used, expired, or revoked by the user.
	ErrInvalidGrant = errors.New("discord refused the grant (invalid_grant)")
	// ErrUnauthorized: Discord refused an access token (401): it ran out
	// or the user revoked it.
	ErrUnauthorized = errors.New("discord refused the access token (401)")
	// errRateLimited: Discord answered 429 (rateLimited has when to try
	// again).
	errRateLimited = errors.New("discord rate-limited the request (429)")
)

// rateLimited is a 429 answer and how long Discord asks to wait.
type rateLimited struct{ after time.Duration }

func (r rateLimited) Error() string {
	return fmt.Sprintf("%v: retry after %v", errRateLimited, r.after)
}
func (r rateLimited) Unwrap() error { return errRateLimited }

// client talks to Discord's OAuth2 and REST APIs for Linked Roles. Its
// errors name the request but never a token, code or secret.
type client struct {
	http        *http.Client
	api         string // e.g. https://discord.com/api/v10
	appID       string
	secret      string
	botToken    string
	redirectURI string
}

// tokenAnswer is the token endpoint's answer.
type tokenAnswer struct {
	Access  string `json:"access_token"`
	Refresh string `json:"refresh_token"`
	Expires int    `json:"expires_in"`
	Error   string `json:"error"`
}

// exchange trades an authorization code for a grant.
func (c *client) exchange(ctx context.Context, code string, now time.Time) (grant, error) {
	return c.token(ctx, url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {c.redirectURI}}, now)
}

// refresh trades a refresh token for a new grant.
func (c *client) refresh(ctx context.Context, refresh string, now time.Time) (grant, error) {
	return c.token(ctx, url.Values{"grant_type": {"refresh_token"}, "refresh_token": {refresh}}, now)
}

func (c *client) token(ctx context.Context, form url.Values, now time.Time) (grant, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.api+"/oauth2/token", strings.NewReader(form.Encode()))
	if err != nil {
		return grant{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(c.appID, c.secret)
	var a tokenAnswer
	status, err := c.do(req, &a)
	switch {
	case err != nil:
		return grant{}, fmt.Errorf("%s grant: %w", form.Get("grant_type"), err)
	case status == http.StatusBadRequest && a.Error == "invalid_grant":
		return grant{}, ErrInvalidGrant
	case status != http.StatusOK || a.Access == "":
		return grant{}, fmt.Errorf("%s grant: Discord answered %d %s", form.Get("grant_type"), status, a.Error)
	}
	return grant{Access: a.Access, Refresh: a.Refresh, Expires: now.Add(time.Duration(a.Expires) * time.Second)}, nil
}

// user is the part of Discord's user that Linked Roles reads.
type user struct {
	ID         string `json:"id"`
	Username   string `json:"username"`
	GlobalName string `json:"global_name"`
}

// name is how the user is shown: their display name, else username.
func (u user) name() string {
	if u.GlobalName != "" {
		return u.GlobalName
	}
	return u.Username
}

// me reads the user of an access token.
func (c *client) me(ctx context.Context, access string) (user, error) {
	var u user
	err := c.call(ctx, http.MethodGet, "/users/@me", "Bearer "+access, nil, &u)
	if err == nil && u.ID == "" {
		err = errors.New("GET /users/@me: no user ID in Discord's answer")
	}
	return u, err
}

// connection is a user's role connection as Discord takes it.
type connection struct {
	PlatformName     string            `json:"platform_name"`
	PlatformUsername string            `json:"platform_username,omitempty"`
	Metadata         map[string]string `json:"metadata"`
}

// putConnection sets the role connection of the access token's user.
func (c *client) putConnection(ctx context.Context, access string, conn connection) error {
	return c.call(ctx, http.MethodPut, "/users/@me/applications/"+c.appID+"/role-connection", "Bearer "+access, conn, nil)
}

// register sets the application's metadata records.
func (c *client) register(ctx context.Context, records []Record) error {
	return c.call(ctx, http.MethodPut, "/applications/"+c.appID+"/role-connections/metadata", "Bot "+c.botToken, records, nil)
}

// call sends a JSON request with auth and reads a JSON answer into out.
func (c *client) call(ctx context.Context, method, path, auth string, body, out any) error {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.api+path, r)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", auth)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	what := method + " " + strings.Replace(path, c.appID, "{application_id}", 1)
	status, err := c.do(req, out)
	switch {
	case err != nil:
		return fmt.Errorf("%s: %w", what, err)
	case status == http.StatusUnauthorized:
		return fmt.Errorf("%s: %w", what, ErrUnauthorized)
	case status/100 != 2:
		return fmt.Errorf("%s: Discord answered %d", what, status)
	}
	return nil
}

// do sends req and decodes a JSON answer into out (if not nil): its
// status, or an error for no answer, a 429 (rateLimited) or a body that
// is not JSON where one is wanted.
func (c *client) do(req *http.Request, out any) (int, error) {
	resp, err := c.http.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // its URL may carry nothing secret, but its text is long
		}
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return 0, err
	}
	if resp.StatusCode == http.StatusTooManyRequests {
		secs, _ := strconv.ParseFloat(resp.Header.Get("Retry-After"), 64)
		return resp.StatusCode, rateLimited{after: time.Duration(secs * float64(time.Second))}
	}
	if out != nil && len(body) > 0 && strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(body, out); err != nil && resp.StatusCode/100 == 2 {
			return resp.StatusCode, fmt.Errorf("the answer of Discord: %w", err)
		}
	}
	return resp.StatusCode, nil
}
