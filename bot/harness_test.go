package bot_test

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot"
	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/bot/metrics"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/puzzle"
	"github.com/kulami/kulami/engine/review"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
)

// hung bounds every wait of these tests for something the bot does (the
// fake's Wait methods, Eventually): a wait is for an event, never for a
// time, and this bound, long enough for any machine however loaded (and
// the race detector), only stops a test whose bot hangs.
const hung = time.Minute

// patientPG is the PostgreSQL Config of the tests' stores: a call waits
// for a connection or a locked row as long as it takes, not the defaults'
// 1 s and 2 s that a loaded machine can spend; the tests of those
// timeouts set their own.
var patientPG = postgres.Config{AcquireTimeout: hung, LockTimeout: hung}

// reviewPlayouts is the search per position of the tests' reviews: what
// a review shows, and when, does not depend on how deep it searched, and
// review.DefaultPlayouts (300,000) took a minute a position under the
// race detector on a loaded machine.
const reviewPlayouts = 2000

// quickReview is review.Analyse searching reviewPlayouts a position when
// the bot sets no budget: the reviewer of the tests' bots.
func quickReview(ctx context.Context, rec *engine.Record, opt review.Options) (*review.Analysis, error) {
	if opt.Playouts == 0 && opt.Time == 0 {
		opt.Playouts = reviewPlayouts
	}
	return review.Analyse(ctx, rec, opt)
}

// modes are the two ways the bot connects; every flow runs in both.
var modes = []string{"gateway", "http"}

// harness is a bot running against the fake Discord, with a real database
// in a temporary directory and a fake clock.
type harness struct {
	t      testing.TB
	mode   string
	dc     *discordtest.Server
	clock  *fakeClock
	dbPath string
	store  *storage.Store
	bot    *bot.Bot
	url    string // the interactions endpoint in http mode
	stop   func()

	channel           *discordgo.Channel
	alice, bob, carol *discordgo.User
	moveTime, expiry  time.Duration
	answerWithin      time.Duration // the bot's default if zero
	// timeouts, if set, makes the bot's REST requests it picks run out of
	// time when the test says (a Discord slower than the bot's client).
	timeouts *bot.CuedTimeouts
	logs     *discordtest.LogBuffer
	// manual: the test runs the scheduler's work itself (tick) instead of
	// a RunScheduler goroutine.
	manual bool
	// wrap, if set, is what the bot is given for the real store: a test
	// that must act at a given point inside a store call wraps it.
	wrap func(*storage.Store) bot.Store
	// db, if set, is the database wrap gives the bot instead of store (a
	// PostgreSQL schema): the harness's waits for what the bot noted (a
	// challenge's message, a game's board) read it there.
	db gameReader
	// metrics, if set, is told what the bot does.
	metrics bot.Metrics
	// prometheus: the bot counts everything for Prometheus, wired as
	// kulamibot does (package bot/metrics), instead of telling metrics.
	prometheus bool
	// puzzles, if set, is the bot's puzzle set (bot.Options.Puzzles).
	puzzles func() ([]puzzle.Puzzle, error)
	// claims: the guild keeps its default timeouts, claim (a clock that
	// runs out lets the opponent claim the win). The flows written before
	// claims existed run with timeouts auto, as the guilds of that
	// release played, unless they set it.
	claims bool
	// timer counts the interactions' limits (bot.Options.Timer): by
	// default a manual timer no test advances, so that how fast the
	// machine runs a handler never decides whether it is deferred or
	// answered "busy"; the tests of those limits set their own.
	timer bot.Timer
	// hooks, if set, is called with each bot the harness makes, before
	// it starts: a test sets the bot's test hooks there.
	hooks func(*bot.Bot)
	// resumeErr, if set, is the error a manual start's resume is to
	// end with (a test that cuts the resume short); else it must succeed.
	resumeErr error
	// links, if set, makes the bot's Linked Roles on its store
	// (bot.Options.RoleLinks).
	links func(*storage.Store) bot.RoleLinks
}

// newHarness starts a bot in mode with a guild channel and three members.
func newHarness(t testing.TB, mode string, opts ...discordtest.Option) *harness {
	t.Helper()
	return newHarnessWith(t, mode, func(*harness) {}, opts...)
}

// newManualHarness is newHarness without the scheduler goroutine: the
// test moves the clock and runs what is due with tick.
func newManualHarness(t testing.TB, mode string, opts ...discordtest.Option) *harness {
	t.Helper()
	return newHarnessWith(t, mode, func(h *harness) { h.manual = true }, opts...)
}

