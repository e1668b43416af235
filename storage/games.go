package storage

import (
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// CreateGame stores g as the active game of g.ChannelID. It sets g.ID to a
// new unique ID and g.Layout to its canonical form. It returns an error
// wrapping ErrChannelBusy if the channel already has a game or an open
// challenge, and ErrInvalid if g may not be stored (see Game); g.Result
// must be nil.
func (s *Store) CreateGame(g *Game) error {
	id, err := inTx(s.db.Update, func(tx *bolt.Tx) (uint64, error) { return createGame(tx, g) })
	if err != nil {
		return fmt.Errorf("create game in channel %s: %w", g.ChannelID, err)
	}
	g.ID, g.Layout = id, canonicalLayout(g.Layout)
	return nil
}

// createGame stores a copy of g with a new ID, which it returns.
func createGame(tx *bolt.Tx, g *Game) (uint64, error) {
	games := tx.Bucket(bucketGames)
	id, err := games.NextSequence()
	if err != nil {
		return 0, err
	}
	c := *g
	c.ID, c.Layout = id, canonicalLayout(g.Layout)
	if err := c.check(); err != nil {
		return 0, err
	}
	if c.Result != nil {
		return 0, fmt.Errorf("%w: a new game cannot have a result", ErrInvalid)
	}
	if err := checkFree(tx, c.ChannelID); err != nil {
		return 0, err
	}
	return id, putGame(tx, &c, time.Time{})
}

// checkFree returns an error wrapping ErrChannelBusy if channel has an
// active game or an open challenge.
func checkFree(tx *bolt.Tx, channel string) error {
	if tx.Bucket(bucketGames).Get([]byte(channel)) != nil {
		return fmt.Errorf("%w: a game is going on there", ErrChannelBusy)
	}
	if tx.Bucket(bucketChallenges).Get([]byte(channel)) != nil {
		return fmt.Errorf("%w: a challenge is open there", ErrChannelBusy)
	}
	return nil
}

// putGame stores the active game g, whose stored version had the wake time
// oldWake (zero for a new game), and moves its wake.
func putGame(tx *bolt.Tx, g *Game, oldWake time.Time) error {
	if err := put(tx.Bucket(bucketGames), []byte(g.ChannelID), g); err != nil {
		return err
	}
	return setWake(tx, WakeGame, g.ChannelID, oldWake, g.WakeAt)
}

// getGame reads the active game of channel.
func getGame(tx *bolt.Tx, channel string) (*Game, error) {
	return get[Game](tx.Bucket(bucketGames), []byte(channel), "game")
}

// Game returns the active game of the channel, or an error wrapping
// ErrNotFound if there is none (a finished game is no longer active).
func (s *Store) Game(channelID string) (*Game, error) {
	g, err := inTx(s.db.View, func(tx *bolt.Tx) (*Game, error) { return getGame(tx, channelID) })
	if err != nil {
		return nil, fmt.Errorf("channel %s: %w", channelID, err)
	}
	return g, nil
}

// UpdateGame changes the active game of the channel in one transaction:
// it calls fn with the stored game and stores what fn leaves, then returns
// it. If fn returns an error, or leaves a game the store refuses (an error
// wrapping ErrInvalid: see Game), nothing is written and the error is
// returned; ErrNotFound if the channel has no active game.
//
// If fn sets g.Result, the same transaction moves the game to the finished
// games, adds it to both players' history and, unless it was aborted,
// updates both players' profiles and ratings on the game's ladder.
//
// Writes are serialized, so fn always sees the latest game: a move checked
// against the board at ply p is safe when fn refuses any other ply:
//
//	s.UpdateGame(channel, func(g *Game) error {
//		if g.Ply() != p {
//			return ErrStale // someone moved first; show the new board
//		}
//		_, err := g.Play(cell, now)
//		return err
//	})
//
// fn runs inside the write transaction, which blocks every other write: it
// must be quick, must not wait for the network and must not call the
// Store. It may keep no reference to g.
func (s *Store) UpdateGame(channelID string, fn func(*Game) error) (*Game, error) {
	g, err := inTx(s.db.Update, func(tx *bolt.Tx) (*Game, error) {
		g, err := getGame(tx, channelID)
		if err != nil {
			return nil, err
		}
		// old shares Moves and Result with g, which fn may change in
		// place; checkUpdate and the wake read only its other fields.
		old := *g
		if err := fn(g); err != nil {
			return nil, err
		}
		if err := g.checkUpdate(&old); err != nil {
			return nil, err
		}
		if err := g.check(); err != nil {
			return nil, err
		}
		if g.Result != nil {
			return g, s.finish(tx, g, old.WakeAt)
		}
		return g, putGame(tx, g, old.WakeAt)
	})
	if err != nil {
		return nil, fmt.Errorf("update game in channel %s: %w", channelID, err)
	}
	return g, nil
}

// ActiveGames returns every active game, in the order of their channel
// IDs.
func (s *Store) ActiveGames() ([]*Game, error) {
	var out []*Game
	err := s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketGames).ForEach(func(k, v []byte) error {
			g := new(Game)
			if err := decode(v, g); err != nil {
				return fmt.Errorf("game in channel %s: %w", k, err)
			}
			out = append(out, g)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("active games: %w", err)
	}
	return out, nil
}

// Counts are how many active games and open challenges there are.
type Counts struct {
	Games, Challenges int
}

// Counts returns how many active games and open challenges there are.
func (s *Store) Counts() (Counts, error) {
	var n Counts
	err := s.db.View(func(tx *bolt.Tx) error {
		n.Games = tx.Bucket(bucketGames).Stats().KeyN
		n.Challenges = tx.Bucket(bucketChallenges).Stats().KeyN
		return nil
	})
	if err != nil {
		return Counts{}, fmt.Errorf("counts: %w", err)
	}
	return n, nil
}
