package storage

import (
	"encoding/json"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// formatVersion is the version of the format of every stored value: its
// "v". A migration that changes the format of a kind of value rewrites
// those values and raises this number.
const formatVersion = 1

// envelope is how a value is stored: {"v":1,"data":{...}}. Data holds a
// pointer to the value to decode into.
type envelope struct {
	V    int `json:"v"`
	Data any `json:"data"`
}

// encode returns the stored form of v.
func encode(v any) ([]byte, error) {
	b, err := json.Marshal(envelope{V: formatVersion, Data: v})
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	return b, nil
}

// decode reads the stored form b into v, a pointer. b may belong to a
// transaction: v shares no memory with it.
func decode(b []byte, v any) error {
	e := envelope{Data: v}
	if err := json.Unmarshal(b, &e); err != nil {
		return fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	if e.V != formatVersion {
		return fmt.Errorf("%w: the value has format version %d, this kulamibot reads version %d", ErrCorrupt, e.V, formatVersion)
	}
	return nil
}

// get reads the value of key k of bucket b into a new T, or returns an
// error wrapping ErrNotFound; what names the value in messages.
func get[T any](b *bolt.Bucket, k []byte, what string) (*T, error) {
	raw := b.Get(k)
	if raw == nil {
		return nil, fmt.Errorf("%s: %w", what, ErrNotFound)
	}
	v := new(T)
	if err := decode(raw, v); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return v, nil
}

// put stores v at key k of bucket b.
func put(b *bolt.Bucket, k []byte, v any) error {
	data, err := encode(v)
	if err != nil {
		return err
	}
	return b.Put(k, data)
}

// Encode returns the stored form of v, {"v":1,"data":…}: how every
// backend stores a Challenge, HistoryEntry, Profile, settings or review
// (a json.RawMessage).
func Encode(v any) ([]byte, error) { return encode(v) }

// Decode reads the stored form b, as Encode writes it, into v, a pointer.
// A value that cannot be read is ErrCorrupt.
func Decode(b []byte, v any) error { return decode(b, v) }

// EncodeGame returns the stored form of the active game g, indexed under
// its wake time g.Wake().
func EncodeGame(g *Game) ([]byte, error) { return encode(g.record()) }

// DecodeGame reads the stored form of an active game, as EncodeGame
// writes it, and returns it with the wake time it was indexed under. The
// game's own checks (game.Restore) run on it: a stored value that is not
// a valid game is ErrCorrupt.
func DecodeGame(b []byte) (*Game, time.Time, error) {
	r := new(gameRecord)
	if err := decode(b, r); err != nil {
		return nil, time.Time{}, err
	}
	g, err := r.game()
	return g, r.WakeAt, err
}

// EncodeFinished returns the stored form of a finished game.
func EncodeFinished(f *FinishedGame) ([]byte, error) {
	return encode(f.stored())
}

// DecodeFinished reads the stored form of a finished game, as
// EncodeFinished writes it.
func DecodeFinished(b []byte) (*FinishedGame, error) {
	r := new(finishedRecord)
	if err := decode(b, r); err != nil {
		return nil, err
	}
	g, err := r.game()
	if err != nil {
		return nil, err
	}
	return &FinishedGame{Game: *g, RecordText: r.Record, Ratings: r.Ratings}, nil
}
