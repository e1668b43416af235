package discordtest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// OAuthTokenLifetime is how long an access token the fake grants works: Discord's 7 days (expires_in
// 604800). After it, by the fake's clock, the token is answered 401 and only its refresh token helps.
const OAuthTokenLifetime = 7 * 24 * time.Hour

// oauth is the fake's OAuth2 provider: Discord's authorization-code grant for the application, as
// https://discord.com/oauth2/authorize (a page the browser follows) and POST /api/v10/oauth2/token
// (form-encoded, which Discord's OpenAPI description leaves out: the fake checks it by RFC 6749 and
// Discord's OAuth2 docs instead), and the Bearer tokens it grants. Call its methods with s.mu held.
type oauth struct {
	secret    string
	redirects []string // the redirect URIs registered for the application (AddRedirectURI)
	consent   string   // the user who approves the next authorizations; "" denies them
	codes     map[string]*grant
	access    map[string]*grant
	refresh   map[string]*grant
	metadata  json.RawMessage            // the role connection metadata registered, as answered
	conns     map[string]json.RawMessage // the role connection of each user, as answered
}

// grant is what a code or token stands for.
type grant struct {
	user     string
	scopes   []string
	redirect string    // for a code: the redirect_uri it was given to
	expires  time.Time // for an access token or a code
	dead     bool      // used (a code) or revoked
}

func (o *oauth) init() {
	o.secret = "test-client-secret-" + randomHex()
	o.codes, o.access, o.refresh = map[string]*grant{}, map[string]*grant{}, map[string]*grant{}
	o.conns = map[string]json.RawMessage{}
}

func randomHex() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// ClientSecret is the application's OAuth2 client secret; its client ID is AppID.
func (s *Server) ClientSecret() string { return s.oauth.secret }

// AuthorizeURL is the fake's authorization page, which stands for https://discord.com/oauth2/authorize.
func (s *Server) AuthorizeURL() string { return s.srv.URL + "/oauth2/authorize" }

// AddRedirectURI registers uri as a redirect URI of the application, as the Developer Portal's OAuth2
// page does; the authorization page refuses any other.
func (s *Server) AddRedirectURI(uri string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauth.redirects = append(s.oauth.redirects, uri)
}

// Consent makes the user with the given ID the one signed in to the authorization page, who approves
// what the application asks; "" makes the page's user deny it (Discord then redirects with
// error=access_denied).
func (s *Server) Consent(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.oauth.consent = userID
}

// RevokeGrant stands for the user removing the application from their authorized apps: every token
// granted to them stops working (401 for an access token, invalid_grant for a refresh token).
func (s *Server) RevokeGrant(userID string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range []map[string]*grant{s.oauth.codes, s.oauth.access, s.oauth.refresh} {
		for _, g := range m {
			if g.user == userID {
				g.dead = true
			}
		}
	}
}

// RoleConnection returns the role connection the application last set for the user (PUT
// /users/@me/applications/{application_id}/role-connection), as the fake answered it, and whether
// there is one.
func (s *Server) RoleConnection(userID string) (json.RawMessage, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c, ok := s.oauth.conns[userID]
	return slices.Clone(c), ok
}

// RoleMetadata returns the role connection metadata the application registered, as the fake answers
// it; nil if none.
func (s *Server) RoleMetadata() json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.oauth.metadata)
}

