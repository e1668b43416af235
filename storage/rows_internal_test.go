package storage

import (
	"testing"

	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// BoltRows reads and writes the stored forms of a bbolt store's active
// games and challenges (storagetest.Rows), for the tests of package
// storage_test.
type BoltRows struct{ S *Store }

// bucket returns the name of the bucket of a game or a challenge.
func (BoltRows) bucket(challenge bool) []byte {
	if challenge {
		return bucketChallenges
	}
	return bucketGames
}

func (r BoltRows) Put(tb testing.TB, channel string, challenge bool, data []byte) {
	tb.Helper()
	require.NoError(tb, r.S.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(r.bucket(challenge)).Put([]byte(channel), data)
	}))
}

func (r BoltRows) Get(tb testing.TB, channel string, challenge bool) []byte {
	tb.Helper()
	var data []byte
	require.NoError(tb, r.S.db.View(func(tx *bolt.Tx) error {
		data = append(data, tx.Bucket(r.bucket(challenge)).Get([]byte(channel))...)
		return nil
	}))
	return data
}
