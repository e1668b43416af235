package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// WakeKind says what a Wake is about.
type WakeKind uint8

// The kinds of wake.
const (
	WakeGame      WakeKind = iota // the active game of a channel
	WakeChallenge                 // the open challenge of a channel
)

var wakeNames = names{"game", "challenge"}

// String returns "game" or "challenge".
func (k WakeKind) String() string { return wakeNames.text("WakeKind", uint8(k)) }

// Wake is an entry of the time index: the game or challenge of channel
// ChannelID asked to be looked at, at At (its WakeAt).
type Wake struct {
	Kind      WakeKind
	ChannelID string
	At        time.Time
}

// wakeKey returns the key of a wake in bucketWake.
func wakeKey(w Wake) []byte {
	return key(nil).time(w.At).byte(byte(w.Kind)).str(w.ChannelID)
}

// parseWakeKey is the inverse of wakeKey.
func parseWakeKey(k []byte) (Wake, error) {
	if len(k) < 11 || k[len(k)-1] != 0 || !wakeNames.valid(k[8]) || bytes.IndexByte(k[9:len(k)-1], 0) >= 0 {
		return Wake{}, fmt.Errorf("%w: bad wake key %q", ErrCorrupt, k)
	}
	return Wake{
		Kind:      WakeKind(k[8]),
		ChannelID: string(k[9 : len(k)-1]),
		At:        bitsTime(binary.BigEndian.Uint64(k[:8])),
	}, nil
}

// setWake moves the wake of a game or challenge of channel from old to
// next; a zero time is no wake.
func setWake(tx *bolt.Tx, kind WakeKind, channel string, old, next time.Time) error {
	b := tx.Bucket(bucketWake)
	if !old.IsZero() {
		if err := b.Delete(wakeKey(Wake{kind, channel, old})); err != nil {
			return err
		}
	}
	if next.IsZero() {
		return nil
	}
	return b.Put(wakeKey(Wake{kind, channel, next}), []byte{})
}

// NextWake returns the earliest WakeAt of all active games and open
// challenges, or false if none has one. A scheduler sleeps until then (or
// until a write sets an earlier one).
func (s *Store) NextWake() (time.Time, bool, error) {
	var at time.Time
	var ok bool
	err := s.db.View(func(tx *bolt.Tx) error {
		k, _ := tx.Bucket(bucketWake).Cursor().First()
		if k == nil {
			return nil
		}
		w, err := parseWakeKey(k)
		at, ok = w.At, true
		return err
	})
	if err != nil {
		return time.Time{}, false, fmt.Errorf("next wake: %w", err)
	}
	return at, ok, nil
}

// Due returns every wake at or before now, earliest first. Handling one
// means an UpdateGame or UpdateChallenge that sets the next WakeAt (or
// zero); until then it stays due, so a wake is never lost to a crash.
func (s *Store) Due(now time.Time) ([]Wake, error) {
	var out []Wake
	limit := key(nil).time(now).end() // nil: now is the end of time
	err := s.db.View(func(tx *bolt.Tx) error {
		c := tx.Bucket(bucketWake).Cursor()
		for k, _ := c.First(); k != nil && (limit == nil || bytes.Compare(k, limit) < 0); k, _ = c.Next() {
			w, err := parseWakeKey(k)
			if err != nil {
				return err
			}
			out = append(out, w)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("due wakes: %w", err)
	}
	return out, nil
}
