package storage

import (
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// keyAlive is the key, in bucketMeta, of when the bot was last alive:
// 8 bytes, big-endian Unix nanoseconds.
var keyAlive = []byte("alive")

// SetAlive records that the bot is running at t, for Resume to tell how
// long it was down after a stop or a crash.
func (s *Store) SetAlive(t time.Time) error {
	if err := s.db.Update(func(tx *bolt.Tx) error { return putAlive(tx, t) }); err != nil {
		return fmt.Errorf("record the bot alive: %w", err)
	}
	return nil
}

func putAlive(tx *bolt.Tx, t time.Time) error {
	return tx.Bucket(bucketMeta).Put(keyAlive, binary.BigEndian.AppendUint64(nil, uint64(t.UnixNano())))
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
// the Store.
func (s *Store) Resume(now time.Time, minDown time.Duration, fn func(g *Game, down time.Duration) (bool, error)) (time.Duration, []*Game, error) {
	s.boards.order.Lock() // games change, as in UpdateGame
	defer s.boards.order.Unlock()
	var down time.Duration
	var changed []*Game
	err := s.db.Update(func(tx *bolt.Tx) error {
		down, changed = 0, nil
		if raw := tx.Bucket(bucketMeta).Get(keyAlive); len(raw) == 8 {
			down = now.Sub(time.Unix(0, int64(binary.BigEndian.Uint64(raw))))
		}
		if down >= minDown && down > 0 {
			games := tx.Bucket(bucketGames)
			var records []*gameRecord
			err := games.ForEach(func(k, v []byte) error {
				r := new(gameRecord)
				if err := decode(v, r); err != nil {
					return fmt.Errorf("game in channel %s: %w", k, err)
				}
				records = append(records, r)
				return nil
			})
			if err != nil {
				return err
			}
			for _, old := range records { // a bucket may not change while ForEach runs
				s.boards.apply(old)
				g, err := old.game()
				if err != nil {
					return err
				}
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
				if err := putGame(tx, g.record(), old.WakeAt); err != nil {
					return err
				}
				changed = append(changed, g)
			}
		}
		return putAlive(tx, now)
	})
	if err != nil {
		return 0, nil, fmt.Errorf("resume after %v down: %w", down, err)
	}
	return down, changed, nil
}
