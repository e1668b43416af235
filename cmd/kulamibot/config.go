package main

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/url"
	"os"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/BurntSushi/toml"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/linkedroles"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/storage/postgres"
)

// Config is everything kulamibot reads from its configuration file
// (config.example.toml documents every key) and the environment: every key
// can also be set as KULAMI_<SECTION>_<KEY>, e.g. KULAMI_DISCORD_TOKEN,
// which wins over the file.
type Config struct {
	Discord DiscordConfig `toml:"discord"`
	HTTP    HTTPConfig    `toml:"http"`
	Metrics MetricsConfig `toml:"metrics"`
	Storage StorageConfig `toml:"storage"`
	Game    GameConfig    `toml:"game"`
	Draw    DrawConfig    `toml:"draw"`
	Log     LogConfig     `toml:"log"`
}

// DrawConfig is how boards are drawn.
type DrawConfig struct {
	// CacheMB bounds the memory of the boards kept drawn, one per layout
	// (about 75 KB each), in MiB.
	CacheMB int `toml:"cache_mb"`
	// Fonts are font files for names in scripts the embedded fonts lack;
	// empty: the system's, if installed (see draw.SystemFonts).
	Fonts []string `toml:"fonts"`
}

// renderer returns the Config of a board renderer that d describes.
func (d DrawConfig) renderer() draw.Config {
	c := draw.Config{CacheBytes: d.CacheMB << 20}
	if len(d.Fonts) > 0 {
		c.Fonts = d.Fonts // else nil: the system's
	}
	return c
}

// DiscordConfig is how the bot reaches Discord.
type DiscordConfig struct {
	Token         string `toml:"token"`      // bot token; secret
	TokenFile     string `toml:"token_file"` // or a file holding it
	ApplicationID ID     `toml:"application_id"`
	PublicKey     string `toml:"public_key"` // hex, for http mode
	Mode          string `toml:"mode"`       // gateway or http
	GuildID       ID     `toml:"guild_id"`   // register commands in this guild only
	APIURL        string `toml:"api_url"`    // REST base URL
	// Gateway mode can split the guilds over several processes (Discord's
	// shards): this process connects as shard ShardID of ShardCount.
	ShardID    int `toml:"shard_id"`
	ShardCount int `toml:"shard_count"`
	// ClientSecret is the application's OAuth2 client secret, for Linked
	// Roles (README: Linked Roles); empty turns them off. Secret.
	ClientSecret string `toml:"client_secret"`
	// LinkedRolesKey is 64 hex digits that seal the Linked Roles tokens
	// kept in the database and sign the sign-ins' cookies. Secret.
	LinkedRolesKey string `toml:"linked_roles_key"`
}

// linkedRoles reports whether Linked Roles are on.
func (d DiscordConfig) linkedRoles() bool { return d.ClientSecret != "" }

// linkedRolesKey returns the key of LinkedRolesKey.
func (d DiscordConfig) linkedRolesKey() ([]byte, error) {
	k, err := hex.DecodeString(d.LinkedRolesKey)
	if err != nil || len(k) != linkedroles.KeySize {
		return nil, errors.New("discord.linked_roles_key must be 64 hex digits (32 random bytes, such as `openssl rand -hex 32` prints) when discord.client_secret is set; keep it: the tokens in the database need it")
	}
	return k, nil
}

// HTTPConfig is the interactions endpoint of http mode.
type HTTPConfig struct {
	Listen string `toml:"listen"`
	// PublicURL is where browsers reach Listen (https://…), for the
	// Linked Roles pages and their redirect URI.
	PublicURL string `toml:"public_url"`
}

// MetricsConfig is where the operators' endpoints are served: GET
// /metrics (Prometheus), /healthz and /readyz.
type MetricsConfig struct {
	// Listen is their own listener (host:port). Empty: in http mode they
	// are served on http.listen, next to /interactions; in gateway mode
	// not at all. Off by default, so nothing is exposed that was not asked
	// for (README: Operating the bot).
	Listen string `toml:"listen"`
}

