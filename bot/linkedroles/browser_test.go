package linkedroles_test

import (
	"context"
	"html"
	"os"
	"os/exec"
	"regexp"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chromium returns the path of a Chromium to drive, or skips the test saying why (fails it instead
// when KULAMI_REQUIRE_CHROMIUM is set, as CI sets it).
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	const why = "no Chromium on PATH (chromium, chromium-browser or google-chrome): `apt-get install chromium` to run the browser test"
	if os.Getenv("KULAMI_REQUIRE_CHROMIUM") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
	return ""
}

// dumpDOM opens url in a fresh headless Chromium whose language is lang, lets it follow every redirect
// and returns the DOM of the page it ends on. It drives Chromium by its own --dump-dom: no DevTools
// client, no dependency.
func dumpDOM(t *testing.T, browser, url, lang string) string {
	t.Helper()
	// A bound against a hung browser only, not a measure of speed.
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--lang="+lang, "--accept-lang="+lang, "--dump-dom", url)
	out, err := cmd.Output()
	var stderr []byte
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = ee.Stderr
	}
	require.NoError(t, err, "chromium: %s", stderr)
	return string(out)
}

// element returns the text of the element with the given id in dom.
func element(t *testing.T, dom, id string) string {
	t.Helper()
	m := regexp.MustCompile(`id="` + regexp.QuoteMeta(id) + `"[^>]*>([^<]*)<`).FindStringSubmatch(dom)
	require.NotNil(t, m, "no element #%s in:\n%s", id, dom)
	return html.UnescapeString(m[1])
}

// TestBrowser: a real browser opens /linked-roles, follows the redirects to the fake Discord's
// authorization page and back to the callback, carrying the state cookie, and ends on the page that
// says what was linked, in its language; the fake received the metadata.
func TestBrowser(t *testing.T) {
	browser := chromium(t)
	e := newEnv(t)
	alice := e.dc.AddUser("alice")
	e.dc.Consent(alice.ID)
	e.linker.Champion("g1", alice.ID) // not linked yet: nothing to push, nothing kept
	require.NoError(t, e.linker.Wait(t.Context()))

	dom := dumpDOM(t, browser, e.srv.URL+"/linked-roles", "fr-FR")
	assert.Equal(t, "Kulami · Rôles liés", element(t, dom, "title"))
	assert.Contains(t, element(t, dom, "text"), "alice")
	assert.Equal(t, "0", element(t, dom, "games_played"))
	assert.Equal(t, "non", element(t, dom, "season_champion"))
	assert.Equal(t, map[string]string{"games_played": "0", "puzzles_solved": "0", "season_champion": "0"}, connection(t, e.dc, alice.ID))
	_, err := e.store.RoleLink(t.Context(), alice.ID)
	require.NoError(t, err, "the link is stored")

	e.dc.Consent("") // a user who denies, in another browser
	dom = dumpDOM(t, browser, e.srv.URL+"/linked-roles", "de-DE")
	assert.Equal(t, "Nichts wurde verknüpft", element(t, dom, "title"))
	assert.Contains(t, element(t, dom, "text"), "nicht autorisiert")
	assert.Empty(t, e.dc.Violations())
}
