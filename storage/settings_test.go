package storage

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// TestOldSettingsLoad: settings stored before the language and locales
// existed load, with none.
func TestOldSettingsLoad(t *testing.T) {
	s := mustOpen(t, Options{})
	require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket(bucketGuilds).Put([]byte(guild), []byte(`{"v":1,"data":{"threads":true,"move_time":3600000000000,"hints":false}}`)); err != nil {
			return err
		}
		return tx.Bucket(bucketUsers).Put([]byte("100"), []byte(`{"v":1,"data":{"dm_reminders":true}}`))
	}))
	g, err := s.GuildSettings(t.Context(), guild)
	require.NoError(t, err)
	assert.Equal(t, GuildSettings{Threads: true, MoveTime: time.Hour}, g)
	u, err := s.UserSettings(t.Context(), "100")
	require.NoError(t, err)
	assert.Equal(t, UserSettings{DMReminders: true}, u)
}
