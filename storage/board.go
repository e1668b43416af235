package storage

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	bolt "go.etcd.io/bbolt"
)

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
//
// A note pays the board owed (Game.BoardDue), and so may make the game
// due later than the wake its record is indexed under: Due and NextWake
// read the wake the note gives it instead (boardNotes.wakeOf), until the
// next write indexes it. Close writes the notes not yet written, so that
// a restart finds every board shown; after a crash, a board whose note
// was lost is owed, and the scheduler finds it posted (bot's repair).
//
// The other backends may write the note at once (see storage/postgres).
func (s *Store) NoteBoard(ctx context.Context, channelID string, gameID uint64, ply int, messageID string) error {
	if err := begin(ctx); err != nil {
		return fmt.Errorf("note the board of channel %s: %w", channelID, err)
	}
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
		r := new(gameRecord)
		if err := decode(raw, r); err != nil {
			return err
		}
		if r.ID != gameID || len(r.Moves) != ply {
			return fmt.Errorf("game %d at ply %d: %w", gameID, ply, ErrNotFound)
		}
		n := boardNote{gameID: gameID, ply: ply, messageID: messageID, indexed: r.WakeAt, wake: r.WakeAt}
		if !r.BoardDue.IsZero() { // the note pays it: the game's wake changes
			g, err := r.game()
			if err != nil {
				return err
			}
			g.Noted(messageID)
			n.wake = g.Wake()
		}
		s.boards.note(channelID, n)
		return nil
	})
	if err != nil {
		return fmt.Errorf("note the board of channel %s: %w", channelID, err)
	}
	return nil
}

// boardNote is a board message noted by NoteBoard and not yet written:
// with it, the game's record indexed at indexed wakes at wake.
type boardNote struct {
	gameID    uint64
	ply       int
	messageID string
	indexed   time.Time
	wake      time.Time
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
		r.BoardMessageID, r.BoardDue = n.messageID, time.Time{}
	}
	return n
}

// wakeOf returns when the game of channel, indexed at at, is due with its
// note, if a note makes that another time (it paid a board owed).
func (b *boardNotes) wakeOf(channel string, at time.Time) (time.Time, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	n, ok := b.m[channel]
	if !ok || !n.indexed.Equal(at) || n.wake.Equal(at) {
		return time.Time{}, false
	}
	return n.wake, true
}

// pending returns the channels whose notes are not yet written.
func (b *boardNotes) pending() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Collect(maps.Keys(b.m))
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
