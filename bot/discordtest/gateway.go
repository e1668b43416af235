package discordtest

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
)

// gatewayPath is where the fake gateway accepts websocket connections.
const gatewayPath = "/gateway-ws"

// heartbeatInterval is the interval HELLO announces, Discord's.
const heartbeatInterval = 41250 * time.Millisecond

// writeTimeout bounds each gateway write, so that a client that stopped reading cannot hang the fake.
const writeTimeout = 5 * time.Second

// Gateway opcodes.
const (
	opDispatch       = 0
	opHeartbeat      = 1
	opIdentify       = 2
	opPresenceUpdate = 3
	opVoiceState     = 4
	opResume         = 6
	opReconnect      = 7
	opRequestMembers = 8
	opInvalidSession = 9
	opHello          = 10
	opHeartbeatAck   = 11
)

// gateway holds the websocket connections and sessions; its maps and refuse are guarded by Server.mu.
type gateway struct {
	upgrader websocket.Upgrader
	wg       sync.WaitGroup // one per connection being served
	conns    map[*gwConn]bool
	sessions map[string]*gwSession
	refuse   int // the close code answering every IDENTIFY and RESUME; 0 for none
	replay   int // events a resume sends again although the client had them (ReplayOnResume)
}

// closeTexts are the reasons Discord gives with its gateway close codes.
var closeTexts = map[int]string{
	4000: "Unknown error.",
	4001: "Unknown opcode.",
	4002: "Decode error.",
	4003: "Not authenticated.",
	4004: "Authentication failed.",
	4005: "Already authenticated.",
	4007: "Invalid seq.",
	4008: "Rate limited.",
	4009: "Session timed out.",
	4010: "Invalid shard.",
	4011: "Sharding required.",
	4012: "Invalid API version.",
	4013: "Invalid intent(s).",
	4014: "Disallowed intent(s).",
}

// FatalCloseCodes are the gateway close codes after which Discord's docs say not to reconnect:
// authentication failed, invalid shard, sharding required, invalid API version, invalid intents and
// disallowed intents.
var FatalCloseCodes = []int{4004, 4010, 4011, 4012, 4013, 4014}

// CloseGateway closes every gateway connection with a close code (4000–4014) and Discord's reason
// for it. After a code in FatalCloseCodes the fake also answers every later IDENTIFY and RESUME with
// the same close until ReopenGateway, as Discord does while the cause (a reset token, say) remains;
// it may be called before the bot connects. After 4007 or 4009 the sessions cannot be resumed.
func (s *Server) CloseGateway(code int) {
	text, ok := closeTexts[code]
	if !ok {
		s.tb.Fatalf("discordtest: CloseGateway: %d is not a gateway close code", code)
	}
	s.mu.Lock()
	if slices.Contains(FatalCloseCodes, code) {
		s.gw.refuse = code
	}
	if code == 4007 || code == 4009 || s.gw.refuse != 0 {
		clear(s.gw.sessions)
	}
	conns := make([]*gwConn, 0, len(s.gw.conns))
	for c := range s.gw.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.closeWith(code, text)
	}
}

// ReopenGateway undoes a fatal CloseGateway: IDENTIFY works again.
func (s *Server) ReopenGateway() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gw.refuse = 0
}

// refusal is the close code with which to answer an IDENTIFY or RESUME, or 0.
func (s *Server) refusal() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.gw.refuse
}

func (g *gateway) init() {
	g.conns = map[*gwConn]bool{}
	g.sessions = map[string]*gwSession{}
}

// gwConn is one websocket connection; writes are serialised by mu.
type gwConn struct {
	ws *websocket.Conn
	mu sync.Mutex
}

func (c *gwConn) write(v any) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	_ = c.ws.SetWriteDeadline(time.Now().Add(writeTimeout))
	return c.ws.WriteJSON(v)
}

func (c *gwConn) closeWith(code int, text string) {
	c.mu.Lock()
	_ = c.ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(writeTimeout))
	c.mu.Unlock()
	_ = c.ws.Close()
}

