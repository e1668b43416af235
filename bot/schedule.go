package bot

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
	"github.com/kulami/kulami/storage"
)

// retryAfter is how long the scheduler waits after a wake-up it could not
// handle (Discord or the disk failing) before it tries again.
const retryAfter = time.Minute

// aliveEvery is how often the scheduler records that the bot is alive, so
// that after a stop or a crash it knows for how long it was down. It
// records it at most that often (each record is a commit, and every move
// wakes the scheduler: a record per wake-up would double what a move
// costs on disk) and, while it runs, at least that often: it wakes for
// the record when nothing else wakes it. So the last record is at most
// aliveEvery old (and one round of due work) when the bot crashes, and a
// crash is measured as an outage at most that much too long; a stop
// records the time of the stop, so a restart is measured exactly. The
// players then get back at most aliveEvery more than the outage, never
// less, and minOutage must stay well above aliveEvery, so that a crash
// and a quick restart is not taken for an outage.
const aliveEvery = time.Minute

// minOutage is the shortest time down that is given back to the players:
// a quick restart costs nobody anything worth a message.
const minOutage = 5 * time.Minute

// leaseFor is how long a bot holds the work of a due wake it claimed: long
// enough for the computer's move (queued, then searched) to be made. If
// the bot dies holding it, another process takes the work over after
// that.
const leaseFor = 5 * time.Minute

// newOwner returns a name for the leases of a new bot: its host, its
// process and a random part, so that two bots never share one.
func newOwner() string {
	host, _ := os.Hostname()
	var r [4]byte
	rand.Read(r[:])
	return fmt.Sprintf("%.60s/%d/%x", host, os.Getpid(), r)
}

// wakeup tells the scheduler that a wake time may have changed. It holds
// one wake-up at most: pokes while the scheduler works make one round more.
type wakeup chan struct{}

// poke tells the scheduler that a wake time may have changed.
func (w wakeup) poke() {
	select {
	case w <- struct{}{}:
	default:
	}
}

// scheduler keeps the games moving between interactions: reminders,
// timeouts, expired challenges, the computer's lost moves and the time
// given back after an outage. It is safe for concurrent use.
type scheduler struct {
	store interface {
		GameStore
		ChallengeStore
		ScheduleStore
		SettingsStore
		SeasonLeaderboard(ctx context.Context, guildID string, season storage.Season, ladder storage.Ladder, offset, limit int) ([]storage.Profile, int, error)
	}
	clock   Clock
	log     *slog.Logger
	metrics Metrics   // told of the reminders sent
	links   RoleLinks // told of the seasons won
	owner   string    // names this bot's leases on due work (see runDue)
	wake    wakeup
	table   *table
	out     *outbound
	langs   *locales
	rounds  *rounds // the tournaments' work
	// seasonsDone is the season (a storage.Season) whose start this bot
	// has dealt with in every guild: the end of the season before it
	// (endSeasons).
	seasonsDone atomic.Int32

	within time.Duration // bounds each due wake's work (dueWithin)
	// renew renews the claims on the reviews the bot holds (reviews.renew),
	// with every record of the bot alive.
	renew     func(context.Context)
	vacations *vacations // a vacation's notice and end
	puzzles   *puzzles   // the daily puzzle's posts
	// resuming is set while this bot gives back the time it was down
	// (resumeGames), whose batches make reminders due without a poke.
	resuming atomic.Bool
	// giver gives their time to the games due before the resume reached
	// them, beside the passes.
	giver *giver
}

