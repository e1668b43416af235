package discordtest

import (
	"crypto/ed25519"
	"crypto/rand"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

// discordEpoch is the first millisecond of 2015, the epoch of Discord's snowflakes.
const discordEpoch = 1420070400000

// DefaultAppPermissions are the permissions the bot has in guild channels unless WithAppPermissions says
// otherwise: what a game bot needs to talk in channels and threads.
const DefaultAppPermissions = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
	discordgo.PermissionSendMessagesInThreads | discordgo.PermissionCreatePublicThreads |
	discordgo.PermissionEmbedLinks | discordgo.PermissionAttachFiles | discordgo.PermissionReadMessageHistory |
	discordgo.PermissionUseExternalEmojis | discordgo.PermissionAddReactions

// DefaultMemberPermissions are the permissions of the users that AddUser creates.
const DefaultMemberPermissions = discordgo.PermissionViewChannel | discordgo.PermissionSendMessages |
	discordgo.PermissionSendMessagesInThreads | discordgo.PermissionCreatePublicThreads |
	discordgo.PermissionEmbedLinks | discordgo.PermissionAttachFiles | discordgo.PermissionReadMessageHistory |
	discordgo.PermissionUseApplicationCommands | discordgo.PermissionAddReactions

// Server is a fake Discord: a REST API and a gateway on one httptest.Server, with one application, its bot
// user, one guild and whatever channels, users and messages the test and the bot create.
//
// Every request is checked against Discord's OpenAPI description; a request Discord would refuse is a
// Violation and fails the test (see CollectViolations).
//
// A Server is safe for concurrent use. The Wait methods and the builders (Command, Button, …), which
// fail the test at once when they cannot go on, must be called from the test's goroutine.
type Server struct {
	tb   testing.TB
	cfg  config
	spec *spec
	srv  *httptest.Server
	key  ed25519.PrivateKey

	handlers map[string]handler // the operations the fake implements, by "METHOD /route/{template}"

	appID, guildID, ownerID, token string
	bot                            *discordgo.User
	start                          time.Time
	seq                            atomic.Int64 // last snowflake increment
	offset                         atomic.Int64 // nanoseconds added to the clock by Advance

	mu           sync.Mutex
	changed      chan struct{} // closed and replaced whenever the state changes
	users        map[string]*discordgo.User
	members      map[string]*member // guild members by user ID
	channels     map[string]*channel
	channelOrder []string
	deleted      map[string]bool   // IDs of deleted channels
	dms          map[string]string // user ID → DM channel ID
	installed    map[string]bool   // users who installed the app to their account
	messages     map[string]*message
	interactions map[string]*interaction // by ID
	byToken      map[string]*interaction
	commands     map[string][]byte // registered commands (JSON array as answered) by guild ID, "" for global
	requests     []Request
	violations   []Violation
	mentions     []Mention
	failures     []*failure
	delays       []*failure
	losses       []*failure // LoseResponses
	limits       rateLimits // RateLimit, GlobalLimit, RateLimited
	holds        []*Held    // released by Close
	rejections   int        // initial responses left to reject; <0 for all (RejectCallbacks)
	events       []ScheduledEvent
	oauth        oauth
	gw           gateway
	closed       bool
}

type member struct {
	user        *discordgo.User
	joined      time.Time
	permissions int64
}

type config struct {
	collect            bool
	timeout            time.Duration
	ackDeadline        time.Duration
	appPermissions     int64
	botName, guildName string
	now                func() time.Time
}

// Option configures a Server.
type Option func(*config)

// CollectViolations makes the Server record violations without failing the test, for tests that check
// that a bad request is caught; read them with Violations.
func CollectViolations() Option { return func(c *config) { c.collect = true } }

// WithTimeout sets how long the Wait methods and Dispatch wait before failing the test (default a
// minute): a wait is for an event, and its bound, long enough for any machine however loaded, only
// stops a test that hangs.
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithAckDeadline sets how soon the bot must send the initial response to an interaction (default 3s,
// as Discord); a later one is answered 404 Unknown interaction and is a violation.
func WithAckDeadline(d time.Duration) Option { return func(c *config) { c.ackDeadline = d } }

// WithAppPermissions sets the permissions of the bot in guild channels, sent as app_permissions with
// interactions (default DefaultAppPermissions).
func WithAppPermissions(p int64) Option { return func(c *config) { c.appPermissions = p } }

// New starts a fake Discord and closes it when the test ends. It fails the test at once if the embedded
// OpenAPI description cannot be loaded.
func New(tb testing.TB, opts ...Option) *Server {
	tb.Helper()
	cfg := config{
		timeout:        time.Minute,
		ackDeadline:    3 * time.Second,
		appPermissions: DefaultAppPermissions,
		botName:        "Kulami",
		guildName:      "Kulami Test Guild",
		now:            time.Now,
	}
	for _, o := range opts {
		o(&cfg)
	}
	sp, err := loadSpec()
	if err != nil {
		tb.Fatalf("discordtest: %v", err)
	}
	_, key, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		tb.Fatalf("discordtest: generate key: %v", err)
	}
	s := &Server{
		tb:           tb,
		cfg:          cfg,
		spec:         sp,
		handlers:     endpoints(),
		key:          key,
		start:        time.Now(),
		changed:      make(chan struct{}),
		users:        map[string]*discordgo.User{},
		members:      map[string]*member{},
		channels:     map[string]*channel{},
		deleted:      map[string]bool{},
		dms:          map[string]string{},
		installed:    map[string]bool{},
		messages:     map[string]*message{},
		interactions: map[string]*interaction{},
		byToken:      map[string]*interaction{},
		commands:     map[string][]byte{},
	}
	s.gw.init()
	s.oauth.init()
	s.appID = s.newID()
	s.bot = &discordgo.User{ID: s.appID, Username: cfg.botName, Discriminator: "0", Bot: true}
	s.guildID = s.newID()
	s.ownerID = s.newID()
	s.token = "test-token-" + s.appID
	s.users[s.bot.ID] = s.bot
	s.members[s.bot.ID] = &member{user: s.bot, joined: s.start, permissions: cfg.appPermissions}

	mux := http.NewServeMux()
	mux.HandleFunc("/api/", s.serveREST)
	mux.HandleFunc("/api/v10/oauth2/token", s.serveToken)
	mux.HandleFunc("/oauth2/authorize", s.serveAuthorize)
	mux.HandleFunc(gatewayPath, s.serveGateway)
	mux.HandleFunc(gatewayPath+"/", s.serveGateway)
	mux.HandleFunc(attachmentsPath, s.serveAttachment)
	mux.HandleFunc("/", s.serveUnknown)
	s.srv = httptest.NewServer(mux)
	tb.Cleanup(s.Close)
	return s
}

// Close disconnects the gateway sessions and shuts the server down. It is called when the test ends;
// calling it again does nothing.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.notify()
	conns := make([]*gwConn, 0, len(s.gw.conns))
	for c := range s.gw.conns {
		conns = append(conns, c)
	}
	holds := s.holds
	s.mu.Unlock()
	for _, h := range holds {
		h.Release()
	}
	s.gw.close(conns)
	s.srv.Close()
}