// gwSession is an identified gateway session: its sequence, the events sent (for RESUME), and the
// connection it is attached to, if any. mu guards all three and orders the writes.
type gwSession struct {
	id    string
	shard [2]int // shard ID and shard count, {0, 1} when not sharded
	mu    sync.Mutex
	seq   int64
	log   []payload
	conn  *gwConn
}

type payload struct {
	Op    int          `json:"op"`
	D     any          `json:"d"`
	S     *int64       `json:"s"`
	T     *string      `json:"t"`
	inter *interaction // the interaction an INTERACTION_CREATE delivers
}

// send dispatches an event on the session, logs it for a resume, and writes it if connected; inter is
// the interaction the event delivers, if any.
func (g *gwSession) send(t string, d any, inter *interaction) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.seq++
	seq := g.seq
	p := payload{Op: opDispatch, D: d, S: &seq, T: &t, inter: inter}
	g.log = append(g.log, p)
	if g.conn != nil {
		_ = g.conn.write(p)
	}
}

// serveGateway serves one websocket connection until it closes.
func (s *Server) serveGateway(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		http.Error(w, "closed", http.StatusServiceUnavailable)
		return
	}
	s.gw.wg.Add(1)
	s.mu.Unlock()
	defer s.gw.wg.Done()

	ws, err := s.gw.upgrader.Upgrade(w, r, nil)
	if err != nil {
		return // the upgrader has answered
	}
	c := &gwConn{ws: ws}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		_ = ws.Close()
		return
	}
	s.gw.conns[c] = true
	s.mu.Unlock()

	var sess *gwSession
	defer func() {
		s.mu.Lock()
		delete(s.gw.conns, c)
		s.notify()
		s.mu.Unlock()
		if sess != nil {
			sess.mu.Lock()
			if sess.conn == c {
				sess.conn = nil
			}
			sess.mu.Unlock()
		}
		_ = ws.Close()
	}()

	if c.write(payload{Op: opHello, D: map[string]any{"heartbeat_interval": heartbeatInterval.Milliseconds()}}) != nil {
		return
	}
	for {
		_, data, err := ws.ReadMessage()
		if err != nil {
			return
		}
		var in struct {
			Op int             `json:"op"`
			D  json.RawMessage `json:"d"`
		}
		if err := json.Unmarshal(data, &in); err != nil {
			c.closeWith(4002, "Decode error")
			return
		}
		if code := s.refusal(); code != 0 && (in.Op == opIdentify || in.Op == opResume) {
			c.closeWith(code, closeTexts[code])
			return
		}
		switch in.Op {
		case opHeartbeat:
			if c.write(payload{Op: opHeartbeatAck}) != nil {
				return
			}
		case opIdentify:
			if sess != nil {
				c.closeWith(4005, "Already authenticated")
				return
			}
			if sess = s.identify(c, in.D); sess == nil {
				return
			}
		case opResume:
			if sess != nil {
				c.closeWith(4005, "Already authenticated")
				return
			}
			sess = s.resume(c, in.D)
		case opPresenceUpdate, opVoiceState, opRequestMembers:
			// Accepted and ignored.
		default:
			c.closeWith(4001, "Unknown opcode")
			return
		}
	}
}

func (s *Server) tokenOK(token string) bool {
	return strings.TrimPrefix(token, "Bot ") == s.token
}

