package loadtest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/discordtest"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// runner is one run: the fake Discord, the proxy, the bot and the
// players' tables.
type runner struct {
	tb      testing.TB
	cfg     Config
	dc      *discordtest.Server
	proxy   *latencyProxy
	db      string // the bbolt file or the PostgreSQL DSN
	env     map[string]string
	tables  []*table
	botDone chan struct{} // closed when no bot process runs any more

	app    string    // the application_name of the bot's PostgreSQL connections
	faults *faultLog // what the run's fault did

	playing context.Context // ends when the players stop starting interactions (see keepPlaying)
	moves   atomic.Int64    // the moves whose new boards came back, in all games

	mu       sync.Mutex
	bots     []*botProcess
	alive    int // bot processes running
	next     int // the number of interactions sent: the next goes to bots[next % len(bots)]
	deadline time.Time
	rec      *recorder
	ended    []finishedRef // the games played to their end
}

// Run runs the load cfg describes against a kulamibot of its own and
// reports what it measured. It fails the test at once only if the run
// cannot start; whatever goes wrong during the run is in
// Report.Problems.
func Run(tb testing.TB, cfg Config) *Report {
	tb.Helper()
	r := newRunner(tb, cfg)
	for range cfg.Processes {
		r.startBot(tb)
	}
	cfg, dc, tables := r.cfg, r.dc, r.tables
	if cfg.Burn > 0 {
		stop := burn(tb, cfg.Burn)
		defer stop()
	}
	rep := &Report{Config: cfg, LoadBefore: loadAverage()}
	start := time.Now()
	r.deadline = start.Add(cfg.Duration)
	r.rec = newRecorder(r.deadline)
	ctx, cancel := context.WithCancel(tb.Context())
	r.playing = ctx
	go r.keepPlaying(start, cancel)
	injected := r.inject(ctx)
	var wg sync.WaitGroup
	for _, t := range tables {
		wg.Go(t.play)
	}
	wg.Wait()
	cancel()
	rep.Problems = append(rep.Problems, injected()...)
	rep.Elapsed = time.Since(start)
	rep.Grace = r.grace(time.Now().Add(cfg.wait()))
	rep.LoadAfter = loadAverage()

	for k, bot := range r.bots {
		select {
		case <-bot.done:
			if cfg.Fault.Kind == faultBurst && k < len(r.bots)-1 {
				break // stopped by the burst's restart
			}
			rep.Problems = append(rep.Problems, fmt.Sprintf("kulamibot %d exited during the run (%v); the end of its log:\n%s", k, bot.err, bot.logTail(20)))
		default:
			rss, err := bot.peakRSS()
			if err != nil {
				rep.Problems = append(rep.Problems, fmt.Sprintf("peak RSS of kulamibot %d: %v", k, err))
			}
			rep.PeakRSS += rss
			if err := bot.stop(); err != nil {
				rep.Problems = append(rep.Problems, fmt.Sprintf("stopping kulamibot %d: %v", k, err))
			}
		}
		_, slow := bot.logLines(0, "handler slow to answer")
		rep.SlowDeferrals += slow
		errLines, n := bot.logLines(5, "level=ERROR")
		rep.ErrorLogs += n
		if n > 0 {
			what := fmt.Sprintf("kulamibot %d logged %d errors, the first:\n%s", k, n, strings.Join(errLines, ""))
			if cfg.Fault.on() {
				rep.ErrorExamples = append(rep.ErrorExamples, what)
			} else {
				rep.Problems = append(rep.Problems, what)
			}
		}
	}

	r.rec.mu.Lock()
	rep.Answers, rep.Boards = summaries(r.rec.answers), summaries(r.rec.boards)
	rep.InTime = r.rec.inTime
	rep.Failures = len(r.rec.failures)
	for _, f := range r.rec.failures {
		if !cfg.Fault.on() {
			rep.Problems = append(rep.Problems, "failed interaction: "+f)
		} else if len(rep.FailureExamples) < 5 {
			rep.FailureExamples = append(rep.FailureExamples, f)
		}
	}
	for _, b := range r.rec.shown {
		switch {
		case b.at.Sub(b.sent) <= ackLimit:
		case r.faults.hits(b.channel, b.sent, b.at):
			rep.LateBoardsUnderFault++
		default:
			rep.LateBoards++
		}
	}
	r.rec.mu.Unlock()
	rep.BusyUnlocked = r.rec.busyUnlocked
	rep.FaultsServed = r.faults.count()
	_, rep.Reviews, rep.GIFs = r.proxy.posted()
	for _, s := range rep.Answers {
		rep.Interactions += s.N
		rep.Late += s.Over3s
	}
	for _, v := range dc.Violations() {
		if !isLateAnswer(v) {
			rep.Problems = append(rep.Problems, "Discord would refuse: "+v.String())
		}
	}
	rep.Problems = append(rep.Problems, r.verify(tb.Context(), rep)...)
	rep.Problems = append(rep.Problems, r.retiredOnce(tables)...)
	return rep
}