// RunScheduler keeps games moving until ctx is cancelled: it sends the
// reminders, ends games whose time ran out, expires challenges and lets
// the computer move when its move was lost (a restart), and posts the top
// three of a season that ended where a server asked (endSeasons).
// Everything it waits for is in storage, so after a restart it picks up
// where it was, and what was due while the bot was down happens at once.
// It sleeps until the next wake-up in storage or the end of the season;
// it never scans all games.
//
// It first queues again the reviews asked for before a stop and not made,
// and loads the puzzle set (Options.Puzzles) beside its work.
// It records the bot alive (see aliveEvery) when it starts (Resume does),
// every aliveEvery while it runs, and when it stops, before it returns.
func (b *Bot) RunScheduler(ctx context.Context) error {
	// The puzzle set loads beside the scheduler's work (reading the
	// shipped set takes a moment), and ends before RunScheduler returns.
	var loading sync.WaitGroup
	defer loading.Wait()
	loading.Go(func() { b.sched.puzzles.load(ctx) })
	b.reviews.resume(ctx)
	return b.sched.run(ctx)
}

// run is RunScheduler.
func (s *scheduler) run(ctx context.Context) error {
	alive := s.clock.Now() // BeginResume records it
	resuming, err := s.beginResume(ctx)
	if err != nil {
		s.logFailure(ctx, "cannot give back the time the bot was down", "err", err)
		alive = time.Time{} // record it at once
	}
	// The time down is given back in batches while the due work goes on
	// (a game due first is given its time in the background, see giver);
	// the batches and the giver end before the store may close.
	var background sync.WaitGroup
	defer background.Wait()
	defer s.giver.wait()
	if resuming {
		s.resuming.Store(true)
		background.Go(func() {
			defer s.resuming.Store(false)
			if err := s.resumeGames(ctx); err != nil {
				s.logFailure(ctx, "cannot give back the time the bot was down", "err", err)
			}
		})
	}
	defer func() {
		// ctx is done by now: the record of the stop outlives it by
		// design (the store closes after RunScheduler returns).
		if err := s.store.SetAlive(context.WithoutCancel(ctx), s.clock.Now()); err != nil {
			s.log.Warn("cannot record the time of the stop", "err", err)
		}
	}()
	for {
		if now := s.clock.Now(); now.Sub(alive) >= aliveEvery {
			s.heartbeat(ctx, now)
			alive = now // after a failure too: try again in aliveEvery
		}
		failed := s.runDue(ctx)
		now := s.clock.Now()
		wait := aliveEvery
		next, ok, err := s.store.NextWake(ctx)
		switch {
		case err != nil:
			s.logFailure(ctx, "scheduler cannot read its wake-ups", "err", err)
			wait = retryAfter
		case failed && ok:
			wait = max(retryAfter, next.Sub(now))
		case ok:
			wait = next.Sub(now)
		}
		wait = min(wait, rating.SeasonOf(now).End().Sub(now)) // the end of the season
		wait = min(wait, nextDay(now).Sub(now))               // the next daily puzzle
		if s.resuming.Load() {
			wait = min(wait, time.Second) // the batches set reminders due as they go
		}
		select {
		case <-ctx.Done():
			return nil
		case <-s.clock.After(min(wait, alive.Add(aliveEvery).Sub(now))):
		case <-s.wake:
		}
	}
}

// heartbeat is what the scheduler does every aliveEvery: it records the
// bot alive at now and renews its claims on the reviews it holds.
func (s *scheduler) heartbeat(ctx context.Context, now time.Time) {
	s.recordAlive(ctx, now)
	s.renew(ctx)
}

// recordAlive records the bot alive at now.
func (s *scheduler) recordAlive(ctx context.Context, now time.Time) {
	if err := s.store.SetAlive(ctx, now); err != nil {
		s.logFailure(ctx, "cannot record the bot alive", "err", err)
	}
}

// logFailure logs a failure of the scheduler, msg with args, as an error,
// or as a warning if ctx is done: the shutdown cancelled the store's calls,
// and the next start does what is left.
func (s *scheduler) logFailure(ctx context.Context, msg string, args ...any) {
	level := slog.LevelError
	if ctx.Err() != nil {
		level = slog.LevelWarn
	}
	s.log.Log(ctx, level, msg, args...)
}

// dueAtOnce is how many due wakes the scheduler handles at once: enough
// that a game whose row is locked or whose Discord call hangs leaves the
// others their deadlines, few enough to leave the pool's connections (8
// at least, see storage/postgres.DefaultPoolMax) to the interactions.
const dueAtOnce = 6