// newHarnessWith is newHarness with setup changing the harness before the
// bot starts.
func newHarnessWith(t testing.TB, mode string, setup func(*harness), opts ...discordtest.Option) *harness {
	t.Helper()
	dc := discordtest.New(t, append([]discordtest.Option{discordtest.WithTimeout(hung)}, opts...)...)
	h := &harness{
		t: t, mode: mode, dc: dc, clock: newFakeClock(),
		dbPath:   filepath.Join(t.TempDir(), "kulami.db"),
		channel:  dc.AddChannel("games"),
		alice:    dc.AddUser("alice"),
		bob:      dc.AddUser("bob"),
		carol:    dc.AddUser("carol"),
		moveTime: 72 * time.Hour,
		expiry:   24 * time.Hour,
		logs:     &discordtest.LogBuffer{},
	}
	setup(h)
	h.start()
	t.Cleanup(func() {
		h.stop()
		assert.NotContains(t, h.logs.String(), "interaction-token-", "no interaction token reaches the logs (kulamibot logs through bot.RedactAttr)")
		if t.Failed() {
			t.Logf("bot log:\n%s", h.logs.String())
		}
	})
	return h
}

// start starts the bot on the harness's database file.
func (h *harness) start() {
	t := h.t
	t.Helper()
	var prom *metrics.Metrics
	var opt storage.Options
	opt.GuildDefaults.AutoTimeouts = !h.claims
	if h.prometheus {
		prom = metrics.New(prometheus.NewRegistry())
		opt.Updated, h.metrics = prom.Updated, prom
	}
	store, err := storage.Open(h.dbPath, opt)
	require.NoError(t, err)
	s, err := bot.NewSession(h.dc.Token(), h.dc.APIURL())
	require.NoError(t, err)
	if h.timeouts != nil {
		s.Client.Transport = h.timeouts.Wrap(s.Client.Transport)
	}
	if prom != nil {
		s.Client.Transport = prom.Transport(s.Client.Transport)
		if h.mode == "gateway" {
			prom.Gateway(s)
		}
	}
	log := slog.New(slog.NewTextHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: bot.RedactAttr}))
	if h.timer == nil {
		h.timer = bot.NewManualTimer()
	}
	var bs bot.Store = store
	if h.wrap != nil {
		bs = h.wrap(store)
	}
	var links bot.RoleLinks
	if h.links != nil {
		links = h.links(store)
	}
	b := bot.New(s, bot.Options{Store: bs, Logger: log, Clock: h.clock, MoveTime: h.moveTime, ChallengeExpiry: h.expiry, AITime: 300 * time.Millisecond, AnswerWithin: h.answerWithin, Timer: h.timer, Metrics: h.metrics, Puzzles: h.puzzles, RoleLinks: links})
	b.SetReviewer(quickReview)
	if h.hooks != nil {
		h.hooks(b)
	}
	if prom != nil {
		prom.Jobs(b)
		prom.Games(store)
	}
	ctx, cancel := context.WithCancel(t.Context())
	require.NoError(t, b.Register(ctx, h.dc.AppID(), h.dc.GuildID()))

	var wg sync.WaitGroup
	if h.manual {
		if err := b.Resume(ctx); h.resumeErr != nil {
			require.ErrorIs(t, err, h.resumeErr, "the resume is cut short")
		} else {
			require.NoError(t, err, "the start gives back the time the bot was down")
		}
	} else {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = b.RunScheduler(ctx)
		}()
	}
	var srv *httptest.Server
	if h.mode == "http" {
		srv = httptest.NewServer(b.HTTPHandler(h.dc.PublicKey()))
		h.url = srv.URL + "/interactions"
	} else {
		ready := make(chan error, 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ready <- b.RunGateway(ctx)
		}()
		h.dc.WaitReady(t)
	}
	h.store, h.bot = store, b
	h.stop = func() {
		cancel()
		if srv != nil {
			srv.Close()
		}
		wg.Wait()
		b.Close(5 * time.Second) // a test that checks what the work under way stores waits for it before it stops the bot
		store.Close()
		h.stop = func() {}
	}
}

// restart stops the bot and starts a new one on the same database, as a
// server restart does.
func (h *harness) restart() {
	h.stop()
	h.start()
}

