package storage

import (
	"bytes"
	"encoding/json"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// bucketReviews holds the computer's analysis of finished games:
// guild ‖ game ID → the analysis as JSON (engine/review's encoding, which
// carries its own version). Schema version 3 added it (addReviews).
var bucketReviews = []byte("reviews")

// addReviews brings a file of schema version 2 to version 3: it creates
// the bucket of reviews. No stored value changes.
func addReviews(tx *bolt.Tx) error {
	_, err := tx.CreateBucketIfNotExists(bucketReviews)
	return err
}

// SaveReview stores data, the analysis of the finished game with the ID
// gameID of the guild, replacing any earlier one. It returns an error
// wrapping ErrNotFound if there is no such finished game, and ErrInvalid
// if data is not a JSON value.
func (s *Store) SaveReview(guildID string, gameID uint64, data []byte) error {
	err := s.db.Update(func(tx *bolt.Tx) error {
		if tx.Bucket(bucketFinished).Get(finishedKey(guildID, gameID)) == nil {
			return fmt.Errorf("finished game %d: %w", gameID, ErrNotFound)
		}
		if !json.Valid(data) {
			return fmt.Errorf("%w: the review is not JSON", ErrInvalid)
		}
		return put(tx.Bucket(bucketReviews), finishedKey(guildID, gameID), json.RawMessage(data))
	})
	if err != nil {
		return fmt.Errorf("save the review of game %d in guild %s: %w", gameID, guildID, err)
	}
	return nil
}

// Review returns the analysis stored by SaveReview for the finished game
// with the ID gameID of the guild, or an error wrapping ErrNotFound if
// there is none yet.
func (s *Store) Review(guildID string, gameID uint64) ([]byte, error) {
	data, err := inTx(s.db.View, func(tx *bolt.Tx) ([]byte, error) {
		r, err := get[json.RawMessage](tx.Bucket(bucketReviews), finishedKey(guildID, gameID), fmt.Sprintf("review of game %d", gameID))
		if err != nil {
			return nil, err
		}
		return *r, nil
	})
	if err != nil {
		return nil, fmt.Errorf("guild %s: %w", guildID, err)
	}
	return data, nil
}

// LastFinishedGame returns the finished game of the guild played in the
// channel that was made last (the highest ID), or an error wrapping
// ErrNotFound if the channel has none. It reads the guild's finished
// games from the newest back, skipping each without replaying it, until
// it finds one of the channel.
func (s *Store) LastFinishedGame(guildID, channelID string) (*FinishedGame, error) {
	f, err := inTx(s.db.View, func(tx *bolt.Tx) (*FinishedGame, error) {
		prefix := key(nil).str(guildID)
		c := tx.Bucket(bucketFinished).Cursor()
		for k, v := lastBefore(c, prefix.end()); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Prev() {
			var place struct {
				ID        uint64 `json:"id"`
				ChannelID string `json:"channel"`
			}
			if err := decode(v, &place); err != nil {
				return nil, fmt.Errorf("finished game %q: %w", k, err)
			}
			if place.ChannelID == channelID {
				return getFinished(tx, guildID, place.ID)
			}
		}
		return nil, fmt.Errorf("no finished game in channel %s: %w", channelID, ErrNotFound)
	})
	if err != nil {
		return nil, fmt.Errorf("guild %s: %w", guildID, err)
	}
	return f, nil
}