// keepPlaying ends the players' time (stop) at the end of Config.Duration,
// or with UntilStruck once the fault has struck and a move was played
// after it first struck (without a fault, once a move was played), if
// later (at struckWithin at most).
func (r *runner) keepPlaying(start time.Time, stop context.CancelFunc) {
	defer stop()
	select {
	case <-r.playing.Done():
		return
	case <-time.After(time.Until(r.deadline)):
	}
	if !r.cfg.UntilStruck {
		return
	}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	movesAtStrike := int64(-1) // the moves played when the fault was first seen to strike
	for time.Since(start) < struckWithin {
		if movesAtStrike < 0 && (!r.cfg.Fault.on() || r.faults.count() > 0) {
			movesAtStrike = r.moves.Load()
		}
		if movesAtStrike >= 0 && r.moves.Load() > movesAtStrike {
			return
		}
		select {
		case <-r.playing.Done():
			return
		case <-tick.C:
		}
	}
}

// newRunner makes the fake Discord of a run, its proxy and its tables,
// and the bot's environment; no bot runs yet (see startBot).
func newRunner(tb testing.TB, cfg Config) *runner {
	tb.Helper()
	if err := cfg.check(); err != nil {
		tb.Fatalf("loadtest: %v", err)
	}
	// Answers later than Discord's 3 seconds are measured, not failures
	// of the test: the violations are collected and sorted out below.
	dc := discordtest.New(tb, discordtest.CollectViolations(), discordtest.WithTimeout(cfg.wait()))
	proxy, err := newLatencyProxy(dc.URL(), cfg.Latency.Min, cfg.Latency.Max)
	if err != nil {
		tb.Fatalf("loadtest: %v", err)
	}
	tb.Cleanup(proxy.Close)
	if cfg.Bot == "" {
		cfg.Bot = buildBot(tb)
	}
	r := &runner{tb: tb, cfg: cfg, dc: dc, proxy: proxy, botDone: make(chan struct{}), faults: &faultLog{}, playing: context.Background(), env: map[string]string{
		"KULAMI_DISCORD_TOKEN":          dc.Token(),
		"KULAMI_DISCORD_APPLICATION_ID": dc.AppID(),
		"KULAMI_DISCORD_GUILD_ID":       dc.GuildID(),
		"KULAMI_DISCORD_PUBLIC_KEY":     dc.PublicKeyHex(),
		"KULAMI_DISCORD_API_URL":        proxy.URL() + "/api/v10",
		"KULAMI_LOG_LEVEL":              "warn",
	}}
	if cfg.Backend == "postgres" {
		r.db = pgtest.Schema(tb)
		// The bot's connections are named, so that pgrestart ends them
		// and no other's on the server.
		r.app = fmt.Sprintf("kulami_loadtest_%d_%d", os.Getpid(), time.Now().UnixNano()%1e9)
		r.env["KULAMI_STORAGE_BACKEND"] = "postgres"
		r.env["KULAMI_STORAGE_DSN"] = pgtest.WithParam(tb, r.db, "application_name", r.app)
	} else {
		r.db = filepath.Join(tb.TempDir(), "kulami.db")
		r.env["KULAMI_STORAGE_PATH"] = r.db
	}
	r.tables = make([]*table, cfg.Games)
	for k := range r.tables {
		r.tables[k] = &table{
			run:     r,
			channel: dc.AddChannel(fmt.Sprintf("kulami-%d", k)).ID,
			users:   [2]*discordgo.User{dc.AddUser(fmt.Sprintf("p%da", k)), dc.AddUser(fmt.Sprintf("p%db", k))},
			layout:  cfg.Layouts[k%len(cfg.Layouts)],
			rng:     rand.New(rand.NewPCG(uint64(k), 1)),
		}
	}
	return r
}

// startBot starts one more kulamibot process on the run's database.
func (r *runner) startBot(tb testing.TB) *botProcess {
	tb.Helper()
	r.mu.Lock()
	cpu := -1
	if r.cfg.Pin {
		cpu = len(r.bots) % runtime.NumCPU()
	}
	r.mu.Unlock()
	p := startBot(tb, r.cfg.Bot, maps.Clone(r.env), cpu)
	r.mu.Lock()
	r.bots = append(r.bots, p)
	r.alive++
	r.mu.Unlock()
	go func() {
		<-p.done
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.alive--; r.alive == 0 {
			close(r.botDone)
		}
	}()
	return p
}

// isLateAnswer reports whether a violation is only that the bot answered
// after Discord's 3 seconds, which the report counts as a timing.
func isLateAnswer(v discordtest.Violation) bool {
	return strings.Contains(v.Message, "answered after")
}

