package bot

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/jobs"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine/puzzle"
	"github.com/kulami/kulami/engine/review"
)

// Clock tells the time and waits; tests pass a fake one to play days in
// milliseconds. It must be safe for concurrent use.
type Clock interface {
	Now() time.Time
	// After sends the time on the channel once d has passed.
	After(d time.Duration) <-chan time.Time
}

type systemClock struct{}

func (systemClock) Now() time.Time                         { return time.Now() }
func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Timer starts the timers of an interaction's limits, which Discord counts
// in real time: when the bot defers for a slow handler
// (Options.AnswerWithin) and when the interaction's storage calls give up
// (see storeDeadlines). They never follow Options.Clock, the time of the
// games.
type Timer interface {
	// AfterFunc calls f in a goroutine of its own once d has passed,
	// unless stop is called first; stop reports whether it stopped f.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type systemTimer struct{}

func (systemTimer) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// Options configures a Bot.
type Options struct {
	Store  Store
	Logger *slog.Logger // default: slog.Default()
	Clock  Clock        // default: the system clock
	Timer  Timer        // the interactions' limits; default: the system's timers
	// MoveTime is the time per move when neither the challenge nor the
	// guild chooses one.
	MoveTime time.Duration
	// ChallengeExpiry is how long a challenge waits for an answer.
	ChallengeExpiry time.Duration
	// AITime is the computer's time per move at level hard; the level's
	// default if zero.
	AITime time.Duration
	// Renderer draws the boards; a new one if nil.
	Renderer *draw.Renderer
	// AnswerWithin is how long a handler may take to answer before the
	// bot defers for it (Discord fails interactions not answered within
	// 3 seconds); default 2.5 s. The storage calls of an autocomplete,
	// which cannot be deferred, get 4/5 of it (see storeAnswerShare);
	// those of the other interactions go on after the deferral.
	AnswerWithin time.Duration
	// Metrics is told what the bot does; nothing is counted if nil.
	Metrics Metrics
	// Puzzles returns the puzzle set the bot loads into its store when
	// its scheduler starts (puzzle.Shipped for kulamibot); none if nil.
	// A set that fails to load is logged, and the bot runs without it.
	Puzzles func() ([]puzzle.Puzzle, error)
	// RoleLinks is told of the rated games, seasons won and puzzles, and
	// serves its pages on HTTPHandler; Linked Roles are off if nil.
	RoleLinks RoleLinks
}

// Bot is the Kulami Discord application: one set of handlers fed by the
// gateway (RunGateway) or the HTTP endpoint (HTTPHandler). It is safe for
// concurrent use: Discord delivers interactions concurrently.
type Bot struct {
	session *discordgo.Session
	log     *slog.Logger
	clock   Clock
	opt     Options
	metrics Metrics
	langs   *locales // notes the locales each interaction carries
	sched   *scheduler
	play    *playing // autocompletes /kulami move
	reviews *reviews
	// commands and components are the router's tables: the handler of
	// each subcommand and component action (router.go).
	commands   map[string]commandHandler
	components map[string]componentHandler
	// runner runs the slow work: the computer's moves, reviews and
	// renders (work.go).
	runner   *jobs.Runner
	recent   recent          // the interactions received lately, to act on each once
	bridge   bridge          // deliveries handled while the database could not check them
	baseCtx  context.Context // for work that outlives a request: cancelled by Close
	cancel   context.CancelFunc
	inflight sync.WaitGroup

	// deliveries, if the store is shared by several processes, records
	// the interactions delivered over HTTP to any of them (replay.go).
	deliveries deliveries
}

// New returns a bot that talks to Discord through s (REST; and the gateway
// in gateway mode) and keeps its games in opt.Store.
func New(s *discordgo.Session, opt Options) *Bot {
	if opt.Logger == nil {
		opt.Logger = slog.Default()
	}
	if opt.Clock == nil {
		opt.Clock = systemClock{}
	}
	if opt.Timer == nil {
		opt.Timer = systemTimer{}
	}
	if opt.MoveTime == 0 {
		opt.MoveTime = 72 * time.Hour
	}
	if opt.ChallengeExpiry == 0 {
		opt.ChallengeExpiry = 24 * time.Hour
	}
	if opt.AnswerWithin == 0 {
		opt.AnswerWithin = 2500 * time.Millisecond
	}
	if opt.Renderer == nil {
		opt.Renderer = draw.NewRenderer(draw.Config{})
	}
	if opt.Metrics == nil {
		opt.Metrics = noMetrics{}
	}
	links := opt.RoleLinks
	if links == nil {
		links = noRoleLinks{}
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, log, clock, owner := deadlineStore{interactionStore: opt.Store, gates: &gates{}}, opt.Logger, opt.Clock, newOwner()
	days := deadlineDays{opt.Store}
	runner := newRunner(log)
	wake := make(wakeup, 1)
	langs := &locales{store: st, log: log}
	out := &outbound{session: s, log: log}
	nt := &notices{settings: st, langs: langs, clock: clock, out: out, log: log}
	vw := &views{renderer: opt.Renderer, runner: runner, baseCtx: ctx, finished: st, vacations: days, settings: st, clock: clock, log: log}
	mend := &mender{clock: clock, runner: runner, log: log, ctx: ctx, pending: map[string]bool{}}
	tb := &table{store: st, clock: clock, log: log, metrics: opt.Metrics, links: links, wake: wake, out: out, langs: langs, views: vw, runner: runner, aiTime: opt.AITime, mend: mend,
		courier: &courier{out: out, clock: clock, log: log, boards: map[string]boardToken{}}, notices: nt}
	chans := &channels{store: st, log: log}
	tst := deadlineTournaments{opt.Store}
	posts := &tournamentPosts{store: tst, out: out, langs: langs, notices: nt, renderer: opt.Renderer, log: log}
	rd := &rounds{store: tst, games: st, clock: clock, log: log, out: out, langs: langs, table: tb, post: posts, moveTime: opt.MoveTime, aiTime: opt.AITime}
	cp := &computer{store: st, clock: clock, moveTime: opt.MoveTime, wake: wake, langs: langs, table: tb, chans: chans, runner: runner, baseCtx: ctx}
	pz := &puzzles{store: deadlinePuzzles{opt.Store}, links: links, views: vw, clock: clock, log: log, langs: langs, out: out, wake: wake, set: opt.Puzzles}
	sched := &scheduler{store: opt.Store, clock: clock, log: log, metrics: opt.Metrics, links: links, owner: owner, wake: wake, within: dueWithin,
		table: tb, out: out, langs: langs, rounds: rd, puzzles: pz}
	sched.giver = &giver{store: opt.Store, log: log, wake: wake, logFailure: sched.logFailure}
	vac := &vacations{store: st, banks: days, clock: clock, log: log, wake: wake, out: out, langs: langs, notices: nt, reminders: sched}
	sched.vacations, rd.vacations, cp.vacations = vac, vac, vac
	h := handlers{
		store: st, table: tb, computer: cp, vacations: vac,
		challenges: &challenges{store: st, clock: clock, log: log, moveTime: opt.MoveTime, expiry: opt.ChallengeExpiry,
			wake: wake, out: out, langs: langs, notices: nt, table: tb, chans: chans, computer: cp, vacations: vac},
		play:     &playing{store: st, clock: clock, out: out, langs: langs, table: tb},
		records:  &records{store: st, players: days, langs: langs, clock: clock},
		reviews:  &reviews{store: st, clock: clock, log: log, runner: runner, out: out, langs: langs, views: vw, replays: newReplays(replayCacheBytes), reviewer: review.Analyse, leases: opt.Store, owner: owner},
		prefs:    &preferences{store: st, players: days, log: log, langs: langs, moveTime: opt.MoveTime, clock: clock, out: out, puzzles: pz, roleLinks: opt.RoleLinks != nil},
		overtime: &overtime{clock: clock, out: out, langs: langs, table: tb, giver: sched.giver},
		planner:  &planner{clock: clock, table: tb},
		tourney:  &tournaments{store: tst, members: st, clock: clock, log: log, out: out, langs: langs, wake: wake, post: posts, rounds: rd},
		puzzles:  pz,
	}
	sched.renew = h.reviews.renew
	b := &Bot{
		session: s, log: log, clock: clock, opt: opt, metrics: opt.Metrics, langs: langs,
		sched:    sched,
		play:     h.play,
		reviews:  h.reviews,
		commands: commandHandlers(h), components: componentHandlers(h),
		runner: runner, baseCtx: ctx, cancel: cancel,
	}
	b.deliveries, _ = opt.Store.(deliveries)
	return b
}

// Register replaces the application's commands with the bot's command tree
// in one bulk overwrite: in guildID only (instant, for setting up) or, if
// guildID is empty, globally.
func (b *Bot) Register(ctx context.Context, appID, guildID string) error {
	_, err := b.session.ApplicationCommandBulkOverwrite(appID, guildID, Commands(), discordgo.WithContext(ctx))
	return err
}

// Close waits until the work in flight is done — first the interactions,
// then the slow work queued (the computer's moves, reviews) — giving it at
// most grace in all. Interactions still running then are cancelled and
// waited for, at most grace again: cancelled work ends at its next call to
// Discord or the store, or check of its context. Jobs not done by the deadline are
// cancelled (and waited for) or dropped; a review stopped or dropped says
// so in its channel. Call Close once nothing brings new work: after the
// interactions stop coming and RunScheduler has returned; and close the
// store after it, since the work uses the store to its end.
func (b *Bot) Close(grace time.Duration) { b.close(grace, time.After) }

// close is Close, with the waits for the interactions in flight on after
// (time.After, or a test's).
func (b *Bot) close(grace time.Duration, after func(time.Duration) <-chan time.Time) {
	deadline := time.Now().Add(grace)
	done := make(chan struct{})
	go func() {
		b.inflight.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-after(grace):
		b.log.Warn("shutting down with interactions still in flight: cancelling them")
		b.cancel()
		select {
		case <-done:
		case <-after(grace):
			b.log.Warn("interactions in flight did not stop when cancelled")
		}
	}
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	left, err := b.runner.Close(ctx)
	for _, j := range left {
		b.log.Warn("shutting down with a job not done", "class", j.Class, "job", j.Key, "err", err)
	}
	b.cancel()
	b.play.table.mend.wait()
}