// identify answers IDENTIFY with READY and, with the GUILDS intent, GUILD_CREATE.
func (s *Server) identify(c *gwConn, d json.RawMessage) *gwSession {
	var id struct {
		Token   string  `json:"token"`
		Intents *int64  `json:"intents"`
		Shard   *[2]int `json:"shard"`
	}
	if json.Unmarshal(d, &id) != nil {
		c.closeWith(4002, "Decode error")
		return nil
	}
	if !s.tokenOK(id.Token) {
		c.closeWith(4004, "Authentication failed.")
		return nil
	}
	if id.Intents == nil {
		c.closeWith(4013, "Invalid intent(s).")
		return nil
	}
	shard := [2]int{0, 1}
	if id.Shard != nil {
		shard = *id.Shard
		if shard[1] < 1 || shard[0] < 0 || shard[0] >= shard[1] {
			c.closeWith(4010, closeTexts[4010])
			return nil
		}
	}
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	sess := &gwSession{id: hex.EncodeToString(b), shard: shard, conn: c}

	s.mu.Lock()
	user := userJSON(s.bot)
	user["verified"], user["mfa_enabled"] = true, false
	ready := map[string]any{
		"v":                  10,
		"user":               user,
		"guilds":             []any{map[string]any{"id": s.guildID, "unavailable": true}},
		"session_id":         sess.id,
		"session_type":       "normal",
		"resume_gateway_url": s.GatewayURL(),
		"application":        map[string]any{"id": s.appID, "flags": 0},
		"private_channels":   []any{},
		"relationships":      []any{},
		"presences":          []any{},
		"user_settings":      map[string]any{},
		"_trace":             []string{"discordtest"},
	}
	if id.Shard != nil {
		ready["shard"] = *id.Shard
	}
	var guild map[string]any
	if *id.Intents&int64(discordgo.IntentGuilds) != 0 {
		guild = s.guildJSON()
	}
	s.gw.sessions[sess.id] = sess
	s.mu.Unlock()

	sess.send("READY", ready, nil)
	if guild != nil {
		sess.send("GUILD_CREATE", guild, nil)
	}
	s.mu.Lock()
	s.notify()
	s.mu.Unlock()
	return sess
}

// resume answers RESUME: the events the client missed, then RESUMED; or INVALID_SESSION.
func (s *Server) resume(c *gwConn, d json.RawMessage) *gwSession {
	var r struct {
		Token     string `json:"token"`
		SessionID string `json:"session_id"`
		Seq       int64  `json:"seq"`
	}
	_ = json.Unmarshal(d, &r)
	s.mu.Lock()
	sess := s.gw.sessions[r.SessionID]
	replay := int64(s.gw.replay)
	s.mu.Unlock()
	if sess == nil || !s.tokenOK(r.Token) {
		_ = c.write(payload{Op: opInvalidSession, D: false})
		return nil
	}
	sess.mu.Lock()
	if old := sess.conn; old != nil && old != c {
		go old.closeWith(4000, "Session resumed elsewhere")
	}
	sess.conn = c
	for _, p := range sess.log {
		if *p.S <= r.Seq-replay {
			continue
		}
		if *p.S <= r.Seq && p.inter != nil {
			p.inter.deliveries.Add(1) // the client had it: a redelivery
		}
		_ = c.write(p)
	}
	sess.mu.Unlock()
	sess.send("RESUMED", map[string]any{"_trace": []string{"discordtest"}}, nil)
	s.mu.Lock()
	s.notify()
	s.mu.Unlock()
	return sess
}

// guildJSON is the guild as GUILD_CREATE sends it. Call with s.mu held.
func (s *Server) guildJSON() map[string]any {
	channels, threads := []any{}, []any{}
	for _, id := range s.channelOrder {
		ch := s.channels[id]
		switch {
		case ch.guildID == "":
		case ch.isThread():
			if !ch.archived {
				threads = append(threads, s.channelJSON(ch))
			}
		default:
			channels = append(channels, s.channelJSON(ch))
		}
	}
	members := []any{}
	for _, m := range s.members {
		if m.user.ID == s.bot.ID {
			members = append(members, memberJSON(m))
		}
	}
	return map[string]any{
		"id":                            s.guildID,
		"name":                          s.cfg.guildName,
		"icon":                          nil,
		"owner_id":                      s.ownerID,
		"roles":                         []any{map[string]any{"id": s.guildID, "name": "@everyone", "permissions": strconv.FormatInt(DefaultMemberPermissions, 10), "position": 0, "color": 0, "hoist": false, "managed": false, "mentionable": false, "flags": 0}},
		"emojis":                        []any{},
		"stickers":                      []any{},
		"features":                      []any{},
		"channels":                      channels,
		"threads":                       threads,
		"members":                       members,
		"member_count":                  len(s.members),
		"presences":                     []any{},
		"voice_states":                  []any{},
		"joined_at":                     timestamp(s.start),
		"large":                         false,
		"unavailable":                   false,
		"preferred_locale":              "en-US",
		"verification_level":            0,
		"default_message_notifications": 0,
		"explicit_content_filter":       0,
		"mfa_level":                     0,
		"nsfw_level":                    0,
		"premium_tier":                  0,
		"system_channel_id":             nil,
		"afk_channel_id":                nil,
		"afk_timeout":                   300,
		"application_id":                nil,
		"stage_instances":               []any{},
		"guild_scheduled_events":        []any{},
	}
}

