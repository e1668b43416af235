package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/kulami/kulami/bot/jobs"
	"github.com/kulami/kulami/storage"
)

// mendFirst and mendCap are the waits of mender's tries: the first a
// second after the failure, each twice the one before, at most mendCap
// apart, so that a board Discord failed is back within mendCap of Discord
// answering again, however long the fault. mendFor is how long a debt is
// tried so: past it, the stored debt is left to the scheduler (owe), and a
// follow-up's interaction token has expired (Discord keeps it 15 minutes).
const (
	mendFirst = time.Second
	mendCap   = 8 * time.Second
	mendFor   = 15 * time.Minute
)

// mender tries again, in this process, what Discord failed after a change
// committed: a board owed (table.owe) and the follow-up telling the player
// that their change is stored and its board follows (Bot.fail). Each debt
// is tried on the bot's runner of slow work (class jobMend), after waits
// on the clock that back off from mendFirst to mendCap, until it is paid,
// moot, or mendFor has passed; the store keeps a board's debt all along,
// so that the scheduler posts it if this process dies (see owe). A debt
// is tried by one loop at a time, by its key.
type mender struct {
	clock  Clock
	runner *jobs.Runner
	log    *slog.Logger
	ctx    context.Context // the bot's: cancelled by Close, which ends the loops

	mu      sync.Mutex
	pending map[string]bool // the keys of the debts being tried
	off     bool            // tries nothing (a test of the scheduler's repair)
	loops   sync.WaitGroup
}

// mend starts trying pay, the debt named key, unless a loop is already
// trying it: pay returns nil once the debt is paid or moot, and an error
// while it is owed (logged where it failed: owe, logFault). It returns
// whether it started a loop.
func (m *mender) mend(key string, pay func(ctx context.Context) error) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pending[key] || m.off || m.ctx.Err() != nil {
		return false
	}
	m.pending[key] = true
	m.loops.Add(1)
	go m.loop(key, pay)
	return true
}

// mending reports whether a loop of this process is trying the debt key.
func (m *mender) mending(key string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.pending[key]
}

func (m *mender) loop(key string, pay func(ctx context.Context) error) {
	defer m.loops.Done()
	defer func() {
		m.mu.Lock()
		delete(m.pending, key)
		m.mu.Unlock()
	}()
	until := m.clock.Now().Add(mendFor)
	for wait := mendFirst; ; wait = min(2*wait, mendCap) {
		select {
		case <-m.ctx.Done():
			return
		case <-m.clock.After(wait):
		}
		err := m.runner.Do(m.ctx, jobs.Job{Class: jobMend, Key: key, Run: pay})
		if err == nil || errors.Is(err, jobs.ErrClosed) || m.ctx.Err() != nil {
			return
		}
		if !m.clock.Now().Before(until) {
			m.log.Warn("a debt to Discord is still owed after its tries", "debt", key, "err", RedactError(err))
			return
		}
	}
}

// wait waits for the loops to end, once the bot's context is done.
func (m *mender) wait() { m.loops.Wait() }

// mendFollowup tries again on the mender m, the follow-up that tells the
// user of c that their change is stored (a storedError) when Discord
// failed it (failed, a 5xx): the player was told their change was made,
// and is owed the word that its board comes later, as the board is owed.
// Only a follow-up of a complete first response can come later (Discord
// drops an interaction not answered within 3 seconds), and one that timed
// out is not sent again: Discord may have shown it.
func (t *table) mendFollowup(c *interaction, m message, failed error) {
	if status, fault := discordFault(failed); !fault || status == "timeout" || !c.answer.complete() {
		return
	}
	s, i, log := c.s, c.i, c.log
	t.mend.mend("follow-up "+i.ID, func(ctx context.Context) error {
		later := &interaction{ctx: ctx, s: s, i: i, log: log}
		_, err := later.followup(m)
		if status, fault := discordFault(err); !fault || status == "timeout" {
			return nil // sent, or not to be sent again
		}
		return err
	})
}

// oneTry marks the context of a mender's try: sendBoard posts once.
type oneTry struct{}

// boardDebt names the debt of the board of g at its ply for the mender.
func boardDebt(g *storage.Game) string {
	return fmt.Sprintf("board %s %d %d", g.ChannelID, g.ID, g.Ply())
}

// mendBoard tries the board owed of g again on the mender, a post a try
// (the scheduler's repair, which finds it in the channel if Discord posted
// it after all), while the game is at g's ply and the board is owed: a
// board Discord failed is back seconds after Discord answers again, not
// at the debt's minute.
func (t *table) mendBoard(g *storage.Game) {
	channel, id, ply := g.ChannelID, g.ID, g.Ply()
	t.mend.mend(boardDebt(g), func(ctx context.Context) error {
		now, err := t.store.Game(ctx, channel)
		switch {
		case errors.Is(err, storage.ErrNotFound):
			return nil
		case err != nil:
			return err
		case now.ID != id || now.Ply() != ply || now.BoardDue.IsZero():
			return nil // moved on, or paid
		}
		return t.repair(context.WithValue(ctx, oneTry{}, true), now)
	})
}