// dueWithin bounds the work of one due wake, its storage calls (a claim, a
// game read and updated, a reminder's settings) and its calls to Discord
// (a board, a reminder) alike: a game whose row stays locked, or whose
// channel's posts hang, fails its own wake, which is tried again after
// retryAfter, and holds no other.
// Well above a move's few milliseconds and PostgreSQL's lock_timeout, well
// under leaseFor, so that a wake given up is not still running when its
// lease ends.
const dueWithin = 30 * time.Second

// runDue handles everything due now, up to dueAtOnce wakes at once, each
// within dueWithin, and beside them the end of a season (endSeasons, which
// a quarter's end in many guilds must not let hold the games' clocks); it
// returns when all are handled and reports whether something failed.
func (s *scheduler) runDue(ctx context.Context) bool {
	now := s.clock.Now()
	var (
		wg     sync.WaitGroup
		failed atomic.Bool
		slots  = make(chan struct{}, dueAtOnce)
	)
	wg.Go(func() {
		if s.endSeasons(ctx, now) {
			failed.Store(true)
		}
	})
	wg.Go(func() {
		if s.puzzles.postDailies(ctx, now, s.logFailure) {
			failed.Store(true)
		}
	})
	defer wg.Wait()
	due, err := s.store.Due(ctx, now)
	if err != nil {
		s.logFailure(ctx, "scheduler cannot read what is due", "err", err)
		return true
	}
	if slices.ContainsFunc(due, func(w storage.Wake) bool { return w.Kind == storage.WakeGame }) {
		// A game due before a resume under way reached it is given its
		// time first, in the background (giver), not ahead of the rest.
		r, err := s.store.Resuming(ctx)
		if err != nil {
			s.logFailure(ctx, "scheduler cannot read the resume under way", "err", err)
			return true
		}
		due = s.giver.hold(ctx, r, due)
	}
	s.log.Debug("scheduler looks at what is due", "due", len(due))
	for _, w := range due {
		select {
		case <-ctx.Done():
		case slots <- struct{}{}:
		}
		if ctx.Err() != nil {
			break // stopping: the next start does the rest
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			if !s.runWake(ctx, w, now) {
				failed.Store(true)
			}
		}()
	}
	wg.Wait()
	return failed.Load()
}

// runWake handles one due wake, if this bot claims it, within s.within
// (its storage and Discord calls alike); it reports whether it succeeded.
// A stop (ctx done) lets a wake under way finish within that time, so
// that a reminder marked sent, say, is sent: no new wake starts then.
func (s *scheduler) runWake(ctx context.Context, w storage.Wake, now time.Time) bool {
	wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.within)
	defer cancel()
	// Bots that share the store (several processes on PostgreSQL) each
	// see every due wake: the one that claims it does the work. A
	// tournament's wake moves on while its work runs (each step is a
	// commit), so its claim is on the tournament, whatever the time: the
	// bot that holds it does all that is due (see rounds.wake).
	claim := w
	if w.Kind == storage.WakeTournament {
		claim.At = time.Unix(0, 0) // a time every backend keeps exactly
	}
	mine, err := s.store.Claim(wctx, claim, s.owner, now, leaseFor)
	if err != nil {
		s.logFailure(ctx, "scheduler cannot claim its work", "kind", w.Kind.String(), "channel", w.ChannelID, "err", err)
		return false
	}
	if !mine {
		return true
	}
	switch w.Kind {
	case storage.WakeGame:
		err = s.wakeGame(wctx, w.ChannelID, now)
	case storage.WakeChallenge:
		err = s.expireChallenge(wctx, w.ChannelID, now)
	case storage.WakeVacation:
		err = s.vacations.wakeVacation(wctx, w.ChannelID, now)
	case storage.WakeTournament:
		err = s.rounds.wake(wctx, w.ChannelID, now)
	case storage.WakeFinal:
		err = s.table.repairFinal(wctx, w.ChannelID, now)
	}
	if err != nil {
		s.logFailure(ctx, "scheduled work failed", "kind", w.Kind.String(), "channel", w.ChannelID, "err", err)
		return false
	}
	return true
}

