package linkedroles_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/bot/linkedroles"
	"github.com/kulami/kulami/storage"
)

// toCallback runs a sign-in up to Discord's redirect back, and returns the callback's URL and the
// browser's state cookie, without opening the callback.
func toCallback(t *testing.T, e *env) (*url.URL, *http.Cookie) {
	t.Helper()
	b := browser(t)
	b.CheckRedirect = func(r *http.Request, _ []*http.Request) error {
		if r.URL.Path == linkedroles.CallbackPath {
			return http.ErrUseLastResponse
		}
		return nil
	}
	resp, err := b.Get(e.srv.URL + linkedroles.Path)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Equal(t, http.StatusFound, resp.StatusCode)
	cb, err := url.Parse(resp.Header.Get("Location"))
	require.NoError(t, err)
	start, err := url.Parse(e.srv.URL + linkedroles.Path)
	require.NoError(t, err)
	cookies := b.Jar.Cookies(start)
	require.Len(t, cookies, 1)
	return cb, cookies[0]
}

// open opens the callback u with the cookie (none if nil) in language lang.
func open(t *testing.T, u *url.URL, cookie *http.Cookie, lang string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", u.String(), nil)
	require.NoError(t, err)
	if cookie != nil {
		req.AddCookie(cookie)
	}
	req.Header.Set("Accept-Language", lang)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

// TestCallbackRefusals: every way a callback can go wrong gets its page in the reader's language, stores
// nothing, pushes nothing, and logs one line without the code, the tokens or the secret.
func TestCallbackRefusals(t *testing.T) {
	pages := map[string]map[string]string{ // reason → language → a phrase of its page
		"missing":     {"en": "without the sign-in", "fr": "sans la connexion", "es": "sin el inicio de sesión", "de": "ohne die Anmeldung"},
		"forged":      {"en": "does not match", "fr": "ne correspond pas", "es": "no coincide", "de": "passt nicht"},
		"reused":      {"en": "was used already", "fr": "a déjà servi", "es": "ya se usó", "de": "schon benutzt"},
		"expired":     {"en": "ran out", "fr": "a expiré", "es": "caducó", "de": "abgelaufen"},
		"denied":      {"en": "did not authorize", "fr": "pas autorisé", "es": "No autorizaste", "de": "nicht autorisiert"},
		"code":        {"en": "did not recognise this sign-in code", "fr": "pas reconnu ce code", "es": "no reconoció este código", "de": "nicht erkannt"},
		"refused":     {"en": "refused the access", "fr": "a refusé l’accès", "es": "rechazó el acceso", "de": "Zugriff verweigert"},
		"unavailable": {"en": "could not be reached", "fr": "n’a pas pu être joint", "es": "No se pudo contactar", "de": "nicht erreichbar"},
	}
	cases := []struct {
		reason string
		status int
		// run sets the case up and opens the callback; it returns the status and page.
		run func(t *testing.T, e *env, alice string, lang string) (int, string)
	}{
		{"missing", http.StatusBadRequest, func(t *testing.T, e *env, _, lang string) (int, string) {
			cb, _ := toCallback(t, e)
			return open(t, cb, nil, lang)
		}},
		{"forged", http.StatusBadRequest, func(t *testing.T, e *env, _, lang string) (int, string) {
			_, cookie := toCallback(t, e)
			other, _ := toCallback(t, e) // another browser's sign-in, with this browser's cookie
			return open(t, other, cookie, lang)
		}},
		{"forged", http.StatusBadRequest, func(t *testing.T, e *env, _, lang string) (int, string) {
			cb, cookie := toCallback(t, e)
			parts := strings.Split(cookie.Value, ".")
			parts[1] = "99999999999" // a later expiry, without the key to sign it
			cookie.Value = strings.Join(parts, ".")
			return open(t, cb, cookie, lang)
		}},
		{"reused", http.StatusBadRequest, func(t *testing.T, e *env, alice, lang string) (int, string) {
			cb, cookie := toCallback(t, e)
			status, body := open(t, cb, cookie, lang)
			require.Equal(t, http.StatusOK, status, body)
			require.NoError(t, e.store.DeleteRoleLink(t.Context(), alice)) // so that the replay's storing nothing shows
			e.dc.RevokeGrant(alice)
			return open(t, cb, cookie, lang)
		}},
		{"expired", http.StatusBadRequest, func(t *testing.T, e *env, _, lang string) (int, string) {
			cb, cookie := toCallback(t, e)
			e.clock.Advance(linkedroles.StateLifetime)
			return open(t, cb, cookie, lang)
		}},
		{"denied", http.StatusForbidden, func(t *testing.T, e *env, _, lang string) (int, string) {
			e.dc.Consent("")
			cb, cookie := toCallback(t, e)
			return open(t, cb, cookie, lang)
		}},
		{"code", http.StatusBadRequest, func(t *testing.T, e *env, _, lang string) (int, string) {
			cb, cookie := toCallback(t, e)
			q := cb.Query()
			q.Set("code", "not-a-code")
			cb.RawQuery = q.Encode()
			return open(t, cb, cookie, lang)
		}},
		{"refused", http.StatusForbidden, func(t *testing.T, e *env, _, lang string) (int, string) {
			e.dc.Fail("GET", "/users/@me", discordtest.APIError{Status: 401, Message: "401: Unauthorized"}, 1)
			cb, cookie := toCallback(t, e)
			return open(t, cb, cookie, lang)
		}},
		{"unavailable", http.StatusBadGateway, func(t *testing.T, e *env, _, lang string) (int, string) {
			e.dc.Fail("PUT", "/users/@me/applications/{application_id}/role-connection", discordtest.ErrServerError, 1)
			cb, cookie := toCallback(t, e)
			return open(t, cb, cookie, lang)
		}},
	}
	for _, tc := range cases {
		for _, lang := range []string{"en", "fr", "es", "de"} {
			t.Run(tc.reason+"/"+lang, func(t *testing.T) {
				e := newEnv(t)
				alice := e.dc.AddUser("alice")
				e.dc.Consent(alice.ID)
				status, body := tc.run(t, e, alice.ID, lang)
				assert.Equal(t, tc.status, status)
				assert.Contains(t, body, pages[tc.reason][lang])
				assert.Contains(t, body, `href="/linked-roles"`, "a way to start again")
				_, err := e.store.RoleLink(t.Context(), alice.ID)
				assert.ErrorIs(t, err, storage.ErrNotFound, "nothing stored")
				if tc.reason != "reused" {
					_, pushed := e.dc.RoleConnection(alice.ID)
					assert.False(t, pushed, "nothing pushed")
				}
				logs := e.logs.String()
				assert.Equal(t, 1, strings.Count(logs, "linked nothing"), logs)
				assert.NotContains(t, logs, e.dc.ClientSecret())
				assert.NotContains(t, logs, "code=")
				assert.Empty(t, e.dc.Violations())
			})
		}
	}
}

// TestStateLifetime: a callback just before the state's expiry links.
func TestStateLifetime(t *testing.T) {
	e := newEnv(t)
	alice := e.dc.AddUser("alice")
	e.dc.Consent(alice.ID)
	cb, cookie := toCallback(t, e)
	e.clock.Advance(linkedroles.StateLifetime - time.Second)
	status, body := open(t, cb, cookie, "en")
	assert.Equal(t, http.StatusOK, status, body)
}
