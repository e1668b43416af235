package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/storage"
)

// fakeEnv is the environment of a kulamibot that talks to the fake Discord.
func fakeEnv(dc *discordtest.Server, db string, extra map[string]string) func(string) string {
	e := map[string]string{
		"KULAMI_DISCORD_TOKEN":          dc.Token(),
		"KULAMI_DISCORD_APPLICATION_ID": dc.AppID(),
		"KULAMI_DISCORD_GUILD_ID":       dc.GuildID(),
		"KULAMI_DISCORD_API_URL":        dc.APIURL(),
		"KULAMI_STORAGE_PATH":           db,
	}
	for k, v := range extra {
		e[k] = v
	}
	return env(e)
}

// startBot runs kulamibot with the environment e until cancel; done
// receives its exit code, and stderr has what it logged.
func startBot(t *testing.T, e func(string) string) (cancel context.CancelFunc, done <-chan int, stderr *discordtest.LogBuffer) {
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(cancel)
	stderr = &discordtest.LogBuffer{}
	exit := make(chan int, 1)
	go func() { exit <- run(ctx, nil, e, &bytes.Buffer{}, stderr) }()
	return cancel, exit, stderr
}

// hung bounds the tests' waits for kulamibot (to stop, to be ready, to
// count): a wait is for an event, and this bound, long enough for any
// machine however loaded, only stops a test whose bot hangs.
const hung = time.Minute

// waitExit waits for a run of kulamibot whose context was cancelled to
// end, with exit code 0; logs returns what it logged.
func waitExit(t *testing.T, done <-chan int, logs func() string) {
	t.Helper()
	select {
	case code := <-done:
		assert.Equal(t, 0, code, logs())
	case <-time.After(hung):
		t.Fatal("kulamibot did not stop on its signal")
	}
}

// challenge sends alice's /kulami challenge of bob.
func challenge(dc *discordtest.Server, channel string, alice, bob *discordgo.User) *discordgo.Interaction {
	i := dc.Command(channel, alice, "kulami", discordtest.Subcommand("challenge", discordtest.UserOption("opponent", bob.ID)))
	d := i.Data.(discordgo.ApplicationCommandInteractionData)
	d.Resolved = &discordgo.ApplicationCommandInteractionDataResolved{Users: map[string]*discordgo.User{bob.ID: bob}}
	i.Data = d
	return i
}

// TestRunGateway runs kulamibot as main does, against the fake Discord:
// it registers the commands, plays, writes a backup while it runs and shuts
// down cleanly on a signal, closing the database.
func TestRunGateway(t *testing.T) {
	dc := discordtest.New(t)
	games := dc.AddChannel("games")
	alice, bob := dc.AddUser("alice"), dc.AddUser("bob")
	dir := t.TempDir()
	db := filepath.Join(dir, "kulami.db")
	e := fakeEnv(dc, db, nil)

	cancel, done, stderr := startBot(t, e)
	dc.WaitReady(t)
	require.Len(t, dc.Commands(dc.GuildID()), 2, "the commands, /kulami and /puzzle, are registered at start")

	i := challenge(dc, games.ID, alice, bob)
	dc.SendInteraction(i)
	assert.Contains(t, dc.WaitResponse(t, i.ID).Content, "Challenge sent to bob")
	waitNotified(t, dc, bob.ID, "challenges you to a game of **Kulami**")

	var out bytes.Buffer
	backupFile := filepath.Join(dir, "backup.db")
	require.Equal(t, 0, run(t.Context(), []string{"backup", backupFile}, e, &out, &out), out.String())
	assert.Contains(t, out.String(), "taken by the running bot")

	cancel()
	waitExit(t, done, stderr.String)
	assert.Contains(t, stderr.String(), "shutting down")
	assert.NotContains(t, stderr.String(), dc.Token(), "the token is never logged")

	for _, path := range []string{db, backupFile} {
		s, err := storage.Open(path, storage.Options{Timeout: 100 * time.Millisecond})
		require.NoError(t, err, "%s is free and readable after the shutdown", path)
		c, err := s.Challenge(t.Context(), games.ID)
		require.NoError(t, err, "%s holds the challenge", path)
		assert.Equal(t, bob.ID, c.To.UserID)
		require.NoError(t, s.Close())
	}

	out.Reset()
	second := filepath.Join(dir, "second.db")
	require.Equal(t, 0, run(t.Context(), []string{"backup", second}, e, &out, &out), out.String())
	assert.Contains(t, out.String(), "Wrote "+second, "a backup also works while the bot is stopped")
}

