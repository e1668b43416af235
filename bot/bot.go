package bot

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/jobs"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
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

// Options configures a Bot.
type Options struct {
	Store  Store
	Logger *slog.Logger // default: slog.Default()
	Clock  Clock        // default: the system clock
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
	// 3 seconds); default 2.5 s.
	AnswerWithin time.Duration
	// Metrics is told what the bot does; nothing is counted if nil.
	Metrics Metrics
}

// Bot is the Kulami Discord application: one set of handlers fed by the
// gateway (RunGateway) or the HTTP endpoint (HTTPHandler). It is safe for
// concurrent use: Discord delivers interactions concurrently.
type Bot struct {
	session  *discordgo.Session
	store    Store
	log      *slog.Logger
	clock    Clock
	opt      Options
	renderer *draw.Renderer
	metrics  Metrics
	// runner runs the slow work: the computer's moves, reviews and
	// renders (work.go).
	runner *jobs.Runner
	// reviewer analyses a game for a review: review.Analyse.
	reviewer func(context.Context, *engine.Record, review.Options) (*review.Analysis, error)
	wakeup   chan struct{} // tells the scheduler that a wake time changed
	owner    string        // names this bot's leases on due work (see runDue)
	recent   recent        // the interactions received lately, to act on each once
	retired  recent        // the boards whose menus were taken off lately: none is edited twice
	// channelTypes remembers the type of the channels games were asked
	// for in (a discordgo.ChannelType by channel ID).
	channelTypes sync.Map
	// locales are the locales noted with the settings lately ("g:" or
	// "u:" and the guild or user ID → locale), so each is written once.
	locales  sync.Map
	baseCtx  context.Context // for work that outlives a request: cancelled by Close
	cancel   context.CancelFunc
	inflight sync.WaitGroup

	// searchers keeps the trees of hard's last few games, to search on
	// from at its next move in each.
	searchers ai.Searchers
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
	ctx, cancel := context.WithCancel(context.Background())
	return &Bot{
		session: s, store: opt.Store, log: opt.Logger, clock: opt.Clock, opt: opt, renderer: opt.Renderer,
		metrics: opt.Metrics, runner: newRunner(opt.Logger), reviewer: review.Analyse, wakeup: make(chan struct{}, 1),
		baseCtx: ctx, cancel: cancel, owner: newOwner(),
	}
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
func (b *Bot) Close(grace time.Duration) {
	deadline := time.Now().Add(grace)
	done := make(chan struct{})
	go func() {
		b.inflight.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(grace):
		b.log.Warn("shutting down with interactions still in flight: cancelling them")
		b.cancel()
		select {
		case <-done:
		case <-time.After(grace):
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
}
