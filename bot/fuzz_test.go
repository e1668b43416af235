package bot

import (
	"context"
	"encoding/json"
	"github.com/kulami/kulami/bot/discordtest"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/storage"
)

func FuzzParseCustomID(f *testing.F) {
	for _, s := range []string{
		customID{action: actMove, channel: "123", id: 7, n: 12}.String(),
		customID{action: actMove, channel: "123", id: 7, n: 0, part: 2}.String(),
		customID{action: actLeaders, channel: "9", id: 1, n: 3}.String(),
		customID{action: actLeaders, channel: "9", id: board{ladder: storage.AI, season: 2026*4 + 3}.id(), n: 1}.String(),
		customID{action: actLeaders, channel: everywhere, id: board{ladder: storage.Human, everywhere: true}.id(), n: 2}.String(),
		customID{action: actLeadersNext, channel: storage.MarkOf(&storage.Profile{UserID: "ai:hard"}).String(), id: 1, n: 4}.String(),
		"kulami:move:1:2:3:4:5", "kulami::1:2:3", "kulami:move:1:x:3", "rematch", "", ":::::",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		id, err := parseCustomID(s)
		if err != nil {
			assert.ErrorIs(t, err, errCustomID)
			return
		}
		again, err := parseCustomID(id.String())
		require.NoError(t, err, "a parsed ID prints as one that parses: %q", id.String())
		assert.Equal(t, id, again)
	})
}