// URL is the base URL of the fake, e.g. http://127.0.0.1:PORT; the API is under /api/v9 and /api/v10.
func (s *Server) URL() string { return s.srv.URL }

// APIURL is the base URL of the fake's v10 API, e.g. http://127.0.0.1:PORT/api/v10.
func (s *Server) APIURL() string { return s.srv.URL + "/api/v10" }

// GatewayURL is the websocket URL of the fake gateway, as GET /gateway answers it.
func (s *Server) GatewayURL() string {
	return "ws" + strings.TrimPrefix(s.srv.URL, "http") + gatewayPath
}

// Transport returns a RoundTripper that sends requests for https://discord.com/ to the fake instead, and
// any other request unchanged.
func (s *Server) Transport() http.RoundTripper {
	return redirect{base: s.srv.URL, next: s.srv.Client().Transport}
}

// Client returns an http.Client that sends requests for https://discord.com/ to the fake. Give it to a
// discordgo.Session as its Client to drive real discordgo against the fake.
func (s *Server) Client() *http.Client {
	return &http.Client{Transport: s.Transport(), Timeout: 30 * time.Second}
}

// Session returns a discordgo session for the fake's bot: its REST requests go to the fake and Open
// connects to the fake gateway. The session is closed when the test ends, before the Server (discordgo
// would otherwise try to reconnect to a closed server forever); its Close takes a second, for discordgo
// waits that long after sending the close frame.
func (s *Server) Session() *discordgo.Session {
	dg, err := discordgo.New("Bot " + s.token)
	if err != nil {
		s.tb.Fatalf("discordtest: %v", err)
	}
	dg.Client = s.Client()
	s.tb.Cleanup(func() { _ = dg.Close() })
	return dg
}

type redirect struct {
	base string
	next http.RoundTripper
}

func (r redirect) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme == "https" && req.URL.Host == "discord.com" {
		u, err := req.URL.Parse(r.base + req.URL.RequestURI())
		if err != nil {
			return nil, err
		}
		req = req.Clone(req.Context())
		req.URL = u
		req.Host = u.Host
	}
	return r.next.RoundTrip(req)
}

// Token is the bot token the fake accepts; requests must carry "Authorization: Bot " + Token.
func (s *Server) Token() string { return s.token }

// AppID is the ID of the fake application (and of its bot user).
func (s *Server) AppID() string { return s.appID }

// BotUser is the application's bot user.
func (s *Server) BotUser() *discordgo.User { u := *s.bot; return &u }

// GuildID is the ID of the one guild, which the bot is in.
func (s *Server) GuildID() string { return s.guildID }

// newID returns a fresh snowflake; IDs grow with creation order. Callers need not hold s.mu.
func (s *Server) newID() string {
	ms := s.start.UnixMilli() - discordEpoch
	return strconv.FormatInt(ms<<22|s.seq.Add(1), 10)
}

// snowflakeTime is the creation time encoded in a snowflake.
func snowflakeTime(id string) time.Time {
	n, _ := strconv.ParseInt(id, 10, 64)
	return time.UnixMilli(n>>22 + discordEpoch).UTC()
}

// notify wakes the waiters; call with s.mu held after any change.
func (s *Server) notify() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// AddUser creates a user who is a member of the guild with DefaultMemberPermissions.
func (s *Server) AddUser(username string) *discordgo.User { return s.addUser(username, true) }

// addUser creates a user, a member of the guild or not.
func (s *Server) addUser(username string, inGuild bool) *discordgo.User {
	u := &discordgo.User{ID: s.newID(), Username: username, GlobalName: username, Discriminator: "0"}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.users[u.ID] = u
	if inGuild {
		s.members[u.ID] = &member{user: u, joined: s.Now(), permissions: DefaultMemberPermissions}
	}
	s.notify()
	c := *u
	return &c
}
