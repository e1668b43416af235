package bot_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
)

func TestHTTPEndpoint(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "http")
	body, err := json.Marshal(map[string]any{"id": "1", "type": 1, "application_id": h.dc.AppID(), "token": "t", "version": 1})
	require.NoError(t, err)

	t.Run("ping", func(t *testing.T) {
		resp, err := h.dc.PostBody(h.url, body, discordtest.SignValid)
		require.NoError(t, err)
		defer resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		var pong discordgo.InteractionResponse
		require.NoError(t, json.NewDecoder(resp.Body).Decode(&pong))
		assert.Equal(t, discordgo.InteractionResponsePong, pong.Type)
	})
	for _, c := range []struct {
		name string
		sig  discordtest.Signature
	}{
		{"no signature", discordtest.SignNone},
		{"another key", discordtest.SignWrongKey},
		{"body changed after signing", discordtest.SignTampered},
		{"stale timestamp", discordtest.SignStale},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, err := h.dc.PostBody(h.url, body, c.sig)
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
		})
	}
	t.Run("body over 1 MiB", func(t *testing.T) {
		big := append(bytes.Clone(body[:len(body)-1]), []byte(`,"pad":"`+strings.Repeat("x", 1<<20)+`"}`)...)
		resp, err := h.dc.PostBody(h.url, big, discordtest.SignValid)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode)
	})
	t.Run("not an interaction", func(t *testing.T) {
		resp, err := h.dc.PostBody(h.url, []byte("hello"), discordtest.SignValid)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusBadRequest, resp.StatusCode)
	})
	t.Run("healthz", func(t *testing.T) {
		resp, err := http.Get(strings.TrimSuffix(h.url, "/interactions") + "/healthz")
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		assert.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, "ok\n", string(b))
	})
	t.Run("wrong method", func(t *testing.T) {
		resp, err := http.Get(h.url)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode)
	})
}

// TestCommandsRegistered checks the one bulk overwrite at start and that
// every subcommand the tree offers is handled.
func TestCommandsRegistered(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	reqs := h.dc.RequestsTo("PUT", "/applications/{application_id}/guilds/{guild_id}/commands")
	require.Len(t, reqs, 1, "one bulk overwrite")
	cmds := h.dc.Commands(h.dc.GuildID())
	require.Len(t, cmds, 2)
	assert.Equal(t, "kulami", cmds[0].Name)
	assert.Equal(t, "puzzle", cmds[1].Name, "its own command: /kulami has Discord's 25 subcommands")
	var names []string
	for _, o := range cmds[0].Options {
		names = append(names, o.Name)
		assert.NotEmpty(t, o.Description)
	}
	for _, want := range []string{"challenge", "accept", "decline", "move", "board", "resign", "rules", "help",
		"abort", "draw", "notify", "settings", "leaderboard", "stats", "history", "export", "play", "hint"} {
		assert.Contains(t, names, want)
	}
	// The localizations passed the fake's checks and are kept as sent.
	require.NotNil(t, cmds[0].DescriptionLocalizations)
	assert.Equal(t, "Jugar a Kulami, el juego de canicas y baldosas", (*cmds[0].DescriptionLocalizations)[discordgo.SpanishLATAM])
	assert.Equal(t, "défier", cmds[0].Options[0].NameLocalizations[discordgo.French])
	assert.Equal(t, "herausfordern", cmds[0].Options[0].NameLocalizations[discordgo.German])
	assert.Empty(t, h.dc.Violations())
	for _, name := range []string{"rules", "help", "leaderboard", "stats", "history"} {
		i := h.command(h.channel.ID, h.carol, name)
		assert.NotEmpty(t, h.reply(i)+embedText(h.dc.WaitResponse(t, i.ID)), "/kulami %s answers", name)
	}
}

func embedText(r *discordtest.Response) string {
	var s strings.Builder
	for _, e := range r.Embeds {
		s.WriteString(e.Title + e.Description)
	}
	return s.String()
}

func TestRulesAndHelp(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "gateway")
	i := h.command(h.channel.ID, h.alice, "rules")
	r := h.dc.WaitResponse(t, i.ID)
	assert.True(t, r.Ephemeral())
	require.Len(t, r.Embeds, 1)
	assert.Contains(t, r.Embeds[0].Footer.Text, "page 1 of 5")
	msg := h.dc.WaitOriginal(t, i.ID, func(*discordtest.Message) bool { return true })
	seen := map[string]bool{}
	for page := 1; page <= 5; page++ {
		m, _ := h.dc.Message(msg.ID)
		require.Len(t, m.Embeds, 1)
		seen[m.Embeds[0].Title] = true
		b := buttons(m.Components)
		if page < 5 {
			h.click(msg.ID, h.alice, b["Next"])
			h.dc.WaitUntil(t, "the next page", func() bool {
				m, _ := h.dc.Message(msg.ID)
				return strings.Contains(m.Embeds[0].Footer.Text, "page "+string(rune('0'+page+1)))
			})
		}
	}
	assert.Len(t, seen, 5, "five different pages")

	i = h.command(h.channel.ID, h.alice, "help")
	r = h.dc.WaitResponse(t, i.ID)
	require.Len(t, r.Embeds, 1)
	for _, sub := range []string{"/kulami challenge", "/kulami move", "/kulami leaderboard", "/kulami play", "/kulami give_time", "/kulami claim", "/kulami plan"} {
		assert.Contains(t, r.Embeds[0].Description, sub)
	}
}

// TestForgedRequestsLogged checks that requests refused for their
// signature, which anyone can send by the thousand, are counted and logged
// at most once a minute, with the count since the line before.
func TestForgedRequestsLogged(t *testing.T) {
	t.Parallel()
	h := newHarness(t, "http")
	body, err := json.Marshal(map[string]any{"id": "1", "type": 1, "application_id": h.dc.AppID(), "token": "t", "version": 1})
	require.NoError(t, err)
	forged := []discordtest.Signature{discordtest.SignNone, discordtest.SignWrongKey, discordtest.SignTampered, discordtest.SignStale}
	h.logs.Take()
	// 1000 forged requests, one every 200 ms of the bot's clock: 200 s.
	for k := range 1000 {
		resp, err := h.dc.PostBody(h.url, body, forged[k%len(forged)])
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusUnauthorized, resp.StatusCode)
		h.clock.Advance(200 * time.Millisecond)
	}
	// The line after a quiet minute counts the refusals not logged yet.
	h.clock.Advance(time.Minute)
	resp, err := h.dc.PostBody(h.url, body, discordtest.SignNone)
	require.NoError(t, err)
	resp.Body.Close()

	var counts []int
	for _, line := range strings.Split(h.logs.Take(), "\n") {
		if !strings.Contains(line, "refused for their signature") {
			continue
		}
		_, count, ok := strings.Cut(line, " count=")
		require.True(t, ok, "the line %q has a count", line)
		n, err := strconv.Atoi(strings.Fields(count)[0])
		require.NoError(t, err)
		counts = append(counts, n)
	}
	// At 0, 60, 120 and 180 s, then after the quiet minute.
	assert.Equal(t, []int{1, 300, 300, 300, 100}, counts, "one line a minute at most, with the count since the line before")
}
