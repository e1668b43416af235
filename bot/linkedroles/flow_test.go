package linkedroles_test

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/bot/linkedroles"
	"github.com/kulami/kulami/storage"
)

// clock is a fake clock the test moves.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// env is a Linker on a real bbolt store, against the fake Discord, served on a local listener.
type env struct {
	dc     *discordtest.Server
	store  *storage.Store
	linker *linkedroles.Linker
	srv    *httptest.Server
	clock  *clock
	logs   *bytes.Buffer
}

func newEnv(t *testing.T, opts ...discordtest.Option) *env {
	t.Helper()
	return newEnvWith(t, func(*linkedroles.Config) {}, opts...)
}

// newEnvWith is newEnv with set changing the Linker's configuration.
func newEnvWith(t *testing.T, set func(*linkedroles.Config), opts ...discordtest.Option) *env {
	t.Helper()
	c := &clock{now: time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)}
	dc := discordtest.New(t, append([]discordtest.Option{discordtest.WithClock(c.Now)}, opts...)...)
	st, err := storage.Open(filepath.Join(t.TempDir(), "kulami.db"), storage.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = st.Close() })
	var h http.Handler = http.NotFoundHandler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(srv.Close)
	key := make([]byte, linkedroles.KeySize)
	_, _ = rand.Read(key)
	logs := &bytes.Buffer{}
	cfg := linkedroles.Config{
		AppID: dc.AppID(), ClientSecret: dc.ClientSecret(), BotToken: dc.Token(), PublicURL: srv.URL, Key: key,
		APIURL: dc.APIURL(), AuthorizeURL: dc.AuthorizeURL(), Now: c.Now, Log: slog.New(slog.NewTextHandler(&syncWriter{w: logs}, nil)),
	}
	set(&cfg)
	l, err := linkedroles.New(cfg, st)
	require.NoError(t, err)
	t.Cleanup(func() { l.Close(t.Context()) })
	h = l.Handler()
	dc.AddRedirectURI(l.RedirectURI())
	require.NoError(t, l.Register(t.Context()))
	return &env{dc: dc, store: st, linker: l, srv: srv, clock: c, logs: logs}
}

// syncWriter makes a buffer safe for the logger's concurrent writes.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// browser is a client with cookies that follows redirects, as a browser does.
func browser(t *testing.T) *http.Client {
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	return &http.Client{Jar: jar, Timeout: time.Minute} // the timeout only stops a hang
}

// get opens url in the browser in language lang and returns the final status and page.
func get(t *testing.T, b *http.Client, url, lang string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	require.NoError(t, err)
	req.Header.Set("Accept-Language", lang)
	resp, err := b.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp.StatusCode, string(body)
}

// connection returns the metadata the fake holds for the user.
func connection(t *testing.T, dc *discordtest.Server, userID string) map[string]string {
	t.Helper()
	raw, ok := dc.RoleConnection(userID)
	require.True(t, ok, "no role connection pushed")
	var c struct {
		Metadata map[string]string `json:"metadata"`
	}
	require.NoError(t, json.Unmarshal(raw, &c))
	return c.Metadata
}

func TestRegister(t *testing.T) {
	e := newEnv(t)
	var records []linkedroles.Record
	require.NoError(t, json.Unmarshal(e.dc.RoleMetadata(), &records))
	require.Len(t, records, 5)
	keys := []string{}
	for _, r := range records {
		keys = append(keys, r.Key)
		assert.NotEmpty(t, r.NameLocalizations["fr"], r.Key)
		assert.NotEmpty(t, r.DescriptionLocalizations["de"], r.Key)
		assert.NotEmpty(t, r.NameLocalizations["es-ES"], r.Key)
	}
	assert.Equal(t, []string{"best_rating", "games_played", "puzzle_rating", "puzzles_solved", "season_champion"}, keys)
	require.NoError(t, e.linker.Register(t.Context()), "registering again is no error")
	assert.Empty(t, e.dc.Violations())
}

// TestLink: the whole flow through the fake Discord, in each language: the page says what was linked,
// the fake holds the metadata, the store the link, its token sealed.
func TestLink(t *testing.T) {
	for _, tc := range []struct{ lang, want string }{
		{"en-GB,en;q=0.9", "is linked to Kulami"},
		{"fr-FR,fr;q=0.9", "est lié à Kulami"},
		{"es-ES", "está vinculada a Kulami"},
		{"de-DE,de;q=0.8,en;q=0.5", "ist mit Kulami verknüpft"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			e := newEnv(t)
			alice := e.dc.AddUser("alice")
			e.dc.Consent(alice.ID)
			status, body := get(t, browser(t), e.srv.URL+"/linked-roles", tc.lang)
			require.Equal(t, http.StatusOK, status, body)
			assert.Contains(t, body, tc.want)
			assert.Contains(t, body, "alice")
			assert.Equal(t, map[string]string{"games_played": "0", "puzzles_solved": "0", "season_champion": "0"}, connection(t, e.dc, alice.ID))
			link, err := e.store.RoleLink(t.Context(), alice.ID)
			require.NoError(t, err)
			assert.Equal(t, e.clock.Now(), link.Linked.UTC())
			assert.False(t, json.Valid(link.Token), "the grant is stored sealed, not as its JSON")
			assert.NotContains(t, string(link.Token), `"refresh"`)
			assert.NotContains(t, e.logs.String(), e.dc.ClientSecret())
			assert.Empty(t, e.dc.Violations())
		})
	}
}
