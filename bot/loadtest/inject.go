package loadtest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/jackc/pgx/v5"

	"github.com/kulami/kulami/bot/discordtest"
)

// restartAt restarts the bot at Fault.RestartAt after the start, as an
// operator's deploy does in the middle of a burst: it stops the bot
// (SIGTERM: the interactions under way finish), then starts it again on
// the same database; every game is under the fault from the stop until a
// second after the new bot answers. One process only (a bbolt file has
// one).
func (r *runner) restartAt(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return nil
	case <-time.After(time.Until(r.deadline.Add(r.cfg.Fault.RestartAt - r.cfg.Duration))):
	}
	r.mu.Lock()
	old := r.bots[len(r.bots)-1]
	r.alive++ // the run's bot is down, not gone: botDone stays open
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.alive--; r.alive == 0 {
			close(r.botDone)
		}
	}()
	from := time.Now()
	err := old.stop()
	r.startBot(r.tb)
	r.faults.struck("", from, time.Now().Add(time.Second))
	if err != nil {
		return fmt.Errorf("stop the bot: %w", err)
	}
	return nil
}

// finishedRef is a game a table played to its end, for the storms.
type finishedRef struct {
	channel string
	id      uint64
	board   *discordtest.Message // its final board, with Replay (GIF)
}

// finished notes a game a table played to its end.
func (r *runner) finished(channel string, id uint64, board *discordtest.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ended = append(r.ended, finishedRef{channel: channel, id: id, board: board})
}

// anyFinished returns a random game played to its end, if there is one.
func (r *runner) anyFinished(rng *rand.Rand) (finishedRef, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.ended) == 0 {
		return finishedRef{}, false
	}
	return r.ended[rng.IntN(len(r.ended))], true
}

// inject starts the run's fault, which lasts until ctx ends; wait waits
// for all it started to stop. Errors of the injection itself (not the
// bot's) go to errs.
func (r *runner) inject(ctx context.Context) (wait func() []string) {
	f := r.cfg.Fault
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []string
	fail := func(err error) {
		mu.Lock()
		defer mu.Unlock()
		errs = append(errs, fmt.Sprintf("injecting %s: %v", f.Kind, err))
	}
	switch f.Kind {
	case faultDiscord500, faultDiscordHang:
		r.proxy.injectREST(f.Kind, f.Rate, ctx.Done(), r.faults)
	case faultPGRestart:
		wg.Go(func() {
			if err := r.pgRestarts(ctx); err != nil {
				fail(err)
			}
		})
	case faultPGLock:
		wg.Go(func() {
			if err := r.pgLocks(ctx); err != nil {
				fail(err)
			}
		})
	case faultBurst:
		wg.Go(func() {
			if err := r.restartAt(ctx); err != nil {
				fail(err)
			}
		})
	case faultReviews, faultGIFs:
		for k := range f.Users {
			user := r.dc.AddUser(fmt.Sprintf("storm%d", k))
			wg.Go(func() { r.storm(ctx, user, rand.New(rand.NewPCG(uint64(k), 2))) })
		}
	}
	return func() []string {
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		return errs
	}
}

// pgRestarts ends all the bot's connections to PostgreSQL every
// Fault.Every, as a restart of the server would, until ctx ends. Every
// game counts as under the fault for pgRecovery after.
func (r *runner) pgRestarts(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, r.db)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	tick := time.NewTicker(r.cfg.Fault.Every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		var ended int
		err := conn.QueryRow(ctx, `SELECT count(*) FILTER (WHERE pg_terminate_backend(pid, 5000))
			FROM pg_stat_activity WHERE application_name = $1`, r.app).Scan(&ended)
		if ctx.Err() != nil {
			return nil
		} else if err != nil {
			return err
		}
		now := time.Now()
		for range ended {
			r.faults.struck("", now, now.Add(pgRecovery))
		}
	}
}

// pgLocks locks the row of one table's game at a time for Fault.Hold,
// from a transaction of its own (SELECT … FOR UPDATE), then waits
// Fault.Every before the next table's, until ctx ends. Only the locked
// game is under the fault.
func (r *runner) pgLocks(ctx context.Context) error {
	conn, err := pgx.Connect(ctx, r.db)
	if err != nil {
		return err
	}
	defer conn.Close(context.Background())
	for k := 0; ctx.Err() == nil; k++ {
		channel := r.tables[k%len(r.tables)].channel
		locked, err := r.pgLock(ctx, conn, channel)
		if ctx.Err() != nil {
			return nil
		} else if err != nil {
			return err
		}
		pause := r.cfg.Fault.Every
		if !locked { // no game in that channel now: the next one
			pause = 10 * time.Millisecond
		}
		select {
		case <-ctx.Done():
		case <-time.After(pause):
		}
	}
	return nil
}

// pgLock holds the lock of the game of channel for Fault.Hold (or until
// ctx ends), if it has a game.
func (r *runner) pgLock(ctx context.Context, conn *pgx.Conn, channel string) (bool, error) {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return false, err
	}
	defer func() { _ = tx.Rollback(context.Background()) }()
	var id int64
	err = tx.QueryRow(ctx, `SELECT id FROM active WHERE channel = $1 AND kind = 0 FOR UPDATE`, channel).Scan(&id)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	from := time.Now()
	select {
	case <-ctx.Done():
	case <-time.After(r.cfg.Fault.Hold):
	}
	r.faults.struck(channel, from, time.Now())
	return true, nil
}

// stormPause is how long a user of a storm waits after each answer
// before they ask again.
const stormPause = 250 * time.Millisecond

// storm is one user who, until ctx ends, asks again and again for the
// review (/kulami review game:<id>) or the replay (Replay (GIF) on its
// final board) of a random game the tables finished. Its requests count
// as the faults served; the bot's answers (queued, refused for the
// user's cooldown…) are timed, never failures.
func (r *runner) storm(ctx context.Context, user *discordgo.User, rng *rand.Rand) {
	for ctx.Err() == nil {
		f, ok := r.anyFinished(rng)
		var i *discordgo.Interaction
		kind := kindReview
		switch {
		case !ok:
		case r.cfg.Fault.Kind == faultReviews:
			i = r.dc.Command(f.channel, user, "kulami", discordtest.Subcommand("review", discordtest.IntegerOption("game", int64(f.id))))
		default:
			kind = kindGIF
			i = r.dc.Button(f.board.ID, user, buttonWithPrefix(f.board.Components, "kulami:replay-gif:"))
		}
		if i != nil {
			start := time.Now()
			resp, err := r.dc.PostInteraction(r.url(), i)
			if err == nil {
				_ = resp.Body.Close()
				r.rec.stormAnswer(kind, time.Since(start))
			}
			r.faults.struck("-", start, start)
		}
		select {
		case <-ctx.Done():
		case <-time.After(stormPause):
		}
	}
}
