package bot_test

import (
	"crypto/rand"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/bot/linkedroles"
	"github.com/kulami/kulami/engine/puzzle"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
)

// linkedHarness is a harness whose bot has Linked Roles, its pages served on the bot's HTTP handler
// at pub, a local listener.
type linkedHarness struct {
	*harness
	linker *linkedroles.Linker
	pub    *httptest.Server
}

func newLinkedHarness(t *testing.T) *linkedHarness {
	t.Helper()
	lh := &linkedHarness{}
	lh.pub = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		lh.bot.HTTPHandler(lh.dc.PublicKey()).ServeHTTP(w, r)
	}))
	t.Cleanup(lh.pub.Close)
	key := make([]byte, linkedroles.KeySize)
	_, _ = rand.Read(key)
	lh.harness = newHarnessWith(t, "http", func(h *harness) {
		h.manual = true
		set := threePuzzles(t)
		h.puzzles = func() ([]puzzle.Puzzle, error) { return set, nil }
		h.links = func(st *storage.Store) bot.RoleLinks {
			l, err := linkedroles.New(linkedroles.Config{AppID: h.dc.AppID(), ClientSecret: h.dc.ClientSecret(), BotToken: h.dc.Token(),
				PublicURL: lh.pub.URL, Key: key, APIURL: h.dc.APIURL(), AuthorizeURL: h.dc.AuthorizeURL(), Now: h.clock.Now,
				Log: slog.New(slog.NewTextHandler(h.logs, nil))}, st)
			require.NoError(t, err)
			lh.linker = l
			return l
		}
	})
	t.Cleanup(func() { lh.linker.Close(t.Context()) }) // before the harness closes the store
	lh.dc.AddRedirectURI(lh.linker.RedirectURI())
	require.NoError(t, lh.linker.Register(t.Context()))
	return lh
}

// link links the user through the bot's pages, as their browser would.
func (lh *linkedHarness) link(u *discordgo.User) {
	t := lh.t
	t.Helper()
	lh.dc.Consent(u.ID)
	jar, err := cookiejar.New(nil)
	require.NoError(t, err)
	resp, err := (&http.Client{Jar: jar}).Get(lh.pub.URL + "/linked-roles")
	require.NoError(t, err)
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.Equal(t, http.StatusOK, resp.StatusCode, string(body))
}

// metadata waits for the pushes queued, then returns the user's metadata as the fake holds it.
func (lh *linkedHarness) metadata(u *discordgo.User) map[string]string {
	t := lh.t
	t.Helper()
	require.NoError(t, lh.linker.Wait(t.Context()))
	raw, ok := lh.dc.RoleConnection(u.ID)
	require.True(t, ok, "nothing pushed for %s", u.Username)
	var c struct {
		Metadata map[string]string `json:"metadata"`
	}
	require.NoError(t, json.Unmarshal(raw, &c))
	return c.Metadata
}

// resignGame plays a rated game between alice and bob in the harness's channel, which the second to move
// resigns after one move; it returns the winner and the loser.
func (lh *linkedHarness) resignGame() (winner, loser *discordgo.User) {
	h := lh.harness
	ch := h.channel.ID
	g := h.challengeAndAccept()
	first, second := h.players(g)
	h.command(ch, first, "move", discordtest.StringOption("cell", "D4"))
	board := h.boardAt(ch, 1)
	i := h.click(board.ID, second, buttons(board.Components)["Resign"])
	r := h.dc.WaitResponse(h.t, i.ID)
	msg := h.dc.WaitOriginal(h.t, i.ID, func(*discordtest.Message) bool { return true })
	h.click(msg.ID, second, buttons(r.Components)["Yes, resign"])
	h.waitBoard(ch, "the final board", func(m *discordtest.Message) bool { return strings.Contains(m.Content, "resigned") })
	return first, second
}

const connectionRoute = "/users/@me/applications/{application_id}/role-connection"

