package main

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/storage/postgres"
)

// env returns a lookup function over a map, as os.Getenv.
func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// minimal are the settings every run needs.
var minimal = map[string]string{
	"KULAMI_DISCORD_TOKEN":          "secret-token",
	"KULAMI_DISCORD_APPLICATION_ID": "123456789012345678",
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
	return p
}

// TestExampleConfig checks that config.example.toml reads without an
// unknown key and gives the defaults: the example mirrors DefaultConfig.
func TestExampleConfig(t *testing.T) {
	c, err := LoadConfig(Load{Path: "../../config.example.toml", Required: true, Env: env(minimal)})
	require.NoError(t, err)
	want := DefaultConfig()
	want.Discord.Token, want.Discord.ApplicationID = "secret-token", "123456789012345678"
	assert.Equal(t, want, c)
}

func TestConfigFromFileAndEnvironment(t *testing.T) {
	p := writeFile(t, "config.toml", `
[discord]
token = "from-file"
application_id = "111111111111111111"
mode = "http"
public_key = "`+"aa"+`"
[storage]
path = "/var/lib/kulami/kulami.db"
[game]
move_time = "24h"
`)
	e := map[string]string{
		"KULAMI_DISCORD_PUBLIC_KEY": "3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29",
		"KULAMI_DISCORD_TOKEN":      "from-env",
		"KULAMI_GAME_AI_TIME":       "1s",
	}
	c, err := LoadConfig(Load{Path: p, Required: true, Env: env(e)})
	require.NoError(t, err)
	assert.Equal(t, "from-env", c.Discord.Token, "the environment wins over the file")
	assert.Equal(t, "http", c.Discord.Mode)
	assert.Equal(t, "/var/lib/kulami/kulami.db", c.Storage.Path)
	assert.Equal(t, 24*time.Hour, c.Game.MoveTime.Duration)
	assert.Equal(t, time.Second, c.Game.AITime.Duration)
	assert.Equal(t, "https://discord.com/api/v10", c.Discord.APIURL, "defaults fill the rest")
}

func TestConfigPostgres(t *testing.T) {
	p := writeFile(t, "config.toml", "[storage]\nbackend = \"postgres\"\n")
	e := map[string]string{"KULAMI_STORAGE_DSN": "postgres://kulami:pw@db.example.com:5433/kulami"}
	maps.Copy(e, minimal)
	c, err := LoadConfig(Load{Path: p, Required: true, Env: env(e)})
	require.NoError(t, err)
	assert.Equal(t, "postgres", c.Storage.Backend)
	assert.Equal(t, e["KULAMI_STORAGE_DSN"], c.Storage.DSN, "the DSN may come from the environment")
	assert.Equal(t, "PostgreSQL database kulami on db.example.com:5433 as kulami", c.Storage.where(), "logs never show the password")
	assert.Equal(t, postgres.Config{AcquireTimeout: 10 * time.Second, LockTimeout: 2 * time.Second, ConnectWait: 30 * time.Second},
		c.Storage.pgConfig(nil), "the defaults")

	e["KULAMI_STORAGE_POOL_MAX"] = "12"
	e["KULAMI_STORAGE_POOL_ACQUIRE_TIMEOUT"] = "500ms"
	e["KULAMI_STORAGE_LOCK_TIMEOUT"] = "5s"
	e["KULAMI_STORAGE_CONNECT_WAIT"] = "2m"
	c, err = LoadConfig(Load{Path: p, Required: true, Env: env(e)})
	require.NoError(t, err)
	assert.Equal(t, postgres.Config{PoolMax: 12, AcquireTimeout: 500 * time.Millisecond, LockTimeout: 5 * time.Second, ConnectWait: 2 * time.Minute},
		c.Storage.pgConfig(nil))
}

func TestConfigTokenFile(t *testing.T) {
	tok := writeFile(t, "token", "  file-token\n")
	c, err := LoadConfig(Load{Path: "missing.toml", Env: env(map[string]string{
		"KULAMI_DISCORD_TOKEN_FILE":     tok,
		"KULAMI_DISCORD_APPLICATION_ID": "123456789012345678",
	})})
	require.NoError(t, err)
	assert.Equal(t, "file-token", c.Discord.Token)
}