// verify checks the bot's database against what the players saw: every
// game holds exactly the moves whose new boards came back, in order (and
// perhaps one more, one of the holes tried whose board never came). It
// counts the games and moves in rep, the moves stored that a player was
// told failed, and the moves stored that no board posted shows.
func (r *runner) verify(ctx context.Context, rep *Report) []string {
	s, err := r.open()
	if err != nil {
		return []string{fmt.Sprintf("open the bot's database: %v", err)}
	}
	defer s.Close()
	boards, _, _ := r.proxy.posted()
	r.rec.mu.Lock()
	failed := slices.Clone(r.rec.failedMoves)
	r.rec.mu.Unlock()
	var problems []string
	for _, t := range r.tables {
		for _, g := range t.games {
			rep.Games++
			rep.Moves += len(g.cells)
			if g.over {
				rep.Finished++
			}
			stored, err := r.storedMoves(ctx, s, t.channel, g.id)
			if err != nil {
				problems = append(problems, fmt.Sprintf("game %d in channel %s: %v", g.id, t.channel, err))
				continue
			}
			if !slices.Equal(stored, g.cells) && (len(stored) != len(g.cells)+1 || !slices.Equal(stored[:len(g.cells)], g.cells) || !slices.Contains(g.pending, stored[len(g.cells)])) {
				problems = append(problems, fmt.Sprintf("game %d in channel %s: the players saw the moves %v, the database holds %v", g.id, t.channel, g.cells, stored))
			}
			rep.NeverShown += max(0, len(stored)-shownPly(boards, t.channel, g.id, len(stored)))
			for _, f := range failed {
				if f.channel == t.channel && f.game == g.id && f.ply <= len(stored) && stored[f.ply-1] == f.cell {
					rep.StoredAnsweredFailed++
					if f.why == "answered after 3 s" {
						rep.StoredAnsweredLate++
					} else if len(rep.StoredFailedExamples) < 5 {
						rep.StoredFailedExamples = append(rep.StoredFailedExamples, fmt.Sprintf("game %d move %d (%s): %q", g.id, f.ply, f.cell, f.why))
					}
				}
			}
		}
	}
	return problems
}

// shownPly is the last ply of game id in channel that a board posted
// shows: n, of a game with n moves stored, if its final board was posted;
// -1 if none was.
func shownPly(boards []postedBoard, channel string, id uint64, n int) int {
	ply := -1
	for _, b := range boards {
		switch {
		case b.channel != channel || b.game != id:
		case b.over:
			return n
		default:
			ply = max(ply, b.ply)
		}
	}
	return ply
}

// grace waits, until until at most, for the boards of the moves whose
// players stopped without seeing them: until a board posted shows each
// game at its last ply the players know of plus one, or its end. It
// returns how long it waited.
func (r *runner) grace(until time.Time) time.Duration {
	start := time.Now()
	for time.Now().Before(until) {
		boards, _, _ := r.proxy.posted()
		owed := false
		for _, t := range r.tables {
			for _, g := range t.games {
				if len(g.pending) > 0 && shownPly(boards, t.channel, g.id, len(g.cells)+1) < len(g.cells)+1 {
					owed = true
				}
			}
		}
		if !owed {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	return time.Since(start)
}

// retiredOnce checks that the bot edited every board at most once: when
// the game moved past it, its menus go (by the click's own update, or by
// one edit), and a second edit would be a REST call wasted against
// Discord's per-channel limits.
func (r *runner) retiredOnce(tables []*table) []string {
	var problems []string
	for _, t := range tables {
		for _, m := range r.dc.Messages(t.channel) {
			if len(m.Files) > 0 && m.Files[0].Name == "board.png" && m.Edits > 1 {
				problems = append(problems, fmt.Sprintf("board %s (move %d) in channel %s was edited %d times; retiring it takes one", m.ID, boardPly(m), t.channel, m.Edits))
			}
		}
	}
	return problems
}

// store is what verify reads of a store, of either backend.
type store interface {
	Game(ctx context.Context, channelID string) (*storage.Game, error)
	FinishedGame(ctx context.Context, guildID string, id uint64) (*storage.FinishedGame, error)
	Close() error
}

// open opens the bot's store (a bbolt file only once the bots have
// stopped).
func (r *runner) open() (store, error) {
	if r.cfg.Backend == "postgres" {
		return postgres.Open(r.db, storage.Options{})
	}
	return storage.Open(r.db, storage.Options{Timeout: time.Second})
}

// url returns the interactions endpoint of the next bot process that
// runs: they take the interactions in turn, as behind a round-robin load
// balancer that leaves out a process that died.
func (r *runner) url() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	for range r.bots {
		p := r.bots[r.next%len(r.bots)]
		r.next++
		select {
		case <-p.done:
		default:
			return p.url + "/interactions"
		}
	}
	return r.bots[0].url + "/interactions" // none runs: the request fails
}

// storedMoves are the cells of the moves of game id, active in channel or
// finished.
func (r *runner) storedMoves(ctx context.Context, s store, channel string, id uint64) ([]string, error) {
	var moves []game.Move
	g, err := s.Game(ctx, channel)
	switch {
	case err == nil && g.ID == id:
		moves = g.Moves()
	case err == nil || errors.Is(err, storage.ErrNotFound):
		f, err := s.FinishedGame(ctx, r.dc.GuildID(), id)
		if err != nil {
			return nil, fmt.Errorf("neither active nor finished: %w", err)
		}
		moves = f.Moves()
	default:
		return nil, err
	}
	cells := make([]string, len(moves))
	for k, m := range moves {
		cells[k] = m.Cell.String()
	}
	return cells, nil
}

// loadAverage is the machine's load average over the last minute, or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	return strings.Fields(string(b))[0]
}
