package postgres

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/storagetest"
)

// pgRows reads and writes the stored forms of a PostgreSQL store's
// active games and challenges (storagetest.Rows).
type pgRows struct{ s *Store }

// kind returns the kind of the row of a game or a challenge.
func (pgRows) kind(challenge bool) int16 {
	if challenge {
		return kindChallenge
	}
	return kindGame
}

func (r pgRows) Put(tb testing.TB, channel string, challenge bool, data []byte) {
	tb.Helper()
	tag, err := r.s.pool.Exec(tb.Context(), `UPDATE active SET data = $1 WHERE channel = $2 AND kind = $3`, string(data), channel, r.kind(challenge))
	require.NoError(tb, err)
	require.Equal(tb, int64(1), tag.RowsAffected())
}

func (r pgRows) Get(tb testing.TB, channel string, challenge bool) []byte {
	tb.Helper()
	var data string
	require.NoError(tb, r.s.pool.QueryRow(tb.Context(), `SELECT data FROM active WHERE channel = $1 AND kind = $2`, channel, r.kind(challenge)).Scan(&data))
	return []byte(data)
}

// TestOldClocks: rows written by the release before clock kinds read
// their 5-minute game and challenge as per move.
func TestOldClocks(t *testing.T) {
	s := mustOpen(t, storage.Options{})
	storagetest.OldClocks(t, s, pgRows{s})
}