// FuzzHandle feeds arbitrary interactions, as an HTTP body decodes them,
// to the handlers: none may panic, and each gets exactly one first answer.
// Discord's REST API is a stub that refuses every call (404), so handlers
// that get past their checks fail at the network, as they would if Discord
// were down; the game state lives in a real bbolt file.
func FuzzHandle(f *testing.F) {
	seeds := []string{
		`{"type":2,"id":"1","guild_id":"10","channel_id":"20","app_permissions":"8","member":{"user":{"id":"30","username":"alice"},"permissions":"0"},"data":{"name":"kulami","options":[{"type":1,"name":"challenge","options":[{"type":6,"name":"opponent","value":"31"}]}],"resolved":{"users":{"31":{"id":"31","username":"bob"}}}}}`,
		`{"type":2,"id":"14","guild_id":"10","channel_id":"20","member":{"user":{"id":"30"}},"data":{"name":"kulami","options":[{"type":1,"name":"challenge","options":[{"type":6,"name":"opponent","value":"31"}]}]}}`,
		`{"type":2,"id":"15","guild_id":"10","channel_id":"22","app_permissions":"8","member":{"user":{"id":"30"}},"data":{"name":"kulami","options":[{"type":1,"name":"play","options":[{"type":3,"name":"level","value":"easy"},{"type":3,"name":"first","value":"them"}]}]}}`,
		`{"type":2,"id":"2","guild_id":"10","channel_id":"20","member":{"user":{"id":"30"}},"data":{"name":"kulami","options":[{"type":1,"name":"move","options":[{"type":3,"name":"cell","value":"D4"}]}]}}`,
		`{"type":2,"id":"3","guild_id":"10","channel_id":"20","member":{"user":{"id":"30"},"permissions":"32"},"data":{"name":"kulami","options":[{"type":1,"name":"settings","options":[{"type":3,"name":"threads","value":"on"}]}]}}`,
		`{"type":2,"id":"4","guild_id":"10","channel_id":"20","member":{"user":{"id":"30"}},"data":{"name":"kulami","options":[{"type":1,"name":"leaderboard","options":[{"type":4,"name":"page","value":-3}]}]}}`,
		`{"type":2,"id":"5","guild_id":"10","channel_id":"20","member":{"user":{"id":"30"}},"data":{"name":"kulami","options":[{"type":1,"name":"stats","options":[{"type":6,"name":"player","value":"31"}]}]}}`,
		`{"type":2,"id":"6","channel_id":"21","user":{"id":"30"},"data":{"name":"kulami","options":[{"type":1,"name":"rules"}]}}`,
		`{"type":4,"id":"7","guild_id":"10","channel_id":"20","member":{"user":{"id":"30"}},"data":{"name":"kulami","options":[{"type":1,"name":"move","options":[{"type":3,"name":"cell","value":"d","focused":true}]}]}}`,
		`{"type":3,"id":"8","guild_id":"10","channel_id":"20","member":{"user":{"id":"30"}},"message":{"id":"40","channel_id":"20"},"data":{"component_type":3,"custom_id":"kulami:move:20:1:0:1","values":["A1"]}}`,
		`{"type":3,"id":"9","guild_id":"10","channel_id":"20","member":{"user":{"id":"31"}},"message":{"id":"41","channel_id":"20"},"data":{"component_type":2,"custom_id":"kulami:accept:20:1:0"}}`,
		`{"type":3,"id":"10","guild_id":"10","channel_id":"20","member":{"user":{"id":"30"}},"data":{"component_type":2,"custom_id":"kulami:leaderboard:10:0:99"}}`,
		`{"type":3,"id":"11","guild_id":"10","channel_id":"20","member":{"user":{"id":"30"}},"data":{"component_type":2,"custom_id":"kulami:leaderboard-prev:AAAAAAAAAAAAMzA:0:2"}}`,
		`{"type":3,"id":"11","guild_id":"10","channel_id":"20","data":{"component_type":2,"custom_id":"kulami:rules:20:0:7"}}`,
		`{"type":5,"id":"12","guild_id":"10","channel_id":"20","data":{"custom_id":"x","components":[]}}`,
		`{"type":2,"id":"13"}`, `{"type":3}`, `{"type":9}`, `{}`,
		`{"type":2,"id":"16","guild_id":"10","channel_id":"20","app_permissions":"8","member":{"user":{"id":"30"}},"data":{"name":"kulami","options":[{"type":1,"name":"challenge","options":[{"type":6,"name":"opponent","value":"31"},{"type":3,"name":"move_time","value":"3d+1d"}]}],"resolved":{"users":{"31":{"id":"31","username":"bob"}}}}}`,
		`{"type":4,"id":"17","guild_id":"10","channel_id":"20","member":{"user":{"id":"30"}},"data":{"name":"kulami","options":[{"type":1,"name":"challenge","options":[{"type":3,"name":"move_time","value":"3d+","focused":true}]}]}}`,
		`{"type":2,"id":"18","guild_id":"10","channel_id":"20","member":{"user":{"id":"30"}},"data":{"name":"kulami","options":[{"type":1,"name":"give_time"}]}}`,
		`{"type":2,"id":"19","guild_id":"10","channel_id":"20","member":{"user":{"id":"30"}},"data":{"name":"kulami","options":[{"type":1,"name":"claim"}]}}`,
		`{"type":2,"id":"20","guild_id":"10","channel_id":"20","member":{"user":{"id":"30"}},"data":{"name":"kulami","options":[{"type":1,"name":"plan"}]}}`,
		`{"type":3,"id":"21","guild_id":"10","channel_id":"20","member":{"user":{"id":"31"}},"message":{"id":"42","channel_id":"20","flags":64},"data":{"component_type":3,"custom_id":"kulami:plan-pick:20:1:1","values":["E5 F6"]}}`,
		`{"type":3,"id":"22","guild_id":"10","channel_id":"20","member":{"user":{"id":"31"}},"message":{"id":"43","channel_id":"20"},"data":{"component_type":2,"custom_id":"kulami:claim-wait:20:1:2"}}`,
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}

	discord := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"message": "Unknown", "code": 10000}`))
	}))
	f.Cleanup(discord.Close)
	s, err := NewSession("token", discord.URL+"/api/v10")
	require.NoError(f, err)
	s.MaxRestRetries = 0
	store, err := storage.Open(filepath.Join(f.TempDir(), "kulami.db"), storage.Options{NoSync: true})
	require.NoError(f, err)
	f.Cleanup(func() { store.Close() })
	logs := &discordtest.LogBuffer{}
	b := New(s, Options{Store: store, Logger: slog.New(slog.NewTextHandler(logs, nil)), AITime: 10 * time.Millisecond})
	f.Cleanup(func() { b.Close(5 * time.Second) })

	f.Fuzz(func(t *testing.T, body []byte) {
		var i discordgo.Interaction
		if json.Unmarshal(body, &i) != nil {
			return // the HTTP endpoint answers 400 before any handler
		}
		var (
			mu      sync.Mutex
			answers int
		)
		respond := func(*discordgo.InteractionResponse) error {
			mu.Lock()
			defer mu.Unlock()
			answers++
			return nil
		}
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		b.handle(ctx, s, &i, recipientsOf([]byte(body)), respond)
		log := logs.Take()
		assert.NotContains(t, log, "handler panicked", "log:\n%s", log)
		mu.Lock()
		defer mu.Unlock()
		assert.Equal(t, 1, answers, "every interaction gets one first answer; log:\n%s", log)
	})
}

// FuzzRecipientsOf checks the reader of a DM's recipients: the IDs of an
// interaction's channel come back as they were written, in order, and a
// body without them (or no JSON at all) gives none.
func FuzzRecipientsOf(f *testing.F) {
	f.Add("111", "222", false)
	f.Add("", "3", true)
	f.Add("a\"b", "\u00e9", false)
	f.Fuzz(func(t *testing.T, a, b string, garble bool) {
		body, err := json.Marshal(map[string]any{"id": "1", "channel": map[string]any{"id": "9", "recipients": []map[string]string{{"id": a}, {"id": b}}}})
		require.NoError(t, err)
		if garble {
			assert.Nil(t, recipientsOf(body[:len(body)-1]), "a body that is not JSON says nothing")
			return
		}
		if !utf8.ValidString(a) || !utf8.ValidString(b) {
			return // JSON replaces invalid UTF-8
		}
		assert.Equal(t, []string{a, b}, recipientsOf(body))
		none, err := json.Marshal(map[string]any{"id": "1", "channel": map[string]any{"id": "9"}})
		require.NoError(t, err)
		assert.Nil(t, recipientsOf(none), "a channel without recipients")
	})
}