// StorageConfig is where games are kept: a bbolt file (one process) or a
// PostgreSQL database (any number of processes).
type StorageConfig struct {
	Backend string `toml:"backend"` // bbolt or postgres
	Path    string `toml:"path"`    // the bbolt file
	DSN     string `toml:"dsn"`     // the PostgreSQL database; may hold a password
	// The rest is for PostgreSQL (see postgres.Config).
	PoolMax            int      `toml:"pool_max"`             // connections per process; 0: the DSN's pool_max_conns, else postgres.DefaultPoolMax
	PoolAcquireTimeout Duration `toml:"pool_acquire_timeout"` // how long a call waits for a free connection
	LockTimeout        Duration `toml:"lock_timeout"`         // how long a write waits for a row another holds
	ConnectWait        Duration `toml:"connect_wait"`         // how long start-up waits for the server
}

// pgConfig returns how a PostgreSQL store uses its server as s says,
// logging to log.
func (s StorageConfig) pgConfig(log *slog.Logger) postgres.Config {
	return postgres.Config{
		PoolMax:        s.PoolMax,
		AcquireTimeout: s.PoolAcquireTimeout.Duration,
		LockTimeout:    s.LockTimeout.Duration,
		ConnectWait:    s.ConnectWait.Duration,
		Logger:         log,
	}
}

// GameConfig holds defaults for new games.
type GameConfig struct {
	MoveTime        Duration `toml:"move_time"`        // per move, unless the guild or the challenge says otherwise
	ChallengeExpiry Duration `toml:"challenge_expiry"` // unanswered challenges expire after this
	AITime          Duration `toml:"ai_time"`          // the computer's thinking time per move at level hard
}

// LogConfig is how kulamibot logs.
type LogConfig struct {
	Level  string `toml:"level"`  // debug, info, warn, error
	Format string `toml:"format"` // text or json
}

// ID is a Discord ID (a snowflake), such as an application or guild ID.
// TOML has it as a string, but a number is taken too: pasting an ID
// without quotes is an easy mistake.
type ID string

// UnmarshalTOML reads an ID written as a string or as a number.
func (id *ID) UnmarshalTOML(v any) error {
	switch v := v.(type) {
	case string:
		*id = ID(v)
	case int64:
		if v < 0 {
			return fmt.Errorf("%d is not a Discord ID: IDs are positive numbers; copy it again from Discord", v)
		}
		*id = ID(strconv.FormatInt(v, 10))
	default:
		return fmt.Errorf("%v is not a Discord ID: write the number Discord shows, in quotes, like \"123456789012345678\"", v)
	}
	return nil
}

// Duration is a time.Duration written as "72h" or "30m" in TOML.
type Duration struct{ time.Duration }

// UnmarshalText reads a duration such as "72h".
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration like \"72h\" or \"30m\"", b)
	}
	d.Duration = v
	return nil
}

// MarshalText writes the duration as time.Duration.String does.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// DefaultConfig returns the configuration used for keys that are not set.
func DefaultConfig() Config {
	return Config{
		Discord: DiscordConfig{Mode: "gateway", APIURL: "https://discord.com/api/v10", ShardCount: 1},
		HTTP:    HTTPConfig{Listen: "127.0.0.1:8080"},
		Storage: StorageConfig{
			Backend:            "bbolt",
			Path:               "kulami.db",
			PoolAcquireTimeout: Duration{postgres.DefaultAcquireTimeout},
			LockTimeout:        Duration{postgres.DefaultLockTimeout},
			ConnectWait:        Duration{postgres.DefaultConnectWait},
		},
		Game: GameConfig{
			MoveTime:        Duration{72 * time.Hour},
			ChallengeExpiry: Duration{24 * time.Hour},
			AITime:          Duration{2 * time.Second},
		},
		Draw: DrawConfig{CacheMB: draw.DefaultCacheBytes >> 20},
		Log:  LogConfig{Level: "info", Format: "text"},
	}
}

// Load says where LoadConfig reads the configuration from and what the
// command that reads it needs of it.
type Load struct {
	// Path is the configuration file.
	Path string
	// Required makes a missing file an error (it was named with -config);
	// otherwise the defaults and the environment stand in for it.
	Required bool
	// Offline skips the checks of the [discord] section, for a command
	// that does not talk to Discord (backup, migrate).
	Offline bool
	// Env reads the environment (os.Getenv).
	Env func(string) string
}

