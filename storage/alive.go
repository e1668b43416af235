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

// Resume is what a bot does when it starts: it reads when the bot was last
// alive (SetAlive) and, if it was down for at least minDown until now,
// calls fn with every active game and how long the bot was down, and
// stores the games for which fn reports a change. In the same transaction
// it records now as alive, so that an outage is never handed to fn twice,
// even if the bot crashes again right after. It returns how long the bot
// was down (zero if it never recorded being alive) and the games fn
// changed. If fn returns an error, or ends a game (ErrInvalid), nothing is
// written.
//
// fn runs inside the write transaction: it must be quick and must not call
// the store; it may be called again (see Backend).
func (s *Core) Resume(ctx context.Context, now time.Time, minDown time.Duration, fn func(g *Game, down time.Duration) (bool, error)) (time.Duration, []*Game, error) {
	var down time.Duration
	var changed []*Game
	err := s.b.Update(ctx, func(tx Tx) error {
		down, changed = 0, nil
		alive, err := tx.Alive()
		if err != nil {
			return err
		}
		if !alive.IsZero() {
			down = now.Sub(alive)
		}
		if down >= minDown && down > 0 {
			type stored struct {
				g    *Game
				wake time.Time
			}
			var games []stored
			if err := tx.Games(func(g *Game, wake time.Time) error {
				games = append(games, stored{g, wake})
				return nil
			}); err != nil {
				return err
			}
			for _, st := range games { // Games may not be written to while it runs
				g, old := st.g, st.g.record()
				ok, err := fn(g, down)
				if err != nil {
					return err
				}
				if !ok {
					continue
				}
				if err := g.checkUpdate(old); err != nil {
					return err
				}
				if g.Over() {
					return fmt.Errorf("%w: game %d: Resume may not end a game", ErrInvalid, g.ID)
				}
				if err := tx.PutGame(g, st.wake); err != nil {
					return err
				}
				changed = append(changed, g)
			}
		}
		return tx.PutAlive(now)
	})
	if err != nil {
		return 0, nil, fmt.Errorf("resume after %v down: %w", down, err)
	}
	return down, changed, nil
}
