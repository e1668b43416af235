package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/kulami/kulami/storage"
)

// unsynced runs the statements before (may be nil) and then sql with
// args in one transaction that commits with synchronous_commit off (the
// commit returns before the server has flushed it to disk), in one round
// trip, and returns the number of rows sql affected.
func (s *Store) unsynced(ctx context.Context, before *pgx.Batch, sql string, args ...any) (int64, error) {
	b := &pgx.Batch{}
	b.Queue(`BEGIN`)
	b.Queue(`SET LOCAL synchronous_commit = off`)
	if before != nil {
		b.QueuedQueries = append(b.QueuedQueries, before.QueuedQueries...)
	}
	at := b.Len()
	b.Queue(sql, args...)
	b.Queue(`COMMIT`)
	res := s.pool.SendBatch(ctx, b)
	var n int64
	for i := range b.Len() {
		tag, err := res.Exec()
		if err != nil {
			res.Close()
			return 0, err
		}
		if i == at {
			n = tag.RowsAffected()
		}
	}
	return n, res.Close()
}

// NoteBoard records that the message messageID shows the board of the game
// gameID of the channel at ply: the next read of the game sees it as its
// BoardMessageID. It returns an error wrapping storage.ErrNotFound if the
// channel's game is another or over, or has moved past ply: that board is
// then already out of date.
//
// Unlike bbolt's, which keeps the note in memory until the game's next
// write, it writes the note at once, since another process may serve the
// game's next interaction: one UPDATE that checks the game and its ply,
// so a move that commits first makes it change nothing. It commits with
// synchronous_commit off: the commit returns before the server has
// flushed it to disk. That is safe because the ID is only bookkeeping,
// like bbolt's note: if the server crashes in the next fraction of a
// second (wal_writer_delay), the note is lost, never corrupted; the old
// board then keeps its menus, and a click on it is refused as out of
// date like any other. The moves themselves commit durably. Skipping the
// flush saves a second disk wait per move. The note pays the board owed
// (storage.Game.BoardDue) in the same UPDATE: the game's wake becomes the
// one it has once its board is noted (column noted_wake, which PutGame
// writes). A note lost to a crash leaves the board owed, and the bot's
// scheduler finds it posted.
func (s *Store) NoteBoard(ctx context.Context, channelID string, gameID uint64, ply int, messageID string) error {
	updated, err := s.unsynced(ctx, nil, `UPDATE active SET board_message = $1, wake_at = noted_wake WHERE channel = $2 AND kind = $3 AND id = $4 AND ply = $5`,
		messageID, channelID, kindGame, int64(gameID), ply)
	if err != nil {
		return fmt.Errorf("note the board of channel %s: %w", channelID, locked(err))
	}
	if updated == 0 {
		return fmt.Errorf("note the board of channel %s: game %d at ply %d: %w", channelID, gameID, ply, storage.ErrNotFound)
	}
	return nil
}