// LoadConfig reads the configuration file l.Path over the defaults, then
// the environment, and checks the result as l says. Every problem is
// reported with what to do about it.
func LoadConfig(l Load) (Config, error) {
	c := DefaultConfig()
	path := l.Path
	data, err := os.ReadFile(path)
	noFile := errors.Is(err, fs.ErrNotExist)
	switch {
	case noFile && !l.Required:
	case noFile:
		return c, errNoFile(path)
	case err != nil:
		return c, fmt.Errorf("read the configuration: %w", err)
	default:
		md, err := toml.Decode(string(data), &c)
		if err != nil {
			return c, fmt.Errorf("%s: %w", path, hideSecret(err, data))
		}
		if extra := md.Undecoded(); len(extra) > 0 {
			keys := make([]string, len(extra))
			for i, k := range extra {
				keys[i] = k.String()
			}
			return c, fmt.Errorf("%s: unknown key %s; see config.example.toml for the keys there are", path, strings.Join(keys, ", "))
		}
	}
	if err := fromEnv(&c, l.Env); err != nil {
		return c, err
	}
	if noFile && !l.Offline && reflect.DeepEqual(c, DefaultConfig()) {
		// Nothing configured at all: the first run, most likely.
		return c, errNoFile(path)
	}
	if c.Discord.Token == "" && c.Discord.TokenFile != "" {
		b, err := os.ReadFile(c.Discord.TokenFile)
		if err != nil {
			return c, fmt.Errorf("discord.token_file: %w", err)
		}
		c.Discord.Token = strings.TrimSpace(string(b))
	}
	if l.Offline {
		return c, c.checkOffline()
	}
	return c, c.check()
}

// errNoFile says that the configuration file path is missing and how to
// make one.
func errNoFile(path string) error {
	return fmt.Errorf("there is no configuration file %s: copy config.example.toml to %s and fill in its [discord] keys (see README.md, \"Setting up the Discord application\"), or give another file with -config", path, path)
}

// hideSecret keeps the bot token out of a TOML syntax error: the TOML
// library quotes what it found, and a token written without quotes would
// end up in the terminal or the logs. An error on a line that mentions a
// token says where it is and how to write it, without the line's text.
//
// The line is counted from the error's byte offset: the library names the
// next line when the character it stopped at is the line's end (an
// unclosed "[discord" would be blamed on the token line below it).
func hideSecret(err error, data []byte) error {
	var pe toml.ParseError
	if !errors.As(err, &pe) {
		return err
	}
	n := pe.Position.Line
	if s := pe.Position.Start; s >= 0 && s <= len(data) {
		n = bytes.Count(data[:s], []byte("\n")) + 1
	}
	lines := strings.Split(string(data), "\n")
	if n < 1 || n > len(lines) {
		return err
	}
	line := strings.TrimSpace(lines[n-1])
	switch {
	case strings.Contains(strings.ToLower(line), "token") || strings.Contains(strings.ToLower(line), "secret") || strings.Contains(strings.ToLower(line), "linked_roles_key"):
		return fmt.Errorf("line %d is not valid TOML (its text is not shown: it may hold the bot token); write the token in double quotes, like token = \"…\"", n)
	case strings.HasPrefix(line, "[") && !strings.Contains(line, "]"):
		return fmt.Errorf("line %d: the section name %s is not closed: write it as %s]", n, line, line)
	case n != pe.Position.Line:
		return fmt.Errorf("line %d: %s", n, pe.Message)
	}
	return err
}

// fromEnv sets every key whose variable KULAMI_<SECTION>_<KEY> is set.
func fromEnv(c *Config, env func(string) string) error {
	sections := reflect.ValueOf(c).Elem()
	for i := range sections.NumField() {
		section := sections.Type().Field(i).Tag.Get("toml")
		keys := sections.Field(i)
		for j := range keys.NumField() {
			key := keys.Type().Field(j).Tag.Get("toml")
			name := "KULAMI_" + strings.ToUpper(section+"_"+key)
			v := env(name)
			if v == "" {
				continue
			}
			switch f := keys.Field(j).Addr().Interface().(type) {
			case *string:
				*f = v
			case *ID:
				*f = ID(v)
			case *Duration:
				if err := f.UnmarshalText([]byte(v)); err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
			case *int:
				n, err := strconv.Atoi(v)
				if err != nil {
					return fmt.Errorf("%s: %q is not a whole number", name, v)
				}
				*f = n
			case *[]string: // a list, separated by commas
				*f = strings.Split(v, ",")
			default:
				panic("kulamibot: no environment parser for " + name)
			}
		}
	}
	return nil
}