func TestRunHTTP(t *testing.T) {
	dc := discordtest.New(t)
	games := dc.AddChannel("games")
	alice, bob := dc.AddUser("alice"), dc.AddUser("bob")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	e := fakeEnv(dc, filepath.Join(t.TempDir(), "kulami.db"), map[string]string{
		"KULAMI_DISCORD_MODE":       "http",
		"KULAMI_DISCORD_PUBLIC_KEY": dc.PublicKeyHex(),
		"KULAMI_HTTP_LISTEN":        addr,
		"KULAMI_LOG_FORMAT":         "json",
	})
	cancel, done, stderr := startBot(t, e)

	url := "http://" + addr
	require.Eventually(t, func() bool {
		resp, err := http.Get(url + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil && resp.StatusCode == http.StatusOK
	}, hung, 10*time.Millisecond)
	i := challenge(dc, games.ID, alice, bob)
	_, err = dc.PostInteraction(url+"/interactions", i)
	require.NoError(t, err)
	assert.Contains(t, dc.WaitResponse(t, i.ID).Content, "Challenge sent to bob")
	waitNotified(t, dc, bob.ID, "challenges you")
	cancel()
	assert.Equal(t, 0, <-done, stderr.String())
	assert.True(t, strings.HasPrefix(stderr.String(), "{"), "json logs")
}

func TestRunErrors(t *testing.T) {
	cases := []struct {
		name string
		args []string
		env  map[string]string
		code int
		want string
	}{
		{"usage", []string{"frobnicate"}, nil, 2, "unknown command"},
		{"help", []string{"-h"}, nil, 0, "usage:"},
		{"no config", nil, nil, 1, "there is no configuration file config.toml: copy config.example.toml to config.toml"},
		{"no token", nil, map[string]string{"KULAMI_DISCORD_APPLICATION_ID": "123456789012345678"}, 1, "no bot token"},
		{"missing folder", nil, map[string]string{"KULAMI_DISCORD_TOKEN": "x", "KULAMI_DISCORD_APPLICATION_ID": "123456789012345678", "KULAMI_STORAGE_PATH": "/nonexist/dir/k.db"}, 1, "kulamibot: open /nonexist/dir/k.db: the folder /nonexist/dir does not exist: create it, or set storage.path"},
		{"missing config", []string{"-config", "/nonexistent/kulami.toml"}, nil, 1, "/nonexistent/kulami.toml"},
		{"backup of nothing", []string{"backup", "/tmp/x.db"}, map[string]string{"KULAMI_STORAGE_PATH": "/nonexistent/kulami.db"}, 1, "there is no database"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(t.Context(), c.args, env(c.env), &out, &errOut)
			assert.Equal(t, c.code, code)
			assert.Contains(t, out.String()+errOut.String(), c.want)
		})
	}
}

func TestRunRefusedToken(t *testing.T) {
	dc := discordtest.New(t, discordtest.CollectViolations())
	e := fakeEnv(dc, filepath.Join(t.TempDir(), "kulami.db"), map[string]string{"KULAMI_DISCORD_TOKEN": "wrong"})
	var out bytes.Buffer
	code := run(t.Context(), []string{"register"}, e, &out, &out)
	assert.Equal(t, 1, code)
	assert.Contains(t, out.String(), "Discord refused the bot token")
}

// TestRunFatalGatewayClose checks that kulamibot stops, with a non-zero
// status and a message naming the cause, when Discord closes the gateway
// with a code after which reconnecting cannot help: at the start, and while
// it runs. A service manager then restarts it, and the operator sees why.
func TestRunFatalGatewayClose(t *testing.T) {
	causes := map[int]string{
		4004: "authentication failed: the bot token is wrong or was reset",
		4010: "invalid shard",
		4011: "sharding required",
		4012: "invalid API version",
		4013: "invalid intents",
		4014: "disallowed intents",
	}
	for _, code := range discordtest.FatalCloseCodes {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			dc := discordtest.New(t)
			dc.CloseGateway(code)
			var stderr discordtest.LogBuffer
			status := run(t.Context(), nil, fakeEnv(dc, filepath.Join(t.TempDir(), "kulami.db"), nil), &bytes.Buffer{}, &stderr)
			assert.Equal(t, 1, status)
			assert.Contains(t, stderr.String(), "kulamibot: connect to Discord: ")
			assert.Contains(t, stderr.String(), "code "+strconv.Itoa(code)+", "+causes[code])
		})
	}
	t.Run("while running", func(t *testing.T) {
		dc := discordtest.New(t)
		var stderr discordtest.LogBuffer
		done := make(chan int, 1)
		ctx, cancel := context.WithCancel(t.Context())
		t.Cleanup(cancel)
		e := fakeEnv(dc, filepath.Join(t.TempDir(), "kulami.db"), nil)
		go func() { done <- run(ctx, nil, e, &bytes.Buffer{}, &stderr) }()
		dc.WaitReady(t)
		dc.CloseGateway(4004)
		select {
		case status := <-done:
			assert.Equal(t, 1, status)
		case <-time.After(hung):
			t.Fatal("kulamibot runs on after Discord refused its token")
		}
		assert.Contains(t, stderr.String(), "reconnect to the Discord gateway: Discord closed the gateway with code 4004, authentication failed")
		assert.Contains(t, stderr.String(), "shutting down", "the bot shut down in order")
	})
}

