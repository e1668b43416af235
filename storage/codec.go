package storage

import (
	"encoding/json"
	"fmt"

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