// wakeGame does what is due in the game of a channel: a board owed, a
// board's edit (boardedit.go), the computer's lost move, a timeout (in a
// game of claims, the message that lets the opponent claim the win), a
// reminder, or the reminder of the time given back after an outage.
func (s *scheduler) wakeGame(ctx context.Context, channelID string, now time.Time) error {
	g, err := s.store.Game(ctx, channelID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	if w := g.Wake(); w.IsZero() || w.After(now) {
		return nil // moved on since
	}
	if !g.BoardDue.IsZero() && !g.BoardDue.After(now) && !s.table.mend.mending(boardDebt(g)) {
		// The board owed first (unless this process is trying it again
		// already: mendBoard); then whatever else is due.
		if err := s.table.repair(ctx, g); err != nil {
			return err
		}
		if g, err = s.store.Game(ctx, channelID); errors.Is(err, storage.ErrNotFound) {
			return nil
		} else if err != nil {
			return err
		}
	}
	if e := g.BoardEdit; !e.IsZero() && !e.After(now) {
		// The board shows the game as it now is; then whatever else is due.
		if err := s.table.editBoard(ctx, g, now); err != nil {
			return err
		}
		if g, err = s.store.Game(ctx, channelID); errors.Is(err, storage.ErrNotFound) {
			return nil
		} else if err != nil {
			return err
		}
	}
	if w := g.NotedWake(); w.IsZero() || w.After(now) {
		return nil
	}
	if w := g.Game.Wake(); !w.IsZero() && !w.After(now) && g.Player(g.ToMove()).IsAI() {
		s.table.queueAI(aiJob{channel: channelID, gameID: g.ID, ply: g.Ply()})
		return nil
	}
	late := false   // the clock ran out in a game of claims: the opponent may claim
	outage := false // the reminder is the one of the time given back
	g, old, err := s.table.update(ctx, channelID, g.ID, byBot, func(g *storage.Game) error {
		err := g.Timeout(now)
		if !errors.Is(err, game.ErrNotDue) {
			late = err == nil && !g.Over()
			return err
		}
		if _, outage = g.OutageReminder(now); outage {
			// One reminder says it all: the clock's, if one is due
			// too, is marked sent with it.
			g.Reminded()
			if err := g.Remind(now); err != nil && !errors.Is(err, game.ErrNotDue) {
				return err
			}
			return nil
		}
		return g.Remind(now)
	})
	switch {
	case errors.Is(err, game.ErrNotDue), errors.Is(err, game.ErrStale), errors.Is(err, engine.ErrGameOver), errors.Is(err, errGameGone):
		return nil // moved on since
	case err != nil:
		return err
	case g.Over():
		s.log.Info("game timed out", "channel", g.ChannelID, "game", g.ID)
		return s.rounds.ended(ctx, g, old)
	case late:
		return s.sendClaim(ctx, g)
	case outage:
		return s.sendReminder(ctx, g, &g.GivenBack.Down)
	}
	return s.sendReminder(ctx, g, nil)
}

// sendReminder reminds the player to move in g that it is their move: in
// the game's channel, in the server's language, and by DM to a player who
// asked for it, in theirs; in the player's quiet hours (a reminder of a
// game begun before they set them, or one when a vacation ends), without
// a ping or a DM. If note is not nil, the reminder first says that
// the bot was offline that long and the time was given back. A reminder of
// the clock is marked as sent before it is sent, so none is ever sent
// twice, even across a restart.
func (s *scheduler) sendReminder(ctx context.Context, g *storage.Game, note *time.Duration) error {
	p := g.Player(g.ToMove())
	opponent := g.Player(g.ToMove().Other())
	deadline := g.Deadline()
	lang := s.langs.guildLang(ctx, g.GuildID)
	text := "⏰ " + lang.T("remind.channel", "Player", who(lang, p), "Opponent", escape(playerName(lang, opponent)), "Due", timestamp(deadline),
		"Deadline", fmt.Sprintf("<t:%d:f>", deadline.Unix()), "Board", boardLink(lang, g))
	if note != nil {
		text = "⏰ " + lang.T("remind.channel_after_outage", "Player", who(lang, p), "Down", lang.Duration(*note), "Opponent", escape(playerName(lang, opponent)),
			"Due", timestamp(deadline), "Deadline", fmt.Sprintf("<t:%d:f>", deadline.Unix()), "Board", boardLink(lang, g))
	}
	u, uerr := s.store.UserSettings(ctx, p.UserID)
	quiet := s.table.notices.hushed(ctx, g.Game, p.UserID)
	if answerOnly(g) {
		return s.remindByDM(ctx, g, note, quiet)
	}
	_, err := s.table.notices.post(ctx, g.Game, g.ChannelID, message{content: text, mentions: []string{p.UserID}})
	s.metrics.Reminded(err)
	if err != nil {
		return s.table.abandonIfGone(ctx, g, fmt.Errorf("send a reminder: %w", err))
	}
	if uerr == nil && u.DMReminders && !quiet {
		lang := s.langs.userLang(ctx, p.UserID)
		text := "⏰ " + lang.T("remind.dm", "Opponent", escape(playerName(lang, opponent)), "Due", timestamp(deadline), "Board", boardLink(lang, g))
		if note != nil {
			text = "⏰ " + lang.T("remind.dm_after_outage", "Down", lang.Duration(*note), "Opponent", escape(playerName(lang, opponent)), "Due", timestamp(deadline), "Board", boardLink(lang, g))
		}
		s.out.dm(ctx, p.UserID, text)
	}
	return err
}

// remindByDM reminds the player to move in the answer-only game g, where
// the bot cannot post, by DM in their language, unless it is their quiet
// hours (a DM always notifies). A player who cannot receive one is told
// nothing: the board's Refresh shows the deadline.
func (s *scheduler) remindByDM(ctx context.Context, g *storage.Game, note *time.Duration, quiet bool) error {
	if quiet {
		return nil
	}
	p, opponent := g.Player(g.ToMove()), g.Player(g.ToMove().Other())
	lang := s.langs.userLang(ctx, p.UserID)
	text := "⏰ " + lang.T("remind.dm", "Opponent", escape(playerName(lang, opponent)), "Due", timestamp(g.Deadline()), "Board", boardLink(lang, g))
	if note != nil {
		text = "⏰ " + lang.T("remind.dm_after_outage", "Down", lang.Duration(*note), "Opponent", escape(playerName(lang, opponent)), "Due", timestamp(g.Deadline()), "Board", boardLink(lang, g))
	}
	err := s.out.dmMessage(ctx, p.UserID, message{content: text})
	s.metrics.Reminded(err)
	if err != nil {
		s.log.Info("cannot remind a player by DM of a game outside the servers", "user", p.UserID, "channel", g.ChannelID, "game", g.ID, "err", err)
	}
	return nil
}

// expireChallenge closes a challenge nobody answered in time and says so
// on its message.
func (s *scheduler) expireChallenge(ctx context.Context, channelID string, now time.Time) error {
	ch, err := s.store.Challenge(ctx, channelID)
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	} else if err != nil {
		return err
	}
	if !ch.Expired(now) {
		return nil
	}
	if err := s.store.DeleteChallenge(ctx, channelID, ch.ID); err != nil {
		if errors.Is(err, storage.ErrNotFound) {
			return nil
		}
		return err
	}
	lang := s.langs.guildLang(ctx, ch.GuildID)
	text := lang.T("challenge.expired_message", "Challenger", escape(ch.From.Name), "Opponent", challengedName(lang, ch))
	if ch.ForAnyone() {
		text = lang.T("challenge.open_expired", "Challenger", escape(ch.From.Name))
	}
	s.out.editChallenge(ctx, ch, text)
	return nil
}