// check reports the first setting that cannot work, saying how to fix it.
func (c *Config) check() error {
	if err := c.Discord.check(); err != nil {
		return err
	}
	return c.checkOffline()
}

// checkOffline is check without the [discord] section, for a command that
// does not talk to Discord.
func (c *Config) checkOffline() error {
	if _, _, err := net.SplitHostPort(c.HTTP.Listen); err != nil {
		return fmt.Errorf("http.listen %q is not host:port, like 127.0.0.1:8080 or :8080", c.HTTP.Listen)
	}
	if err := c.Metrics.check(c.HTTP, c.Discord.Mode, c.Discord.linkedRoles()); err != nil {
		return err
	}
	if c.Discord.linkedRoles() {
		if u, err := url.Parse(c.HTTP.PublicURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("http.public_url %q: Linked Roles (discord.client_secret) need the URL where browsers reach http.listen, like https://kulami.example.org", c.HTTP.PublicURL)
		}
	}
	if err := c.Storage.check(); err != nil {
		return err
	}
	g := c.Game
	switch {
	case g.MoveTime.Duration < time.Hour || g.MoveTime.Duration > 14*24*time.Hour:
		return fmt.Errorf("game.move_time is %s; choose between 1h and 336h (14 days)", g.MoveTime)
	case g.ChallengeExpiry.Duration < time.Minute || g.ChallengeExpiry.Duration > 14*24*time.Hour:
		return fmt.Errorf("game.challenge_expiry is %s; choose between 1m and 336h (14 days)", g.ChallengeExpiry)
	case g.AITime.Duration < 100*time.Millisecond || g.AITime.Duration > 10*time.Second:
		return fmt.Errorf("game.ai_time is %s; choose between 100ms and 10s", g.AITime)
	}
	if c.Draw.CacheMB < 8 || c.Draw.CacheMB > 4096 {
		return fmt.Errorf("draw.cache_mb is %d; choose between 8 and 4096 (MiB; a board takes about 75 KB)", c.Draw.CacheMB)
	}
	for _, f := range c.Draw.Fonts {
		if _, err := os.Stat(f); err != nil {
			return fmt.Errorf("draw.fonts: %w; name font files that exist, or leave the list empty for the system's", err)
		}
	}
	if _, err := c.Log.level(); err != nil {
		return err
	}
	if c.Log.Format != "text" && c.Log.Format != "json" {
		return fmt.Errorf("log.format is %q; it must be \"text\" or \"json\"", c.Log.Format)
	}
	return nil
}

// check reports whether the metrics' listener can work next to h's in
// mode.
func (m MetricsConfig) check(h HTTPConfig, mode string, linkedRoles bool) error {
	if m.Listen == "" {
		return nil
	}
	if _, _, err := net.SplitHostPort(m.Listen); err != nil {
		return fmt.Errorf("metrics.listen %q is not host:port, like 127.0.0.1:9090 (or empty: no listener of its own)", m.Listen)
	}
	if mode == "http" && m.Listen == h.Listen {
		return fmt.Errorf("metrics.listen is http.listen (%s): leave metrics.listen empty to serve /metrics there, or choose another port", m.Listen)
	}
	if linkedRoles && m.Listen == h.Listen {
		return fmt.Errorf("metrics.listen is http.listen (%s), where the Linked Roles pages are served: choose another port for the metrics, which should stay private", m.Listen)
	}
	return nil
}

