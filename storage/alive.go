package storage

import (
	"context"
	"fmt"
	"time"
)

// SetAlive records that the bot is running at t, for Resume to tell how
// long it was down after a stop or a crash.
func (s *Core) SetAlive(ctx context.Context, t time.Time) error {
	if err := s.b.Update(ctx, func(tx Tx) error { return tx.PutAlive(t) }); err != nil {
		return fmt.Errorf("record the bot alive: %w", err)
	}
	return nil
}

// ResumeBatch is how many games Resume changes in one transaction.
const ResumeBatch = 100

// Resuming is a resume under way (see Resume): the outage from Alive to
// At is being given to the active games, in channel order, and the games
// up to the channel After have had it. It is kept until every game has,
// so that a resume that a crash interrupts goes on where it stopped.
type Resuming struct {
	Alive time.Time `json:"alive"` // when the bot was last alive before the outage
	At    time.Time `json:"at"`    // when the bot started again
	After string    `json:"after"` // the channel of the last game done ("" for none)
}

// Resume is what a bot does when it starts: it reads when the bot was last
// alive (SetAlive) and, if it was down for at least minDown until now,
// calls fn with every active game and how long the bot was down, and
// stores the games for which fn reports a change. Then it records now as
// alive. It returns how long the bot was down (zero if it never recorded
// being alive) and the games fn changed.
//
// It changes the games ResumeBatch at a time, in channel order, each
// batch in a transaction of its own, so that moves and the other writes
// go on between them however many games there are. An outage is never
// handed to a game twice: the store keeps how far the resume got
// (Resuming) in each batch's transaction, and a Resume that finds a
// resume a crash interrupted finishes it first (its outage, to the games
// it had not reached), then gives its own outage (from when the
// interrupted one started) to every game. If fn returns an error, or ends
// a game (ErrInvalid), the batch of that game is not written (nor the
// bot recorded alive); the batches before it are, and the next Resume
// goes on after them. Moves and new games go on while it runs: a game
// whose turn began at or after now (the bot back) is not handed the
// outage, which was not its.
//
// fn runs inside a write transaction: it must be quick and must not call
// the store; it may be called again (see Backend).
func (s *Core) Resume(ctx context.Context, now time.Time, minDown time.Duration, fn func(g *Game, down time.Duration) (bool, error)) (time.Duration, []*Game, error) {
	var changed []*Game
	for {
		var r *Resuming
		var down time.Duration
		err := s.b.Update(ctx, func(tx Tx) error {
			var err error
			if r, err = tx.Resuming(); r != nil || err != nil {
				return err
			}
			alive, err := tx.Alive()
			if err != nil {
				return err
			}
			if down = 0; !alive.IsZero() {
				down = now.Sub(alive)
			}
			if down < minDown || down <= 0 {
				return tx.PutAlive(now)
			}
			r = &Resuming{Alive: alive, At: now}
			return tx.PutResuming(r)
		})
		if err != nil {
			return 0, nil, fmt.Errorf("resume after %v down: %w", down, err)
		}
		if r == nil {
			return down, latest(changed), nil
		}
		for done := false; !done; {
			var batch []*Game
			err := s.b.Update(ctx, func(tx Tx) error {
				var err error
				batch, done, err = resumeBatch(tx, fn)
				return err
			})
			if err != nil {
				return 0, nil, fmt.Errorf("resume after %v down: %w", r.At.Sub(r.Alive), err)
			}
			changed = append(changed, batch...)
		}
		if r.At.Equal(now) {
			return now.Sub(r.Alive), latest(changed), nil
		}
		// An interrupted resume is finished: now this one's outage.
	}
}

// resumeBatch gives the outage of the resume under way to its next
// ResumeBatch games, and records how far it got; at the last, it records
// the bot alive when the resume started (or later, if the bot recorded
// itself alive since) and drops the resume. It returns the games fn
// changed and whether the resume is done.
func resumeBatch(tx Tx, fn func(g *Game, down time.Duration) (bool, error)) ([]*Game, bool, error) {
	r, err := tx.Resuming()
	if err != nil || r == nil {
		return nil, true, err
	}
	type stored struct {
		g    *Game
		wake time.Time
	}
	var games []stored
	if err := tx.GamesAfter(r.After, ResumeBatch, func(g *Game, wake time.Time) error {
		games = append(games, stored{g, wake})
		return nil
	}); err != nil {
		return nil, false, err
	}
	var changed []*Game
	for _, st := range games { // GamesAfter may not be written to while it runs
		g, old := st.g, st.g.record()
		if !turnBegan(g).Before(r.At) {
			continue // made or moved since the bot came back: the outage was not its
		}
		ok, err := fn(g, r.At.Sub(r.Alive))
		if err != nil {
			return nil, false, err
		}
		if !ok {
			continue
		}
		if err := g.checkUpdate(old); err != nil {
			return nil, false, err
		}
		if g.Over() {
			return nil, false, fmt.Errorf("%w: game %d: Resume may not end a game", ErrInvalid, g.ID)
		}
		if err := tx.PutGame(g, st.wake); err != nil {
			return nil, false, err
		}
		changed = append(changed, g)
	}
	if len(games) == ResumeBatch {
		r.After = games[len(games)-1].g.ChannelID
		return changed, false, tx.PutResuming(r)
	}
	alive, err := tx.Alive()
	if err != nil {
		return nil, false, err
	}
	if err := tx.PutAlive(maxTime(alive, r.At)); err != nil {
		return nil, false, err
	}
	return changed, true, tx.PutResuming(nil)
}

// turnBegan returns when the turn of g began: its last move, or its
// creation.
func turnBegan(g *Game) time.Time {
	if moves := g.Moves(); len(moves) > 0 {
		return moves[len(moves)-1].At
	}
	return g.Created()
}

// latest returns games without the versions of a game that a later one
// of the same channel follows (a game that two outages changed), in the
// order of the versions kept.
func latest(games []*Game) []*Game {
	last := map[string]int{}
	for i, g := range games {
		last[g.ChannelID] = i
	}
	var out []*Game
	for i, g := range games {
		if last[g.ChannelID] == i {
			out = append(out, g)
		}
	}
	return out
}

// maxTime returns the later of a and b.
func maxTime(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
