package storage

import (
	"encoding/json"
	"fmt"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

// CreateGame stores g as the active game of g.ChannelID and sets g.ID to a
// new unique ID. It returns an error wrapping ErrChannelBusy if the channel
// already has a game or an open challenge, and ErrInvalid if g may not be
// stored (no game, a bad place or player, a game that is over).
func (s *Store) CreateGame(g *Game) error {
	id, err := inTx(s.db.Update, func(tx *bolt.Tx) (uint64, error) { return createGame(tx, g) })
	if err != nil {
		return fmt.Errorf("create game in channel %s: %w", g.ChannelID, err)
	}
	g.ID = id
	return nil
}

// createGame stores g with a new ID, which it returns.
func createGame(tx *bolt.Tx, g *Game) (uint64, error) {
	if err := g.check(); err != nil {
		return 0, err
	}
	if g.Over() {
		return 0, fmt.Errorf("%w: a new game cannot have a result", ErrInvalid)
	}
	if err := checkFree(tx, g.ChannelID); err != nil {
		return 0, err
	}
	id, err := tx.Bucket(bucketGames).NextSequence()
	if err != nil {
		return 0, err
	}
	r := g.record()
	r.ID = id
	return id, putGame(tx, r, time.Time{})
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

// putGame stores the active game r, whose stored version had the wake time
// oldWake (zero for a new game), and moves its wake.
func putGame(tx *bolt.Tx, r *gameRecord, oldWake time.Time) error {
	if err := put(tx.Bucket(bucketGames), []byte(r.ChannelID), r); err != nil {
		return err
	}
	return setWake(tx, WakeGame, r.ChannelID, oldWake, r.WakeAt)
}

// getGame reads the stored active game of channel.
func getGame(tx *bolt.Tx, channel string) (*gameRecord, error) {
	return get[gameRecord](tx.Bucket(bucketGames), []byte(channel), "game")
}

// Game returns the active game of the channel, or an error wrapping
// ErrNotFound if there is none (a finished game is no longer active).
func (s *Store) Game(channelID string) (*Game, error) {
	g, err := inTx(s.db.View, func(tx *bolt.Tx) (*Game, error) {
		r, err := getGame(tx, channelID)
		if err != nil {
			return nil, err
		}
		s.boards.apply(r)
		return r.game()
	})
	if err != nil {
		return nil, fmt.Errorf("channel %s: %w", channelID, err)
	}
	return g, nil
}

// UpdateGame changes the active game of the channel in one transaction:
// it calls fn with the stored game, whose methods fn calls to make the
// change (g.Play, g.Resign, …), and stores what fn leaves, then returns
// it. If fn returns an error, or leaves a game the store refuses (an error
// wrapping ErrInvalid: another ID, place or game), nothing is written and
// the error is returned; ErrNotFound if the channel has no active game.
//
// If the game has a result when fn returns, the same transaction moves it
// to the finished games, adds it to both players' history and, unless it
// was aborted, updates both players' profiles and ratings on the game's
// ladder: one durable commit for the move, the clock, the result and the
// ratings.
//
// Writes are serialized, so fn always sees the latest game: a move checked
// against the board the player saw is safe, since game.Game.Play refuses
// another ply (game.ErrStale).
//
// fn runs inside the write transaction, which blocks every other write: it
// must be quick, must not wait for the network and must not call the
// Store. It may keep no reference to g.
func (s *Store) UpdateGame(channelID string, fn func(*Game) error) (*Game, error) {
	// Moves and notes of boards are ordered by the lock (see NoteBoard).
	// Writes are serialized by bbolt anyway, so it costs no concurrency.
	s.boards.order.Lock()
	defer s.boards.order.Unlock()
	g, err := inTx(s.db.Update, func(tx *bolt.Tx) (*Game, error) {
		old, err := getGame(tx, channelID)
		if err != nil {
			return nil, err
		}
		note := s.boards.apply(old)
		g, err := old.game()
		if err != nil {
			return nil, err
		}
		if err := fn(g); err != nil {
			return nil, err
		}
		if err := g.check(); err != nil {
			return nil, err
		}
		if err := g.checkUpdate(old); err != nil {
			return nil, err
		}
		if g.Over() {
			err = s.finish(tx, g, old.WakeAt)
		} else {
			err = putGame(tx, g.record(), old.WakeAt)
		}
		if err == nil {
			tx.OnCommit(func() { s.boards.written(channelID, note) })
		}
		return g, err
	})
	if err != nil {
		return nil, fmt.Errorf("update game in channel %s: %w", channelID, err)
	}
	return g, nil
}

// NoteBoard records that the message messageID shows the board of the game
// gameID of the channel at ply: the next Game, UpdateGame and scheduler
// wake-up see it as the game's BoardMessageID. It returns an error wrapping
// ErrNotFound if the channel's game is another or over, or has moved past
// ply: that board is then already out of date.
//
// NoteBoard writes nothing to disk: the note rides on the game's next
// write (a move, a reminder, the end). This is safe because the ID is only
// bookkeeping: it lets the bot strip the menus of the previous board and
// link the current one. If the bot stops before the next write, the note
// is lost; the old board then keeps its menus, and a click on it is
// refused as out of date like any other, and a link to the board says to
// use /kulami board instead. Saving a second fsync'd commit per move is
// worth that.
func (s *Store) NoteBoard(channelID string, gameID uint64, ply int, messageID string) error {
	// bbolt lets a write commit while a read transaction is open, so a
	// move could otherwise commit between the check below and the note,
	// and neither would retire this board: the order lock puts the note
	// wholly before or after every UpdateGame.
	s.boards.order.Lock()
	defer s.boards.order.Unlock()
	err := s.db.View(func(tx *bolt.Tx) error {
		raw := tx.Bucket(bucketGames).Get([]byte(channelID))
		if raw == nil {
			return ErrNotFound
		}
		var head struct {
			ID    uint64            `json:"id"`
			Moves []json.RawMessage `json:"moves"`
		}
		if err := decode(raw, &head); err != nil {
			return err
		}
		if head.ID != gameID || len(head.Moves) != ply {
			return fmt.Errorf("game %d at ply %d: %w", gameID, ply, ErrNotFound)
		}
		s.boards.note(channelID, boardNote{gameID: gameID, ply: ply, messageID: messageID})
		return nil
	})
	if err != nil {
		return fmt.Errorf("note the board of channel %s: %w", channelID, err)
	}
	return nil
}

// boardNote is a board message noted by NoteBoard and not yet written.
type boardNote struct {
	gameID    uint64
	ply       int
	messageID string
}

// boardNotes are the board messages noted and not yet written, by
// channel. It is safe for concurrent use.
type boardNotes struct {
	order sync.Mutex // held by UpdateGame and NoteBoard, to order them
	mu    sync.Mutex // guards m
	m     map[string]boardNote
}

// note records n for channel.
func (b *boardNotes) note(channel string, n boardNote) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[string]boardNote{}
	}
	b.m[channel] = n
}

// apply sets the board message of the stored game r from the note of its
// channel, if the note is of r's game at r's ply, and returns the note.
func (b *boardNotes) apply(r *gameRecord) boardNote {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, ok := b.m[r.ChannelID]
	if ok && n.gameID == r.ID && n.ply == len(r.Moves) {
		r.BoardMessageID = n.messageID
	}
	return n
}

// written forgets the note n of channel once a write has stored it (or
// made it out of date), unless a newer note has taken its place.
func (b *boardNotes) written(channel string, n boardNote) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m[channel] == n {
		delete(b.m, channel)
	}
}