// check reports the first storage setting that cannot work.
func (s StorageConfig) check() error {
	switch s.Backend {
	case "bbolt":
		if s.Path == "" {
			return errors.New("storage.path is empty: name the database file, like kulami.db")
		}
		if s.DSN != "" {
			return errors.New(`storage.dsn is set, but storage.backend is "bbolt": set backend = "postgres" to use the PostgreSQL database, or remove dsn (and KULAMI_STORAGE_DSN)`)
		}
	case "postgres":
		if s.DSN == "" {
			return errors.New(`storage.backend is "postgres", but storage.dsn is empty: set it (or KULAMI_STORAGE_DSN) to the database's URL, like postgres://kulami@db.example.com:5432/kulami`)
		}
		if err := postgres.CheckDSN(s.DSN); err != nil {
			return fmt.Errorf("storage.dsn: %w", err)
		}
	default:
		return fmt.Errorf(`storage.backend is %q; it must be "bbolt" (one file, one process: the default) or "postgres" (a database that several processes share)`, s.Backend)
	}
	switch {
	case s.PoolMax < 0 || s.PoolMax > 1000:
		return fmt.Errorf("storage.pool_max is %d; choose 0 (%d on this machine: 4 per core, 8 to 32) or from 1 to 1000, within the server's max_connections for all the processes", s.PoolMax, postgres.DefaultPoolMax())
	case s.PoolAcquireTimeout.Duration < 10*time.Millisecond || s.PoolAcquireTimeout.Duration > 30*time.Second:
		return fmt.Errorf("storage.pool_acquire_timeout is %s; choose between 10ms and 30s (a call waits this long for a free connection, then answers busy)", s.PoolAcquireTimeout)
	case s.LockTimeout.Duration < 10*time.Millisecond || s.LockTimeout.Duration > time.Minute:
		return fmt.Errorf("storage.lock_timeout is %s; choose between 10ms and 1m", s.LockTimeout)
	case s.ConnectWait.Duration < time.Second || s.ConnectWait.Duration > time.Hour:
		return fmt.Errorf("storage.connect_wait is %s; choose between 1s and 1h", s.ConnectWait)
	}
	return nil
}

// check reports the first Discord setting that cannot work.
func (d DiscordConfig) check() error {
	switch {
	case d.Token == "":
		return errors.New("no bot token: set discord.token (or KULAMI_DISCORD_TOKEN, or discord.token_file) to the token from the Developer Portal, Bot page")
	case d.ApplicationID == "":
		return errors.New("no application ID: set discord.application_id (or KULAMI_DISCORD_APPLICATION_ID) to the Application ID from the Developer Portal, General Information page")
	case !isSnowflake(string(d.ApplicationID)):
		return fmt.Errorf("discord.application_id %q is not an ID: copy the Application ID (only digits) from the Developer Portal", d.ApplicationID)
	case d.GuildID != "" && !isSnowflake(string(d.GuildID)):
		return fmt.Errorf("discord.guild_id %q is not an ID: right-click the server with Developer Mode on and choose Copy Server ID, or leave it empty", d.GuildID)
	case d.Mode != "gateway" && d.Mode != "http":
		return fmt.Errorf("discord.mode is %q; it must be \"gateway\" or \"http\"", d.Mode)
	case d.Mode == "http" && d.PublicKey == "":
		return errors.New("http mode needs discord.public_key (or KULAMI_DISCORD_PUBLIC_KEY): the Public Key from the Developer Portal, General Information page")
	case d.ShardCount < 1:
		return fmt.Errorf("discord.shard_count is %d; it is the number of gateway processes, 1 or more (1: no sharding)", d.ShardCount)
	case d.ShardID < 0 || d.ShardID >= d.ShardCount:
		return fmt.Errorf("discord.shard_id is %d; with shard_count %d it must be from 0 to %d, a different one in each process", d.ShardID, d.ShardCount, d.ShardCount-1)
	case d.Mode == "http" && d.ShardCount > 1:
		return errors.New("discord.shard_count is for gateway mode; in http mode run several processes behind a load balancer instead (README: Running several instances)")
	}
	if d.linkedRoles() {
		if _, err := d.linkedRolesKey(); err != nil {
			return err
		}
	}
	if d.PublicKey != "" {
		if _, err := bot.ParsePublicKey(d.PublicKey); err != nil {
			return fmt.Errorf("discord.public_key: %w", err)
		}
	}
	if _, err := bot.NewSession("x", d.APIURL); err != nil {
		return fmt.Errorf("discord.api_url: %w", err)
	}
	return nil
}

func (l LogConfig) level() (slog.Level, error) {
	var lv slog.Level
	if err := lv.UnmarshalText([]byte(l.Level)); err != nil {
		return lv, fmt.Errorf("log.level is %q; it must be debug, info, warn or error", l.Level)
	}
	return lv, nil
}

func isSnowflake(s string) bool {
	if len(s) < 5 || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}
