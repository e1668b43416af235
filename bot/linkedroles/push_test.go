package linkedroles_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/bot/linkedroles"
	"github.com/kulami/kulami/storage"
)

const connectionRoute = "/users/@me/applications/{application_id}/role-connection"

// link links the user through the whole flow.
func link(t *testing.T, e *env, userID string) {
	t.Helper()
	e.dc.Consent(userID)
	status, body := get(t, browser(t), e.srv.URL+"/linked-roles", "en")
	require.Equal(t, http.StatusOK, status, body)
}

// pushes counts the role connections pushed so far.
func pushes(e *env) int { return len(e.dc.RequestsTo("PUT", connectionRoute)) }

// TestPushRefreshesAndForgets: a push with an access token that ran out refreshes it first; once the
// user revokes the grant, the push forgets the link and the user is never pushed again; a user who
// never linked is never pushed.
func TestPushRefreshesAndForgets(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.dc.AddUser("alice"), e.dc.AddUser("bob")
	link(t, e, alice.ID)
	require.Equal(t, 1, pushes(e))
	before, err := e.store.RoleLink(t.Context(), alice.ID)
	require.NoError(t, err)

	e.clock.Advance(discordtest.OAuthTokenLifetime)
	e.linker.Played("g1", alice.ID, bob.ID)
	require.NoError(t, e.linker.Wait(t.Context()))
	assert.Equal(t, 2, pushes(e), "alice's metadata pushed, bob's not: he never linked")
	assert.Equal(t, http.StatusOK, e.dc.RequestsTo("PUT", connectionRoute)[1].Status, "with a fresh token")
	after, err := e.store.RoleLink(t.Context(), alice.ID)
	require.NoError(t, err)
	assert.NotEqual(t, before.Token, after.Token, "the refreshed grant is stored")
	assert.Equal(t, []string{"g1"}, after.Guilds, "the game's guild counts from now on")

	e.dc.RevokeGrant(alice.ID)
	e.linker.Puzzled(alice.ID)
	require.NoError(t, e.linker.Wait(t.Context()))
	assert.Equal(t, 3, pushes(e))
	assert.Equal(t, http.StatusUnauthorized, e.dc.RequestsTo("PUT", connectionRoute)[2].Status)
	_, err = e.store.RoleLink(t.Context(), alice.ID)
	require.ErrorIs(t, err, storage.ErrNotFound, "a revoked grant is forgotten")

	e.linker.Played("g1", alice.ID)
	e.linker.Champion("g1", alice.ID)
	require.NoError(t, e.linker.Wait(t.Context()))
	assert.Equal(t, 3, pushes(e), "never pushed again")
	assert.Empty(t, e.dc.Violations())
}

// TestPushRevokedOnRefresh: a grant revoked while its access token ran out fails at the refresh
// (invalid_grant), and is forgotten as well.
func TestPushRevokedOnRefresh(t *testing.T) {
	e := newEnv(t)
	alice := e.dc.AddUser("alice")
	link(t, e, alice.ID)
	e.dc.RevokeGrant(alice.ID)
	e.clock.Advance(discordtest.OAuthTokenLifetime)
	e.linker.Champion("g1", alice.ID)
	require.NoError(t, e.linker.Wait(t.Context()))
	assert.Equal(t, 1, pushes(e), "no push without a token")
	_, err := e.store.RoleLink(t.Context(), alice.ID)
	require.ErrorIs(t, err, storage.ErrNotFound)
}

// TestChampion: a season won shows in the metadata, and stays.
func TestChampion(t *testing.T) {
	e := newEnv(t)
	alice := e.dc.AddUser("alice")
	link(t, e, alice.ID)
	assert.Equal(t, "0", connection(t, e.dc, alice.ID)["season_champion"])
	e.linker.Champion("g1", alice.ID)
	require.NoError(t, e.linker.Wait(t.Context()))
	assert.Equal(t, "1", connection(t, e.dc, alice.ID)["season_champion"])
	e.linker.Puzzled(alice.ID)
	require.NoError(t, e.linker.Wait(t.Context()))
	assert.Equal(t, "1", connection(t, e.dc, alice.ID)["season_champion"])
}

// TestPushRateLimited: a push Discord answers 429 waits once, what Retry-After says, then is sent again.
func TestPushRateLimited(t *testing.T) {
	var waited []time.Duration
	e := newEnvWith(t, func(c *linkedroles.Config) {
		c.Wait = func(_ context.Context, d time.Duration) error { waited = append(waited, d); return nil }
	})
	alice := e.dc.AddUser("alice")
	link(t, e, alice.ID)
	e.dc.Fail("PUT", connectionRoute, discordtest.APIError{Status: 429, Message: "You are being rate limited."}, 1)
	e.linker.Champion("g1", alice.ID)
	require.NoError(t, e.linker.Wait(t.Context()))
	assert.Equal(t, []time.Duration{0}, waited, "one wait, of what Retry-After says (the fake's injected 429 names none)")
	statuses := []int{}
	for _, r := range e.dc.RequestsTo("PUT", connectionRoute) {
		statuses = append(statuses, r.Status)
	}
	assert.Equal(t, []int{200, 429, 200}, statuses, "the link's push, the push refused, and sent again")
	assert.Equal(t, "1", connection(t, e.dc, alice.ID)["season_champion"])
}