// serveAuthorize is the authorization page: it checks the request as Discord does, and redirects the
// browser to the redirect URI with a code (the signed-in user approves: Consent) or with
// error=access_denied. A request Discord would refuse to redirect (unknown client, redirect URI not
// registered) is a violation, answered 400 with no redirect.
func (s *Server) serveAuthorize(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	defer s.mu.Unlock()
	problem := ""
	scopes := strings.Fields(q.Get("scope"))
	switch {
	case r.Method != http.MethodGet:
		problem = "the authorization page takes GET"
	case q.Get("client_id") != s.appID:
		problem = fmt.Sprintf("client_id %q is not the application's ID", q.Get("client_id"))
	case q.Get("response_type") != "code":
		problem = fmt.Sprintf("response_type %q (want code)", q.Get("response_type"))
	case !slices.Contains(s.oauth.redirects, q.Get("redirect_uri")):
		problem = fmt.Sprintf("redirect_uri %q is not registered for the application (AddRedirectURI)", q.Get("redirect_uri"))
	case len(scopes) == 0:
		problem = "no scope"
	}
	for _, sc := range scopes {
		if !s.spec.scopes[sc] && problem == "" {
			problem = fmt.Sprintf("scope %q is not one of Discord's", sc)
		}
	}
	s.record(Request{Method: r.Method, Path: r.URL.Path, Query: q})
	if problem != "" {
		s.violate(r.Method, r.URL.Path, "", "authorization page: "+problem)
		http.Error(w, "Invalid OAuth2 request: "+problem, http.StatusBadRequest)
		return
	}
	back, _ := url.Parse(q.Get("redirect_uri"))
	v := back.Query()
	if s.oauth.consent == "" {
		v.Set("error", "access_denied")
		v.Set("error_description", "The resource owner or authorization server denied the request")
	} else {
		code := randomHex()
		s.oauth.codes[code] = &grant{user: s.oauth.consent, scopes: scopes, redirect: q.Get("redirect_uri"), expires: s.Now().Add(10 * time.Minute)}
		v.Set("code", code)
	}
	if st := q.Get("state"); st != "" {
		v.Set("state", st)
	}
	back.RawQuery = v.Encode()
	s.notify()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// tokenError is the token endpoint's error answer (RFC 6749 section 5.2).
type tokenError struct {
	Error       string `json:"error"`
	Description string `json:"error_description,omitempty"`
}

// serveToken is POST /api/v10/oauth2/token: the authorization_code and refresh_token grants, the
// client authenticated by HTTP Basic or by client_id and client_secret in the form, as Discord takes
// them. A malformed request is a violation; a code or refresh token that is unknown, used, expired or
// revoked is answered 400 invalid_grant, as Discord does, and is none.
func (s *Server) serveToken(w http.ResponseWriter, r *http.Request) {
	raw := r.Header.Get("Content-Type")
	_ = r.ParseForm()
	s.mu.Lock()
	defer s.mu.Unlock()
	form := r.PostForm
	s.record(Request{Method: r.Method, Path: "/oauth2/token", Route: "/oauth2/token", Body: redactForm(form)})
	id, secret, basic := r.BasicAuth()
	if !basic {
		id, secret = form.Get("client_id"), form.Get("client_secret")
	}
	problem := ""
	switch {
	case r.Method != http.MethodPost:
		problem = "the token endpoint takes POST"
	case !strings.HasPrefix(raw, "application/x-www-form-urlencoded"):
		problem = fmt.Sprintf("Content-Type %q (want application/x-www-form-urlencoded)", raw)
	case form.Get("grant_type") == "authorization_code" && (form.Get("code") == "" || form.Get("redirect_uri") == ""):
		problem = "authorization_code grant without code or redirect_uri"
	case form.Get("grant_type") == "refresh_token" && form.Get("refresh_token") == "":
		problem = "refresh_token grant without refresh_token"
	case form.Get("grant_type") != "authorization_code" && form.Get("grant_type") != "refresh_token":
		problem = fmt.Sprintf("grant_type %q (the fake takes authorization_code and refresh_token)", form.Get("grant_type"))
	}
	if problem != "" {
		s.violate(r.Method, "/oauth2/token", "/oauth2/token", problem)
		writeJSON(w, http.StatusBadRequest, tokenError{Error: "invalid_request", Description: problem})
		return
	}
	if id != s.appID || secret != s.oauth.secret {
		s.violate(r.Method, "/oauth2/token", "/oauth2/token", "wrong client_id or client_secret")
		writeJSON(w, http.StatusUnauthorized, tokenError{Error: "invalid_client"})
		return
	}
	now := s.Now()
	var g *grant
	if form.Get("grant_type") == "authorization_code" {
		g = s.oauth.codes[form.Get("code")]
		if g == nil || g.dead || now.After(g.expires) || g.redirect != form.Get("redirect_uri") {
			writeJSON(w, http.StatusBadRequest, tokenError{Error: "invalid_grant", Description: `Invalid "code" in request.`})
			return
		}
		g.dead = true // a code works once
	} else {
		g = s.oauth.refresh[form.Get("refresh_token")]
		if g == nil || g.dead {
			writeJSON(w, http.StatusBadRequest, tokenError{Error: "invalid_grant", Description: `Invalid "refresh_token" in request.`})
			return
		}
		g.dead = true // Discord rotates refresh tokens
	}
	access, refresh := randomHex(), randomHex()
	s.oauth.access[access] = &grant{user: g.user, scopes: g.scopes, expires: now.Add(OAuthTokenLifetime)}
	s.oauth.refresh[refresh] = &grant{user: g.user, scopes: g.scopes}
	s.notify()
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": access, "token_type": "Bearer", "expires_in": int(OAuthTokenLifetime / time.Second),
		"refresh_token": refresh, "scope": strings.Join(g.scopes, " "),
	})
}

// redactForm is the form of a token request as recorded: its secrets replaced by their length.
func redactForm(form map[string][]string) json.RawMessage {
	out := map[string]string{}
	for k, v := range form {
		if len(v) == 0 {
			continue
		}
		switch k {
		case "client_secret", "code", "refresh_token":
			out[k] = "(" + strconv.Itoa(len(v[0])) + " characters)"
		default:
			out[k] = v[0]
		}
	}
	b, _ := json.Marshal(out)
	return b
}