// TestConfigErrors: every setting a server owner can get wrong is refused
// with a message that says what to do.
func TestConfigErrors(t *testing.T) {
	cases := []struct {
		name, file string
		env        map[string]string
		want       string
	}{
		{"no token", "", map[string]string{"KULAMI_DISCORD_APPLICATION_ID": "123456789012345678"}, "no bot token: set discord.token"},
		{"no application", "", map[string]string{"KULAMI_DISCORD_TOKEN": "x"}, "no application ID"},
		{"application not an ID", "", map[string]string{"KULAMI_DISCORD_TOKEN": "x", "KULAMI_DISCORD_APPLICATION_ID": "my-bot"}, "is not an ID"},
		{"guild not an ID", "[discord]\nguild_id = \"my server\"\n", minimal, "Copy Server ID"},
		{"bad mode", "[discord]\nmode = \"websocket\"\n", minimal, `must be "gateway" or "http"`},
		{"http without key", "[discord]\nmode = \"http\"\n", minimal, "http mode needs discord.public_key"},
		{"bad key", "[discord]\npublic_key = \"xyz\"\n", minimal, "64 hex digits"},
		{"bad api url", "[discord]\napi_url = \"discord.com\"\n", minimal, "not an http(s) URL"},
		{"no shards", "[discord]\nshard_count = 0\n", minimal, "discord.shard_count is 0; it is the number of gateway processes, 1 or more"},
		{"shard out of range", "[discord]\nshard_id = 2\nshard_count = 2\n", minimal, "discord.shard_id is 2; with shard_count 2 it must be from 0 to 1"},
		{"negative shard", "[discord]\nshard_id = -1\n", minimal, "discord.shard_id is -1; with shard_count 1 it must be from 0 to 0"},
		{"shards in http mode", "[discord]\nmode = \"http\"\npublic_key = \"3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29\"\nshard_count = 2\nshard_id = 1\n", minimal, "in http mode run several processes behind a load balancer"},
		{"bad listen", "[http]\nlisten = \"8080\"\n", minimal, "not host:port"},
		{"linked roles without a key", "[discord]\nclient_secret = \"s\"\n[http]\npublic_url = \"https://k.example\"\n", minimal, "discord.linked_roles_key must be 64 hex digits"},
		{"linked roles with a short key", "[discord]\nclient_secret = \"s\"\nlinked_roles_key = \"abcd\"\n[http]\npublic_url = \"https://k.example\"\n", minimal, "discord.linked_roles_key must be 64 hex digits"},
		{"linked roles and metrics on one port", "[discord]\nclient_secret = \"s\"\nlinked_roles_key = \"" + strings.Repeat("ab", 32) + "\"\n[http]\npublic_url = \"https://k.example\"\n[metrics]\nlisten = \"127.0.0.1:8080\"\n", minimal, "where the Linked Roles pages are served"},
		{"linked roles without a public URL", "[discord]\nclient_secret = \"s\"\nlinked_roles_key = \"" + strings.Repeat("ab", 32) + "\"\n", minimal, "http.public_url \"\": Linked Roles"},
		{"bad metrics listen", "[metrics]\nlisten = \"9090\"\n", minimal, `metrics.listen "9090" is not host:port, like 127.0.0.1:9090`},
		{"metrics on the http listener", "[discord]\nmode = \"http\"\npublic_key = \"3b6a27bcceb6a42d62a3a8d02a6f0d73653215771de243a63ac048a18b59da29\"\n[metrics]\nlisten = \"127.0.0.1:8080\"\n", minimal, "leave metrics.listen empty to serve /metrics there"},
		{"empty path", "[storage]\npath = \"\"\n", minimal, "storage.path is empty"},
		{"unknown backend", "[storage]\nbackend = \"sqlite\"\n", minimal, `storage.backend is "sqlite"; it must be "bbolt" (one file, one process: the default) or "postgres"`},
		{"postgres without dsn", "[storage]\nbackend = \"postgres\"\n", minimal, `storage.backend is "postgres", but storage.dsn is empty: set it (or KULAMI_STORAGE_DSN) to the database's URL`},
		{"dsn not a URL", "[storage]\nbackend = \"postgres\"\ndsn = \"postgres://kulami:secret-token@db:port/kulami\"\n", minimal, "storage.dsn: the DSN cannot be read (invalid port); write it as a URL"},
		{"dsn with spaces", "", map[string]string{"KULAMI_DISCORD_TOKEN": "x", "KULAMI_DISCORD_APPLICATION_ID": "123456789012345678", "KULAMI_STORAGE_BACKEND": "postgres", "KULAMI_STORAGE_DSN": "postgres://kulami:secret-token@db server/kulami"}, "storage.dsn: the DSN cannot be read"},
		{"dsn for bbolt", "[storage]\ndsn = \"postgres://db/kulami\"\n", minimal, `storage.dsn is set, but storage.backend is "bbolt": set backend = "postgres"`},
		{"negative pool", "[storage]\npool_max = -1\n", minimal, "storage.pool_max is -1; choose 0 ("},
		{"huge pool", "", map[string]string{"KULAMI_DISCORD_TOKEN": "x", "KULAMI_DISCORD_APPLICATION_ID": "123456789012345678", "KULAMI_STORAGE_POOL_MAX": "5000"}, "storage.pool_max is 5000"},
		{"acquire timeout", "[storage]\npool_acquire_timeout = \"1m\"\n", minimal, "storage.pool_acquire_timeout is 1m0s; choose between 10ms and 30s"},
		{"lock timeout", "[storage]\nlock_timeout = \"0s\"\n", minimal, "storage.lock_timeout is 0s; choose between 10ms and 1m"},
		{"connect wait", "[storage]\nconnect_wait = \"100ms\"\n", minimal, "storage.connect_wait is 100ms; choose between 1s and 1h"},
		{"move time too short", "[game]\nmove_time = \"5m\"\n", minimal, "between 1h and 336h"},
		{"not a duration", "[game]\nmove_time = \"3 days\"\n", minimal, `not a duration like "72h"`},
		{"bad env duration", "", map[string]string{"KULAMI_DISCORD_TOKEN": "x", "KULAMI_DISCORD_APPLICATION_ID": "123456789012345678", "KULAMI_GAME_MOVE_TIME": "soon"}, "KULAMI_GAME_MOVE_TIME"},
		{"ai time", "[game]\nai_time = \"1m\"\n", minimal, "between 100ms and 10s"},
		{"expiry", "[game]\nchallenge_expiry = \"1s\"\n", minimal, "challenge_expiry"},
		{"cache too small", "[draw]\ncache_mb = 1\n", minimal, "draw.cache_mb is 1; choose between 8 and 4096"},
		{"missing font", "[draw]\nfonts = [\"/no/such/font.ttf\"]\n", minimal, "draw.fonts: stat /no/such/font.ttf"},
		{"bad env number", "", map[string]string{"KULAMI_DISCORD_TOKEN": "x", "KULAMI_DISCORD_APPLICATION_ID": "123456789012345678", "KULAMI_DRAW_CACHE_MB": "lots"}, "KULAMI_DRAW_CACHE_MB: \"lots\" is not a whole number"},
		{"negative ID", "[discord]\napplication_id = -5\n", minimal, "IDs are positive numbers"},
		{"ID not a number", "[discord]\napplication_id = 1.5\n", minimal, "is not a Discord ID"},
		{"log level", "[log]\nlevel = \"loud\"\n", minimal, "debug, info, warn or error"},
		{"log format", "[log]\nformat = \"xml\"\n", minimal, `"text" or "json"`},
		{"unknown key", "[discord]\ntokn = \"x\"\n", minimal, "unknown key discord.tokn"},
		{"unknown section", "[database]\npath = \"x\"\n", minimal, "unknown key database"},
		{"syntax", "[discord]\nmode = 5 5\n", minimal, "config.toml"},
		{"unclosed section", "[discord\ntoken = \"secret-token\"\n", nil, "line 1: the section name [discord is not closed: write it as [discord]"},
		{"unclosed section further down", "[discord]\nmode = \"gateway\"\n[storage\npath = \"k.db\"\n", minimal, "line 3: the section name [storage is not closed"},
		{"token without quotes", "[discord]\ntoken = Mz.secret-token-text\n", nil, "line 2 is not valid TOML"},
		{"token unterminated", "[discord]\ntoken = \"Mz.secret-token-text\nmode = \"http\"\n", nil, "write the token in double quotes"},
		{"token without equals", "[discord]\ntoken Mz.secret-token-text\n", nil, "line 2"},
		{"missing token file", "[discord]\ntoken_file = \"/nonexistent/token\"\n", map[string]string{"KULAMI_DISCORD_APPLICATION_ID": "123456789012345678"}, "discord.token_file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeFile(t, "config.toml", c.file)
			_, err := LoadConfig(Load{Path: p, Required: true, Env: env(c.env)})
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
			assert.NotContains(t, err.Error(), "secret-token", "the token is never shown")
		})
	}
	t.Run("required file missing", func(t *testing.T) {
		_, err := LoadConfig(Load{Path: filepath.Join(t.TempDir(), "nope.toml"), Required: true, Env: env(minimal)})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "nope.toml")
		assert.Contains(t, err.Error(), "copy config.example.toml to", "it says what to do")
	})
	t.Run("IDs written as numbers", func(t *testing.T) {
		p := writeFile(t, "numbers.toml", "[discord]\ntoken = \"x\"\napplication_id = 123456789012345678\nguild_id = 987654321098765432\n")
		c, err := LoadConfig(Load{Path: p, Required: true, Env: env(nil)})
		require.NoError(t, err, "an ID pasted without quotes is taken")
		assert.Equal(t, ID("123456789012345678"), c.Discord.ApplicationID)
		assert.Equal(t, ID("987654321098765432"), c.Discord.GuildID)
	})
	t.Run("no file and nothing set", func(t *testing.T) {
		// kulamibot run without -config where there is no config.toml:
		// the first run, most likely; it says how to start.
		_, err := LoadConfig(Load{Path: filepath.Join(t.TempDir(), "config.toml"), Env: env(nil)})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "there is no configuration file")
		assert.Contains(t, err.Error(), "copy config.example.toml to")
		assert.NotContains(t, err.Error(), "no bot token")
	})
	t.Run("no file, environment only", func(t *testing.T) {
		_, err := LoadConfig(Load{Path: filepath.Join(t.TempDir(), "config.toml"), Env: env(minimal)})
		assert.NoError(t, err, "the environment may stand in for the file")
	})
	t.Run("backup needs no discord settings", func(t *testing.T) {
		_, err := LoadConfig(Load{Path: "missing.toml", Offline: true, Env: env(nil)})
		assert.NoError(t, err)
	})
}

