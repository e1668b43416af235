package bot

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// outageReminders is how many reminders of the time given back a resume
// makes due a second at most (each a message, and a DM to a player who
// asked for them): well under Discord's 50 requests a second, so that a
// restart with thousands of games leaves the interactions and the rest of
// the due work theirs.
const outageReminders = 10

// beginResume begins to give back to the players the time the bot was
// down, if it lasted minOutage or more (storage's BeginResume): it reports
// whether a resume is under way, for resumeGames. Until a game's batch
// reaches it, a game that falls due is given its time by the giver before
// its wake is acted on, so no deadline is enforced before.
func (s *scheduler) beginResume(ctx context.Context) (bool, error) {
	down, resuming, err := s.store.BeginResume(ctx, s.clock.Now(), minOutage, outageReminders)
	if err != nil {
		return false, err
	}
	if resuming {
		s.log.Info("giving the players back the time the bot was down", "down", down)
	}
	return resuming, nil
}

// resumeGames gives every running clock the time the bot was down, in
// batches (storage's Resume), each game with its reminder that says so,
// made due at the pace of outageReminders. On an error, the next start
// goes on where it stopped.
func (s *scheduler) resumeGames(ctx context.Context) error {
	n, err := s.store.Resume(ctx, extendClock)
	if err != nil {
		return err
	}
	s.log.Info("gave the players back the time the bot was down", "games", n)
	s.wake.poke()
	return nil
}

// extendClock gives the player to move in g down more time, if a clock
// runs: what a resume does to each game (storage's Resume and GiveBack).
func extendClock(g *storage.Game, down time.Duration) (bool, error) {
	if err := g.Extend(down); errors.Is(err, game.ErrNotDue) {
		return false, nil // no clock runs
	} else if err != nil {
		return false, err
	}
	return true, nil
}

// giver gives the time of a resume under way (storage.Resuming) to the
// games that fall due before the resume's batches reach them, in the
// background: a scheduler's pass hands it those games (hold) and acts on
// the rest of what is due at once, so that a restart with tens of
// thousands of games due has its first pass done in a moment (issue 41:
// it waited 21 s for 27,000 games given their time 25 a transaction
// first). A game handed over is not acted on until the giver has given
// it its time, or found it owed none (it moved since, or a batch of the
// resume reached it first): its wake, which was set before the outage
// was given back, would time out a player who was not late. The giver
// gives them in the order the passes hand them, the earliest due first,
// storage.ResumeBatch a transaction (storage's GiveBack), one
// transaction at a time beside the resume's batches, and pokes the
// scheduler when a game it reached is to be acted on.
//
// It is safe for concurrent use.
type giver struct {
	store interface {
		Resuming(ctx context.Context) (*storage.Resuming, error)
		GiveBack(ctx context.Context, channels []string, fn func(g *storage.Game, down time.Duration) (bool, error)) ([]string, error)
	}
	log  *slog.Logger
	wake wakeup
	// logFailure logs a failure (scheduler.logFailure).
	logFailure func(ctx context.Context, msg string, args ...any)

	mu sync.Mutex
	// at is when the resume that queue and settled are for began (its
	// Outage.At): a resume another start adds to makes them new.
	at time.Time
	// queue is the games handed over and not yet reached, in order;
	// queued holds them and the ones under way.
	queue  []string
	queued map[string]bool
	// settled holds the games this resume owes nothing now: given their
	// time, or found owed none. A game is never owed again by the same
	// resume (the outage is given once, and a game that moved since owes
	// none), so its wakes are acted on from then on.
	settled map[string]bool
	running bool           // a goroutine gives the queue
	work    sync.WaitGroup // the goroutine, for wait
}

// hold returns the wakes of due that a pass may act on now, given r, the
// resume under way (nil: none), and hands the rest to the giver: the
// games that r may still owe time, which it has not yet reached (their
// channels come after where one of r's outages got to, see
// storage.Outage). It starts the giver's goroutine, with ctx, if it has
// work and none runs.
func (gv *giver) hold(ctx context.Context, r *storage.Resuming, due []storage.Wake) []storage.Wake {
	gv.mu.Lock()
	defer gv.mu.Unlock()
	if r == nil {
		gv.settled, gv.at = nil, time.Time{} // done: let the memory go
		return due
	}
	if !gv.at.Equal(r.At) || gv.settled == nil {
		gv.at, gv.settled = r.At, map[string]bool{}
	}
	if gv.queued == nil {
		gv.queued = map[string]bool{}
	}
	reached := r.After // every outage of r got this far at least
	for _, o := range r.Earlier {
		reached = min(reached, o.After)
	}
	handed := false
	due = slices.DeleteFunc(due, func(w storage.Wake) bool {
		if w.Kind != storage.WakeGame || w.ChannelID <= reached || gv.settled[w.ChannelID] {
			return false
		}
		if !gv.queued[w.ChannelID] {
			gv.queued[w.ChannelID] = true
			gv.queue = append(gv.queue, w.ChannelID)
			handed = true
		}
		return true
	})
	if handed && !gv.running {
		gv.running = true
		gv.work.Go(func() { gv.run(ctx) })
	}
	return due
}

// run gives the queue its time, a batch at a time, until it is empty.
// On a failure it drops the queue: the next pass hands its games again.
func (gv *giver) run(ctx context.Context) {
	for {
		gv.mu.Lock()
		batch := gv.queue[:min(len(gv.queue), storage.ResumeBatch)]
		gv.queue = gv.queue[len(batch):]
		if len(batch) == 0 {
			gv.queue, gv.running = nil, false
			gv.mu.Unlock()
			return
		}
		gv.mu.Unlock()
		given, err := gv.store.GiveBack(ctx, batch, extendClock)
		gv.mu.Lock()
		if err != nil {
			for _, ch := range gv.queue {
				delete(gv.queued, ch)
			}
			gv.queue = nil
		} else if gv.settled != nil {
			for _, ch := range batch {
				gv.settled[ch] = true
			}
		}
		for _, ch := range batch {
			delete(gv.queued, ch)
		}
		gv.mu.Unlock()
		if err != nil {
			gv.logFailure(ctx, "scheduler cannot give back the time down to the games due", "games", len(batch), "err", err)
			gv.wake.poke()
			continue // empty: ends
		}
		if len(given) < len(batch) {
			// Some owed nothing: their wakes are due work now. (A game
			// given its time has its next wake set, which the
			// scheduler's pace during a resume or its next wake finds.)
			gv.wake.poke()
		}
		gv.log.Debug("gave the games due their time down", "games", len(batch), "given", len(given))
	}
}

// wait returns when the giver has reached every game handed to it.
func (gv *giver) wait() { gv.work.Wait() }

// first gives the game of channel the time a resume under way owes it,
// if any, at once: what a claim of a win on time does before it looks at
// the clock, so that a clock that ran out while the bot was down is not
// claimed before the giver or the resume's batch reach the game.
func (gv *giver) first(ctx context.Context, channel string) error {
	r, err := gv.store.Resuming(ctx)
	if err != nil || r == nil {
		return err
	}
	_, err = gv.store.GiveBack(ctx, []string{channel}, extendClock)
	return err
}