// waitNotified waits until Discord has notified the user with a message
// that contains text.
func waitNotified(t *testing.T, dc *discordtest.Server, userID, text string) {
	t.Helper()
	dc.WaitUntil(t, "a notification of "+userID+" with "+text, func() bool {
		for _, m := range dc.Notifications(userID) {
			if strings.Contains(m.Content, text) {
				return true
			}
		}
		return false
	})
}

// TestRunGatewayShards runs two kulamibot processes as shards 0 and 1 of
// two: the fake Discord, like Discord, sends the guild's interactions only
// to the shard (guild_id >> 22) % 2, and that process answers them. (Each
// has a database file of its own here; sharing one needs PostgreSQL.)
func TestRunGatewayShards(t *testing.T) {
	dc := discordtest.New(t)
	games := dc.AddChannel("games")
	alice, bob := dc.AddUser("alice"), dc.AddUser("bob")
	guild, err := strconv.ParseUint(dc.GuildID(), 10, 64)
	require.NoError(t, err)
	mine := int((guild >> 22) % 2)

	dir := t.TempDir()
	dbs := [2]string{filepath.Join(dir, "shard0.db"), filepath.Join(dir, "shard1.db")}
	ctx, cancel := context.WithCancel(t.Context())
	t.Cleanup(cancel)
	done := make(chan int, 2)
	var logs [2]discordtest.LogBuffer
	start := func(shard int) {
		e := fakeEnv(dc, dbs[shard], map[string]string{"KULAMI_DISCORD_SHARD_ID": strconv.Itoa(shard), "KULAMI_DISCORD_SHARD_COUNT": "2"})
		go func() { done <- run(ctx, nil, e, &bytes.Buffer{}, &logs[shard]) }()
	}
	// The other shard connects first; the interaction waits for its own.
	start(1 - mine)
	dc.WaitReady(t)
	start(mine)

	i := challenge(dc, games.ID, alice, bob)
	dc.SendInteraction(i)
	assert.Contains(t, dc.WaitResponse(t, i.ID).Content, "Challenge sent to bob")

	cancel()
	for range 2 {
		waitExit(t, done, func() string { return logs[0].String() + logs[1].String() })
	}
	for shard, path := range dbs {
		s, err := storage.Open(path, storage.Options{Timeout: 100 * time.Millisecond})
		require.NoError(t, err)
		_, err = s.Challenge(t.Context(), games.ID)
		if shard == mine {
			assert.NoError(t, err, "shard %d, the guild's, holds the challenge", shard)
		} else {
			assert.ErrorIs(t, err, storage.ErrNotFound, "shard %d never saw the guild's interaction", shard)
		}
		require.NoError(t, s.Close())
	}
}

// TestRunLinkedRoles runs kulamibot in gateway mode with Linked Roles on: it registers their metadata at
// start and serves the sign-in on http.listen, which sends the browser to Discord's authorization page
// with the callback under http.public_url; neither secret reaches the logs.
func TestRunLinkedRoles(t *testing.T) {
	dc := discordtest.New(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	key := strings.Repeat("5a", 32)
	e := fakeEnv(dc, filepath.Join(t.TempDir(), "kulami.db"), map[string]string{
		"KULAMI_DISCORD_CLIENT_SECRET":    dc.ClientSecret(),
		"KULAMI_DISCORD_LINKED_ROLES_KEY": key,
		"KULAMI_HTTP_LISTEN":              addr,
		"KULAMI_HTTP_PUBLIC_URL":          "https://kulami.example",
	})
	cancel, done, stderr := startBot(t, e)
	dc.WaitReady(t)

	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var resp *http.Response
	require.Eventually(t, func() bool {
		resp, err = client.Get("http://" + addr + "/linked-roles")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	}, hung, 10*time.Millisecond)
	assert.Equal(t, http.StatusFound, resp.StatusCode)
	loc, err := url.Parse(resp.Header.Get("Location"))
	require.NoError(t, err)
	assert.Equal(t, "https://discord.com/oauth2/authorize", loc.Scheme+"://"+loc.Host+loc.Path)
	assert.Equal(t, "https://kulami.example/linked-roles/callback", loc.Query().Get("redirect_uri"))
	assert.Equal(t, "identify role_connections.write", loc.Query().Get("scope"))
	var records []map[string]any
	require.NoError(t, json.Unmarshal(dc.RoleMetadata(), &records))
	assert.Len(t, records, 5, "the metadata registered at start")

	cancel()
	waitExit(t, done, stderr.String)
	assert.Contains(t, stderr.String(), "Linked Roles on")
	assert.NotContains(t, stderr.String(), dc.ClientSecret())
	assert.NotContains(t, stderr.String(), key)
}