func TestParseArgs(t *testing.T) {
	cases := []struct {
		args []string
		want arguments
		err  string
	}{
		{nil, arguments{config: "config.toml"}, ""},
		{[]string{"-config", "x.toml"}, arguments{config: "x.toml", configSet: true}, ""},
		{[]string{"-config", "x.toml", "register"}, arguments{config: "x.toml", configSet: true, command: "register"}, ""},
		{[]string{"backup", "b.db"}, arguments{config: "config.toml", command: "backup", file: "b.db"}, ""},
		{[]string{"help"}, arguments{config: "config.toml", command: "help", help: true}, ""},
		{[]string{"-h"}, arguments{config: "config.toml", help: true}, ""},
		{[]string{"backup"}, arguments{}, "backup needs the name of the file"},
		{[]string{"serve"}, arguments{}, `unknown command "serve"`},
		{[]string{"register", "now"}, arguments{}, `unexpected argument "now"`},
		{[]string{"-confg", "x"}, arguments{}, "flag provided but not defined"},
	}
	for _, c := range cases {
		t.Run(fmtArgs(c.args), func(t *testing.T) {
			got, err := parseArgs(c.args)
			if c.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

func fmtArgs(a []string) string {
	if len(a) == 0 {
		return "none"
	}
	return filepath.Join(a...)
}

// FuzzLoadConfig reads arbitrary configuration files: none may panic or
// show the token from the environment; a file that is accepted gives a
// configuration that passes its checks and writes back to a file that
// reads the same.
func FuzzLoadConfig(f *testing.F) {
	example, err := os.ReadFile("../../config.example.toml")
	require.NoError(f, err)
	for _, s := range []string{
		string(example), "", "[discord]\nmode = \"http\"\npublic_key = \"" + strings.Repeat("ab", 32) + "\"\n",
		"[game]\nmove_time = \"24h\"\nai_time = \"500ms\"\n", "[discord\n", "[log]\nlevel = \"debug\"\nformat = \"json\"\n",
		"[discord]\ntoken = Mz.secret\n", "[storage]\npath = 7\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, file string) {
		p := writeFile(t, "config.toml", file)
		c, err := LoadConfig(Load{Path: p, Required: true, Env: env(minimal)})
		if err != nil {
			assert.NotContains(t, err.Error(), minimal["KULAMI_DISCORD_TOKEN"])
			return
		}
		require.NoError(t, c.check())
		var buf bytes.Buffer
		require.NoError(t, toml.NewEncoder(&buf).Encode(c))
		again, err := LoadConfig(Load{Path: writeFile(t, "again.toml", buf.String()), Required: true, Env: env(nil)})
		require.NoError(t, err, "the written configuration:\n%s", buf.String())
		assert.Equal(t, c, again)
	})
}
