package discordtest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

// oauthCall sends one request to the fake and returns its status and body.
func oauthCall(t *testing.T, s *discordtest.Server, method, path, auth, contentType, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, "https://discord.com/api/v10"+path, strings.NewReader(body))
	require.NoError(t, err)
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := s.Client().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(b)
}

// authorize follows the fake's authorization page for redirect and returns where it sends the browser.
func authorize(t *testing.T, s *discordtest.Server, redirect, scope string) url.Values {
	t.Helper()
	q := url.Values{"client_id": {s.AppID()}, "response_type": {"code"}, "redirect_uri": {redirect}, "scope": {scope}, "state": {"xyz"}}
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Get(s.AuthorizeURL() + "?" + q.Encode())
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Equal(t, http.StatusFound, resp.StatusCode)
	loc, err := url.Parse(resp.Header.Get("Location"))
	require.NoError(t, err)
	assert.Equal(t, redirect, loc.Scheme+"://"+loc.Host+loc.Path)
	return loc.Query()
}

// TestOAuthRoleConnection: the authorization-code grant, a user's Bearer token on the routes that take
// it, the role connection metadata and a user's role connection, refusals as Discord's.
func TestOAuthRoleConnection(t *testing.T) {
	s := discordtest.New(t)
	alice := s.AddUser("alice")
	const redirect = "https://bot.example/linked-roles/callback"
	s.AddRedirectURI(redirect)

	s.Consent("")
	back := authorize(t, s, redirect, "identify role_connections.write")
	assert.Equal(t, "access_denied", back.Get("error"), "a user who denies: no code")
	assert.Equal(t, "xyz", back.Get("state"))

	s.Consent(alice.ID)
	back = authorize(t, s, redirect, "identify role_connections.write")
	code := back.Get("code")
	require.NotEmpty(t, code)
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirect},
		"client_id": {s.AppID()}, "client_secret": {s.ClientSecret()}}
	status, body := oauthCall(t, s, "POST", "/oauth2/token", "", "application/x-www-form-urlencoded", form.Encode())
	require.Equal(t, http.StatusOK, status, body)
	var tok struct {
		Access  string `json:"access_token"`
		Refresh string `json:"refresh_token"`
		Expires int    `json:"expires_in"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &tok))
	assert.Equal(t, 604800, tok.Expires)
	status, body = oauthCall(t, s, "POST", "/oauth2/token", "", "application/x-www-form-urlencoded", form.Encode())
	assert.Equal(t, http.StatusBadRequest, status, "a code works once")
	assert.Contains(t, body, "invalid_grant")

	status, body = oauthCall(t, s, "GET", "/users/@me", "Bearer "+tok.Access, "", "")
	require.Equal(t, http.StatusOK, status)
	assert.Contains(t, body, `"id":"`+alice.ID+`"`, "the token's user, not the bot")

	meta := `[{"type":2,"key":"best_rating","name":"Best rating","description":"Rating at least"}]`
	status, _ = oauthCall(t, s, "PUT", "/applications/"+s.AppID()+"/role-connections/metadata", "Bot "+s.Token(), "application/json", meta)
	require.Equal(t, http.StatusOK, status)
	assert.JSONEq(t, meta, string(s.RoleMetadata()))

	conn := `{"platform_name":"Kulami","metadata":{"best_rating":"1800"}}`
	path := "/users/@me/applications/" + s.AppID() + "/role-connection"
	status, _ = oauthCall(t, s, "PUT", path, "Bearer "+tok.Access, "application/json", conn)
	require.Equal(t, http.StatusOK, status)
	got, ok := s.RoleConnection(alice.ID)
	require.True(t, ok)
	assert.JSONEq(t, conn, string(got))

	s.Advance(discordtest.OAuthTokenLifetime)
	status, _ = oauthCall(t, s, "PUT", path, "Bearer "+tok.Access, "application/json", conn)
	assert.Equal(t, http.StatusUnauthorized, status, "an expired token")
	refresh := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok.Refresh}}
	req, err := http.NewRequest("POST", "https://discord.com/api/v10/oauth2/token", strings.NewReader(refresh.Encode()))
	require.NoError(t, err)
	req.SetBasicAuth(s.AppID(), s.ClientSecret())
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	resp, err := s.Client().Do(req)
	require.NoError(t, err)
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&tok))
	require.NoError(t, resp.Body.Close())
	require.Equal(t, http.StatusOK, resp.StatusCode)
	status, _ = oauthCall(t, s, "PUT", path, "Bearer "+tok.Access, "application/json", conn)
	assert.Equal(t, http.StatusOK, status, "a refreshed token")

	s.RevokeGrant(alice.ID)
	status, _ = oauthCall(t, s, "PUT", path, "Bearer "+tok.Access, "application/json", conn)
	assert.Equal(t, http.StatusUnauthorized, status, "a revoked token")
	refresh.Set("refresh_token", tok.Refresh)
	refresh.Set("client_id", s.AppID())
	refresh.Set("client_secret", s.ClientSecret())
	status, body = oauthCall(t, s, "POST", "/oauth2/token", "", "application/x-www-form-urlencoded", refresh.Encode())
	assert.Equal(t, http.StatusBadRequest, status)
	assert.Contains(t, body, "invalid_grant")
	assert.Empty(t, s.Violations())
	checkAnswers(t, s)
}

// TestOAuthViolations: what Discord refuses of an application is a violation.
func TestOAuthViolations(t *testing.T) {
	s := discordtest.New(t, discordtest.CollectViolations())
	alice := s.AddUser("alice")
	const redirect = "https://bot.example/cb"
	s.AddRedirectURI(redirect)
	s.Consent(alice.ID)
	meta := `[{"type":2,"key":"best_rating","name":"Best rating","description":"Rating at least"}]`
	path := "/users/@me/applications/" + s.AppID() + "/role-connection"
	for _, tc := range []struct {
		name                            string
		method, path, auth, ctype, body string
		want                            string
	}{
		{"bot token on a user's route", "PUT", path, "Bot " + s.Token(), "application/json", `{"metadata":{}}`, "Authorization"},
		{"JSON to the token endpoint", "POST", "/oauth2/token", "", "application/json", `{}`, "Content-Type"},
		{"wrong secret", "POST", "/oauth2/token", "", "application/x-www-form-urlencoded",
			url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"x"}, "client_id": {s.AppID()}, "client_secret": {"no"}}.Encode(), "client_secret"},
		{"metadata key in capitals", "PUT", "/applications/" + s.AppID() + "/role-connections/metadata", "Bot " + s.Token(), "application/json",
			`[{"type":2,"key":"Best","name":"Best","description":"d"}]`, "metadata key"},
		{"six metadata records", "PUT", "/applications/" + s.AppID() + "/role-connections/metadata", "Bot " + s.Token(), "application/json",
			"[" + strings.Repeat(`{"type":2,"key":"a","name":"n","description":"d"},`, 5) + `{"type":2,"key":"b","name":"n","description":"d"}]`, "schema"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(s.Violations())
			status, _ := oauthCall(t, s, tc.method, tc.path, tc.auth, tc.ctype, tc.body)
			assert.GreaterOrEqual(t, status, 400)
			v := s.Violations()
			require.Greater(t, len(v), before)
			assert.Contains(t, v[len(v)-1].Message, tc.want)
		})
	}
	status, _ := oauthCall(t, s, "PUT", "/applications/"+s.AppID()+"/role-connections/metadata", "Bot "+s.Token(), "application/json", meta)
	require.Equal(t, http.StatusOK, status)
	back := authorize(t, s, redirect, "identify role_connections.write")
	form := url.Values{"grant_type": {"authorization_code"}, "code": {back.Get("code")}, "redirect_uri": {redirect},
		"client_id": {s.AppID()}, "client_secret": {s.ClientSecret()}}
	_, body := oauthCall(t, s, "POST", "/oauth2/token", "", "application/x-www-form-urlencoded", form.Encode())
	var tok struct {
		Access string `json:"access_token"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &tok))
	for _, conn := range []string{`{"metadata":{"unknown":"1"}}`, `{"metadata":{"best_rating":"high"}}`} {
		before := len(s.Violations())
		status, _ := oauthCall(t, s, "PUT", path, "Bearer "+tok.Access, "application/json", conn)
		assert.Equal(t, http.StatusBadRequest, status, conn)
		assert.Len(t, s.Violations(), before+1, conn)
	}
}