// ReplayOnResume makes every later RESUME send again the last n events the client had already
// received, before the ones it missed, as Discord may: its delivery is at least once. An interaction
// so replayed is a redelivery (see SendInteraction). n = 0 turns it off.
func (s *Server) ReplayOnResume(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gw.replay = n
}

// Dispatch sends an event (op 0, t name) with data to every connected gateway session. If no session
// is connected yet it waits for one up to the timeout, then fails the test.
//
// An interaction goes only to the sessions of its shard, as Discord sends it: a guild's events to
// shard (guild_id >> 22) % shard_count, DMs to shard 0.
func (s *Server) Dispatch(name string, data any) {
	s.tb.Helper()
	s.dispatch(name, data, nil)
}

// dispatch is Dispatch, with the interaction an INTERACTION_CREATE delivers.
func (s *Server) dispatch(name string, data any, inter *interaction) {
	s.tb.Helper()
	deadline := time.NewTimer(s.cfg.timeout)
	defer deadline.Stop()
	for {
		s.mu.Lock()
		var live []*gwSession
		for _, sess := range s.gw.sessions {
			sess.mu.Lock()
			if sess.conn != nil && (inter == nil || sess.serves(inter.guildID)) {
				live = append(live, sess)
			}
			sess.mu.Unlock()
		}
		ch, closed := s.changed, s.closed
		s.mu.Unlock()
		if len(live) > 0 {
			for _, sess := range live {
				sess.send(name, data, inter)
			}
			return
		}
		if closed {
			s.tb.Errorf("discordtest: Dispatch %s: server closed", name)
			return
		}
		select {
		case <-ch:
		case <-deadline.C:
			s.tb.Errorf("discordtest: Dispatch %s: no gateway session connected (of its shard) within %v", name, s.cfg.timeout)
			return
		}
	}
}

// serves reports whether the session's shard receives the events of guild (a DM's when guild is
// empty).
func (g *gwSession) serves(guild string) bool {
	if guild == "" {
		return g.shard[0] == 0
	}
	id, err := strconv.ParseUint(guild, 10, 64)
	return err == nil && int((id>>22)%uint64(g.shard[1])) == g.shard[0]
}

// WaitReady waits until a gateway session has identified (or resumed) and is connected, and fails the
// test after the timeout.
func (s *Server) WaitReady(tb testing.TB) {
	tb.Helper()
	s.WaitUntil(tb, "a gateway session", func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, sess := range s.gw.sessions {
			sess.mu.Lock()
			live := sess.conn != nil
			sess.mu.Unlock()
			if live {
				return true
			}
		}
		return false
	})
}

// Reconnect asks every connected client to reconnect (op 7), as Discord does before it restarts a
// gateway server; discordgo then resumes its session.
func (s *Server) Reconnect() {
	s.mu.Lock()
	conns := make([]*gwConn, 0, len(s.gw.conns))
	for c := range s.gw.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		_ = c.write(payload{Op: opReconnect})
	}
}

// close ends every gateway connection and waits for their goroutines.
func (g *gateway) close(conns []*gwConn) {
	for _, c := range conns {
		c.closeWith(websocket.CloseGoingAway, "discordtest closed")
	}
	g.wg.Wait()
}