// TestLinkedRolesPushes: linked players' metadata are pushed after a rated game, a puzzle that counted
// and a season's end, on the bot's fake clock; a player who revokes the grant is never pushed again.
func TestLinkedRolesPushes(t *testing.T) {
	t.Parallel()
	lh := newLinkedHarness(t)
	lh.link(lh.alice)
	lh.link(lh.bob)
	assert.Equal(t, map[string]string{"games_played": "0", "puzzles_solved": "0", "season_champion": "0"}, lh.metadata(lh.alice))

	winner, loser := lh.resignGame()
	won, lost := lh.metadata(winner), lh.metadata(loser)
	assert.Equal(t, "1", won["games_played"])
	assert.Equal(t, "1", lost["games_played"])
	wr, err := strconv.Atoi(won["best_rating"])
	require.NoError(t, err)
	lr, err := strconv.Atoi(lost["best_rating"])
	require.NoError(t, err)
	assert.Greater(t, wr, 1500, "the winner's new rating")
	assert.Less(t, lr, 1500, "the loser's")
	p, err := lh.store.Profile(t.Context(), lh.dc.GuildID(), winner.ID, storage.Human)
	require.NoError(t, err)
	assert.Equal(t, strconv.Itoa(int(p.Rating.Rating+0.5)), won["best_rating"], "the rating on the ladder, rounded")

	m, pz := lh.nextPuzzle(lh.alice)
	lh.playPuzzle(m, lh.alice, pz.Solution[0].String())
	md := lh.metadata(lh.alice)
	assert.Equal(t, "1", md["puzzles_solved"])
	pr, err := strconv.Atoi(md["puzzle_rating"])
	require.NoError(t, err)
	assert.Greater(t, pr, 1500, "a puzzle solved raises the puzzle rating")

	podium := lh.dc.AddChannel("podium")
	settings := lh.chooseSeasonChannel(podium.ID)
	assert.Contains(t, settings, "**Linked Roles**", "the settings tell owners how to make a role of them")
	assert.Contains(t, settings, "https://support.discord.com/")
	now := lh.clock.Now()
	lh.tick(rating.SeasonOf(now).End().Sub(now) + time.Minute)
	require.Len(t, lh.podiums(podium.ID), 1, "the season ended")
	assert.Equal(t, "1", lh.metadata(winner)["season_champion"])
	assert.Equal(t, "0", lh.metadata(loser)["season_champion"])

	lh.dc.RevokeGrant(lh.bob.ID)
	pushed := func() (all, ok int) {
		for _, r := range lh.dc.RequestsTo("PUT", connectionRoute) {
			all++
			if r.Status == http.StatusOK {
				ok++
			}
		}
		return all, ok
	}
	_, okBefore := pushed()
	lh.resignGame()
	require.NoError(t, lh.linker.Wait(t.Context()))
	// bob's push is refused: by a 401 if his token is the one refreshed at the season's end (he won it),
	// else at its refresh (invalid_grant), for the bot's clock moved on by months. Only alice's lands.
	all, ok := pushed()
	assert.Equal(t, okBefore+1, ok, "alice's push lands, bob's does not")
	_, err = lh.store.RoleLink(t.Context(), lh.bob.ID)
	require.ErrorIs(t, err, storage.ErrNotFound, "bob's revoked link is forgotten")
	lh.resignGame()
	require.NoError(t, lh.linker.Wait(t.Context()))
	all2, ok2 := pushed()
	assert.Equal(t, all+1, all2, "one push: bob is never pushed again")
	assert.Equal(t, ok+1, ok2, "alice's")
	assert.Contains(t, lh.logs.String(), "revoked the link")
}

// TestListenerPaths tries every path of the bot's HTTP listener, with Linked Roles on and off, with
// and without an interaction's signature: the sign-in pages take no signature and open nothing else;
// off, they are not there.
func TestListenerPaths(t *testing.T) {
	t.Parallel()
	on := newLinkedHarness(t)
	off := newHarness(t, "http")
	bases := map[bool]string{true: on.pub.URL, false: strings.TrimSuffix(off.url, "/interactions")}
	fakes := map[bool]*discordtest.Server{true: on.dc, false: off.dc}
	ping := []byte(`{"type":1}`)
	for _, tc := range []struct {
		method, path string
		on, off      int // the status without a signature, with Linked Roles on and off
		signedOn     int // with a valid signature, on or off, if it differs (0: the same)
	}{
		{"POST", "/interactions", 401, 401, 200},
		{"GET", "/interactions", 405, 405, 0},
		{"GET", "/healthz", 200, 200, 0},
		{"GET", "/linked-roles", 302, 404, 0},
		{"POST", "/linked-roles", 405, 404, 0},
		{"GET", "/linked-roles/callback", 400, 404, 0},
		{"POST", "/linked-roles/callback", 405, 404, 0},
		{"GET", "/linked-roles/", 404, 404, 0},
		{"GET", "/linked-roles/other", 404, 404, 0},
		{"GET", "/linked-roles/callback/more", 404, 404, 0},
		{"GET", "/linked-rolesx", 404, 404, 0},
		{"GET", "/", 404, 404, 0},
		{"GET", "/metrics", 404, 404, 0},
		{"GET", "/readyz", 404, 404, 0},
		{"GET", "/admin", 404, 404, 0},
		{"PUT", "/interactions", 405, 405, 0},
	} {
		for _, linked := range []bool{true, false} {
			for _, signed := range []bool{false, true} {
				t.Run(tc.method+" "+tc.path+" "+map[bool]string{true: "on", false: "off"}[linked]+map[bool]string{true: " signed", false: ""}[signed], func(t *testing.T) {
					var body []byte
					if tc.method != "GET" {
						body = ping
					}
					req, err := http.NewRequest(tc.method, bases[linked]+tc.path, strings.NewReader(string(body)))
					require.NoError(t, err)
					if signed {
						ts := strconv.FormatInt(time.Now().Unix(), 10)
						req.Header.Set("X-Signature-Timestamp", ts)
						req.Header.Set("X-Signature-Ed25519", fakes[linked].Sign(ts, body))
					}
					client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
					resp, err := client.Do(req)
					require.NoError(t, err)
					page, err := io.ReadAll(resp.Body)
					require.NoError(t, err)
					require.NoError(t, resp.Body.Close())
					want := tc.off
					if linked {
						want = tc.on
					}
					if signed && tc.signedOn != 0 {
						want = tc.signedOn
					}
					assert.Equal(t, want, resp.StatusCode, string(page))
					if want == 302 {
						assert.True(t, strings.HasPrefix(resp.Header.Get("Location"), on.dc.AuthorizeURL()+"?"), "to Discord's authorization page")
					}
				})
			}
		}
	}
}