// bearer checks a user's Bearer token on an API request: the route must take OAuth2, and the token
// must have its scopes (else a violation: the application asked for too little); a token that is
// unknown, expired or revoked is answered 401, as Discord does, and is none. It sets c.user.
func (s *Server) bearer(c *call, op *operation, token string) (APIError, bool) {
	if op.oauthScopes == nil {
		s.violate(c.method, c.path, c.route, "a Bearer token on a route that takes no OAuth2 token")
		return errUnauthorized, false
	}
	g := s.oauth.access[token]
	if g == nil || g.dead || !s.Now().Before(g.expires) {
		return errUnauthorized, false
	}
	for _, need := range op.oauthScopes {
		if !slices.Contains(g.scopes, need) {
			s.violate(c.method, c.path, c.route, fmt.Sprintf("the token lacks the scope %s", need))
			return errUnauthorized, false
		}
	}
	c.user = g.user
	return APIError{}, true
}

// roleConnectionEndpoints are the operations of Linked Roles.
var roleConnectionEndpoints = []endpoint{
	{"PUT /applications/{application_id}/role-connections/metadata", (*Server).putRoleMetadata},
	{"GET /applications/{application_id}/role-connections/metadata", (*Server).getRoleMetadata},
	{"PUT /users/@me/applications/{application_id}/role-connection", (*Server).putRoleConnection},
	{"GET /users/@me/applications/{application_id}/role-connection", (*Server).getRoleConnection},
}

// metadataItem is a role connection metadata record.
type metadataItem struct {
	Type int    `json:"type"`
	Key  string `json:"key"`
}

// putRoleMetadata replaces the application's role connection metadata. Beyond the schema it refuses,
// as Discord does, a key that is not 1 to 50 of a-z, 0-9 and _, and two records with one key.
func (s *Server) putRoleMetadata(c *call) reply {
	if c.params["application_id"] != s.appID {
		return fail(errNotYourApp)
	}
	var items []metadataItem
	if err := json.Unmarshal(c.body, &items); err != nil {
		return s.refuse(c, errInvalidBody, err.Error())
	}
	seen := map[string]bool{}
	for _, it := range items {
		if !metadataKey(it.Key) || seen[it.Key] {
			return s.refuse(c, errInvalidBody, fmt.Sprintf("metadata key %q: not 1-50 of a-z, 0-9 and _, or given twice", it.Key))
		}
		seen[it.Key] = true
	}
	s.oauth.metadata = slices.Clone(json.RawMessage(c.body))
	return jsonOK(json.RawMessage(c.body))
}

func (s *Server) getRoleMetadata(c *call) reply {
	if c.params["application_id"] != s.appID {
		return fail(errNotYourApp)
	}
	if s.oauth.metadata == nil {
		return jsonOK([]any{})
	}
	return jsonOK(s.oauth.metadata)
}

func metadataKey(k string) bool {
	if k == "" || len(k) > 50 {
		return false
	}
	for _, r := range k {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' {
			return false
		}
	}
	return true
}

// putRoleConnection sets the role connection of the token's user. Beyond the schema it refuses, as
// Discord does, a metadata key the application did not register and a value that is not of its
// record's type (an integer for types 1-4, an ISO8601 date for 5-6, "0" or "1" for 7-8).
func (s *Server) putRoleConnection(c *call) reply {
	if c.params["application_id"] != s.appID || c.user == "" {
		return fail(errNotYourApp)
	}
	var body struct {
		Metadata map[string]string `json:"metadata"`
	}
	if err := json.Unmarshal(c.body, &body); err != nil {
		return s.refuse(c, errInvalidBody, err.Error())
	}
	var items []metadataItem
	_ = json.Unmarshal(s.oauth.metadata, &items)
	types := map[string]int{}
	for _, it := range items {
		types[it.Key] = it.Type
	}
	for k, v := range body.Metadata {
		t, ok := types[k]
		if !ok {
			return s.refuse(c, errInvalidBody, fmt.Sprintf("metadata key %q is not registered", k))
		}
		if !metadataValue(t, v) {
			return s.refuse(c, errInvalidBody, fmt.Sprintf("metadata %s=%q is not a value of type %d", k, v, t))
		}
	}
	s.oauth.conns[c.user] = slices.Clone(json.RawMessage(c.body))
	return jsonOK(json.RawMessage(c.body))
}

func (s *Server) getRoleConnection(c *call) reply {
	if c.params["application_id"] != s.appID || c.user == "" {
		return fail(errNotYourApp)
	}
	if conn, ok := s.oauth.conns[c.user]; ok {
		return jsonOK(conn)
	}
	return jsonOK(map[string]any{"platform_name": "", "platform_username": nil, "metadata": map[string]string{}})
}

func metadataValue(typ int, v string) bool {
	switch {
	case typ >= 1 && typ <= 4:
		_, err := strconv.ParseInt(v, 10, 64)
		return err == nil
	case typ == 5 || typ == 6:
		_, err := time.Parse(time.RFC3339, v)
		return err == nil
	case typ == 7 || typ == 8:
		return v == "0" || v == "1"
	}
	return false
}
