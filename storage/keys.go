package storage

import (
	"encoding/binary"
	"math"
	"time"

	bolt "go.etcd.io/bbolt"
)

// key builds a composite key. Strings end with a zero byte (IDs never hold
// one), so that one string is never the prefix of another's key; numbers
// are 8 bytes big-endian, so that keys sort by them.
type key []byte

// str appends s and a zero byte.
func (k key) str(s string) key { return append(append(k, s...), 0) }

// u64 appends v, big-endian.
func (k key) u64(v uint64) key { return binary.BigEndian.AppendUint64(k, v) }

// byte appends b.
func (k key) byte(b byte) key { return append(k, b) }

// time appends t so that keys sort by time, earlier first.
func (k key) time(t time.Time) key { return k.u64(timeBits(t)) }

// timeBits maps t to a number that sorts as t does (see UnixNano).
func timeBits(t time.Time) uint64 { return uint64(UnixNano(t)) ^ 1<<63 }

// UnixNano returns t as Unix nanoseconds, the way every backend orders
// times. Times before 1678 or after 2262, beyond the range of
// time.Time.UnixNano, map to the first or the last int64.
func UnixNano(t time.Time) int64 {
	switch s := t.Unix(); {
	case s >= math.MaxInt64/int64(time.Second):
		return math.MaxInt64
	case s <= math.MinInt64/int64(time.Second):
		return math.MinInt64
	}
	return t.UnixNano()
}

// bitsTime is the inverse of timeBits.
func bitsTime(b uint64) time.Time { return time.Unix(0, int64(b^1<<63)) }

// end returns the first key after every key that starts with k.
func (k key) end() key {
	e := append(key(nil), k...)
	for i := len(e) - 1; i >= 0; i-- {
		if e[i] < 0xff {
			e[i]++
			return e[:i+1]
		}
	}
	return nil // k is all 0xff: nothing comes after
}

// lastBefore moves c to the last key before from (to the last key of its
// bucket if from is nil or after every key) and returns it, or nil if
// there is none.
func lastBefore(c *bolt.Cursor, from []byte) (k, v []byte) {
	if k, _ = c.Seek(from); k == nil {
		return c.Last()
	}
	return c.Prev()
}
