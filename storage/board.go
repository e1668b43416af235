package storage

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

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