// tick moves the clock on by d and does what is then due, as the
// scheduler would.
func (h *harness) tick(d time.Duration) {
	h.t.Helper()
	h.clock.Advance(d)
	assert.False(h.t, h.bot.RunDue(h.t.Context()), "the scheduled work succeeded")
}

// send delivers an interaction the way the mode does.
func (h *harness) send(i *discordgo.Interaction) {
	h.t.Helper()
	if h.mode == "http" {
		resp, err := h.dc.PostInteraction(h.url, i)
		require.NoError(h.t, err)
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return
	}
	h.dc.SendInteraction(i)
}

// command runs /kulami sub with options as user in channel and returns
// the interaction after its first response.
func (h *harness) command(channel string, user *discordgo.User, sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.Interaction {
	h.t.Helper()
	return h.commandWith(func(*discordgo.Interaction) {}, channel, user, sub, opts...)
}

// commandWith is command with a change to the interaction before it is
// sent (the member's permissions, say).
func (h *harness) commandWith(change func(*discordgo.Interaction), channel string, user *discordgo.User, sub string, opts ...*discordgo.ApplicationCommandInteractionDataOption) *discordgo.Interaction {
	h.t.Helper()
	i := h.dc.Command(channel, user, "kulami", discordtest.Subcommand(sub, opts...))
	h.resolve(i, opts)
	change(i)
	h.send(i)
	h.dc.WaitResponse(h.t, i.ID)
	return i
}

// resolve fills in the resolved users of user options, as Discord does.
func (h *harness) resolve(i *discordgo.Interaction, opts []*discordgo.ApplicationCommandInteractionDataOption) {
	d := i.Data.(discordgo.ApplicationCommandInteractionData)
	for _, o := range opts {
		if o.Type != discordgo.ApplicationCommandOptionUser {
			continue
		}
		id := o.Value.(string)
		if d.Resolved == nil {
			d.Resolved = &discordgo.ApplicationCommandInteractionDataResolved{Users: map[string]*discordgo.User{}}
		}
		u := &discordgo.User{ID: id, Username: "stranger", GlobalName: "stranger"}
		for _, known := range []*discordgo.User{h.alice, h.bob, h.carol, h.dc.BotUser()} {
			if known.ID == id {
				u = known
			}
		}
		d.Resolved.Users[id] = u
	}
	i.Data = d
}

// userOption is the opponent option naming u.
func (h *harness) userOption(u *discordgo.User) *discordgo.ApplicationCommandInteractionDataOption {
	return discordtest.UserOption("opponent", u.ID)
}

// reply returns the text the user saw in answer to i (see answerTo).
func (h *harness) reply(i *discordgo.Interaction) string {
	h.t.Helper()
	return h.answerTo(i).text
}

// userAnswer is what a user saw in answer to an interaction.
type userAnswer struct {
	text      string
	ephemeral bool // only the user saw it
}

// answerTo waits for the answer to i as its user saw it: the first
// response, or the message that followed a deferral (see answerMessage).
func (h *harness) answerTo(i *discordgo.Interaction) userAnswer {
	h.t.Helper()
	r := h.dc.WaitResponse(h.t, i.ID)
	switch r.Type {
	case discordgo.InteractionResponseDeferredChannelMessageWithSource, discordgo.InteractionResponseDeferredMessageUpdate:
		m := h.answerMessage(i, func(m *discordtest.Message) bool { return m.Content != "" || len(m.Embeds) > 0 })
		return userAnswer{m.Content, m.Ephemeral()}
	}
	return userAnswer{r.Content, r.Ephemeral()}
}

// answerMessage waits for the message that answered i and that cond
// accepts, as its user saw it: the message of its first response, filled
// in by an edit after a deferral the handler chose, or, after one the bot
// sent for a slow handler (on a loaded machine, whose system timers count
// the handler's time), the follow-up that holds an answer the deferral did
// not fit: a command's public "thinking…" is deleted before an answer only
// the user is to see, and a component's deferral promises an update of
// its message, which a new message follows (see answer.late).
func (h *harness) answerMessage(i *discordgo.Interaction, cond func(*discordtest.Message) bool) *discordtest.Message {
	h.t.Helper()
	r := h.dc.WaitResponse(h.t, i.ID)
	var m *discordtest.Message
	h.dc.WaitUntil(h.t, "the message that answered interaction "+i.ID, func() bool {
		o, ok := h.dc.Original(i.ID)
		if ok && !o.Deleted && r.Type != discordgo.InteractionResponseDeferredMessageUpdate && cond(o) {
			m = o
			return true
		}
		if f := h.dc.Followups(i.ID); len(f) > 0 && (!ok || o.Deleted || r.Type == discordgo.InteractionResponseDeferredMessageUpdate) && cond(f[0]) {
			m = f[0]
			return true
		}
		return false
	})
	return m
}

// click clicks a button of a message and returns the interaction once it
// is answered.
func (h *harness) click(messageID string, user *discordgo.User, customID string) *discordgo.Interaction {
	h.t.Helper()
	i := h.dc.Button(messageID, user, customID)
	h.send(i)
	h.dc.WaitResponse(h.t, i.ID)
	return i
}

// pick chooses value in a select menu of a message.
func (h *harness) pick(messageID string, user *discordgo.User, customID, value string) *discordgo.Interaction {
	h.t.Helper()
	i := h.dc.Select(messageID, user, customID, value)
	h.send(i)
	h.dc.WaitResponse(h.t, i.ID)
	return i
}

// board returns the latest board message of a channel: the last message
// with a board image.
func (h *harness) board(channel string) *discordtest.Message {
	ms := h.dc.Messages(channel)
	for k := len(ms) - 1; k >= 0; k-- {
		for _, f := range ms[k].Files {
			if f.Name == "board.png" {
				return ms[k]
			}
		}
	}
	return nil
}

// waitBoard waits for a board of the channel that cond accepts.
func (h *harness) waitBoard(channel, what string, cond func(m *discordtest.Message) bool) *discordtest.Message {
	h.t.Helper()
	var m *discordtest.Message
	h.dc.WaitUntil(h.t, what, func() bool {
		m = h.board(channel)
		return m != nil && cond(m)
	})
	return m
}

// boardAt waits for the board of the game in channel at ply, and for the
// store to know it as the game's board (the bot notes it just after
// posting it), so that refusals link to it.
func (h *harness) boardAt(channel string, ply int) *discordtest.Message {
	h.t.Helper()
	m := h.waitBoard(channel, "the board at ply "+strconv.Itoa(ply), func(m *discordtest.Message) bool {
		return boardPly(m) == ply
	})
	require.Eventually(h.t, func() bool {
		g, err := h.games().Game(h.t.Context(), channel)
		return err != nil || g.Ply() != ply || g.BoardMessageID == m.ID
	}, hung, time.Millisecond, "the bot notes the board at ply %d", ply)
	return m
}

// menus returns the custom IDs of a board's hole menus and their values.
func menus(m *discordtest.Message) map[string][]string {
	out := map[string][]string{}
	for _, row := range m.Components {
		r, ok := row.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range r.Components {
			if s, ok := c.(*discordgo.SelectMenu); ok {
				for _, o := range s.Options {
					out[s.CustomID] = append(out[s.CustomID], o.Value)
				}
			}
		}
	}
	return out
}

// menuOf returns the custom ID of the menu of a board that offers cell,
// or "".
func menuOf(m *discordtest.Message, cell string) string {
	for id, values := range menus(m) {
		for _, v := range values {
			if v == cell {
				return id
			}
		}
	}
	return ""
}

// buttons returns the custom IDs of a message's buttons by label.
func buttons(comps []discordgo.MessageComponent) map[string]string {
	out := map[string]string{}
	for _, row := range comps {
		r, ok := row.(*discordgo.ActionsRow)
		if !ok {
			continue
		}
		for _, c := range r.Components {
			if b, ok := c.(*discordgo.Button); ok {
				out[b.Label] = b.CustomID
			}
		}
	}
	return out
}

// boardPly reads the ply a board shows from its menus' custom IDs, or -1
// for a board without menus.
func boardPly(m *discordtest.Message) int {
	for id := range menus(m) {
		parts := strings.Split(id, ":")
		n, _ := strconv.Atoi(parts[4])
		return n
	}
	return -1
}

// gameReader is what the harness's waits read of the bot's database.
type gameReader interface {
	Game(ctx context.Context, channelID string) (*storage.Game, error)
	Challenge(ctx context.Context, channelID string) (*storage.Challenge, error)
}

// games is the database the bot runs on, as the harness's waits read it.
func (h *harness) games() gameReader {
	if h.db != nil {
		return h.db
	}
	return h.store
}

// open is the opening of a game, the one every test that needs a game
// going shares: alice challenges bob in the harness's channel with opts,
// bob accepts, and open returns the first board once the bot has noted it
// as the game's board (so that an edit or a refusal due next finds it),
// and the game as stored then.
func (h *harness) open(opts ...*discordgo.ApplicationCommandInteractionDataOption) (*discordtest.Message, *storage.Game) {
	h.t.Helper()
	msg := h.challengeMessage(opts...)
	accept := buttons(msg.Components)["Accept"]
	require.NotEmpty(h.t, accept, "the challenge has an Accept button")
	h.click(msg.ID, h.bob, accept)
	board := h.boardAt(h.channel.ID, 0)
	g, err := h.games().Game(h.t.Context(), h.channel.ID)
	require.NoError(h.t, err)
	return board, g
}

// challengeAndAccept is open for a test that needs only the game.
func (h *harness) challengeAndAccept(opts ...*discordgo.ApplicationCommandInteractionDataOption) *storage.Game {
	h.t.Helper()
	_, g := h.open(opts...)
	return g
}

// messageAfter waits for the first message of channel created after the
// interaction i (the fake's IDs grow in creation order) that cond accepts.
func messageAfter(tb testing.TB, dc *discordtest.Server, i *discordgo.Interaction, channel, what string, cond func(*discordtest.Message) bool) *discordtest.Message {
	tb.Helper()
	after, err := strconv.ParseUint(i.ID, 10, 64)
	require.NoError(tb, err)
	var m *discordtest.Message
	dc.WaitUntil(tb, what+" after interaction "+i.ID, func() bool {
		for _, c := range dc.Messages(channel) {
			if id, _ := strconv.ParseUint(c.ID, 10, 64); id > after && cond(c) {
				m = c
				return true
			}
		}
		return false
	})
	return m
}

// hasButton reports whether a message has a button with the label.
func hasButton(label string) func(*discordtest.Message) bool {
	return func(m *discordtest.Message) bool { return buttons(m.Components)[label] != "" }
}

// commits returns how many write transactions the harness's database has
// committed so far, read from the database itself (storage.Store.Commits):
// every write counts, whichever part of the bot made it (moves, challenges,
// settings, and the scheduler's records of being alive and its claims).
func (h *harness) commits() uint64 {
	h.t.Helper()
	n, err := h.store.Commits(h.t.Context())
	require.NoError(h.t, err)
	return n
}

// alive returns when the bot last recorded being alive, as the database
// holds it (zero if never).
func (h *harness) alive() time.Time {
	h.t.Helper()
	var at time.Time
	require.NoError(h.t, h.store.Export(h.t.Context(), func(r storage.Record) error {
		if t, ok := storage.AliveRecords.Of(r); ok {
			at = *t
		}
		return nil
	}))
	return at
}

// thinkTime is how long a player of TestWholeGame thinks before the move
// after ply: 30 to 90 seconds, as in a game played live, and now and then
// a pause of 5 minutes.
func thinkTime(ply int) time.Duration {
	if ply%10 == 9 {
		return 5 * time.Minute
	}
	return 30*time.Second + time.Duration(ply%5)*15*time.Second
}

// startedCommits waits until the scheduler has started (its Resume
// records the bot alive, in a commit) and returns commits then.
func (h *harness) startedCommits() uint64 {
	h.t.Helper()
	require.Eventually(h.t, func() bool { return !h.alive().IsZero() }, hung, time.Millisecond, "the scheduler starts")
	return h.commits()
}

// assertCommitsPerMove checks the commits of a game of moves moves played
// over elapsed on the clock, counted from before, when the game was
// made: one per move (the move, the clock, the result and the ratings;
// none for the board messages nor the scheduler's claims), and the bot's
// records of being alive, at most one per bot.AliveEvery of the clock.
// It also checks that the last record is at most bot.AliveEvery old.
func (h *harness) assertCommitsPerMove(before uint64, moves int, elapsed time.Duration) {
	h.t.Helper()
	made := int64(h.commits() - before)
	alive := made - int64(moves)
	h.t.Logf("%d commits for %d moves over %v: %.2f a move; %d records of the bot alive", made, moves, elapsed, float64(made)/float64(moves), alive)
	assert.GreaterOrEqual(h.t, alive, int64(0), "a commit per move")
	assert.LessOrEqual(h.t, alive, int64(elapsed/bot.AliveEvery), "besides the moves, at most one record of the bot alive per %v of the clock", bot.AliveEvery)
	assert.Eventually(h.t, func() bool { return !h.alive().Before(h.clock.Now().Add(-bot.AliveEvery)) }, hung, time.Millisecond,
		"the record of the bot alive is at most %v old", bot.AliveEvery)
}
