package storage

import (
	"errors"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// GuildSettings are the settings of one guild.
type GuildSettings struct {
	Threads  bool          `json:"threads"`             // play each game in a thread of its own
	MoveTime time.Duration `json:"move_time,omitempty"` // default time for a move
	Hints    bool          `json:"hints"`               // players may ask for the computer's suggestion (/kulami hint)
}

// UserSettings are the settings of one user, in every guild.
type UserSettings struct {
	DMReminders bool `json:"dm_reminders"` // send reminders as direct messages
}

// GuildSettings returns the settings of the guild: Options.GuildDefaults
// until the guild changes them.
func (s *Store) GuildSettings(guildID string) (GuildSettings, error) {
	return readSettings(s, bucketGuilds, guildID, s.opt.GuildDefaults)
}

// UpdateGuildSettings changes the settings of the guild in one
// transaction: fn changes the current settings (see GuildSettings), and
// nothing is written if it returns an error. A negative MoveTime is
// refused (ErrInvalid).
func (s *Store) UpdateGuildSettings(guildID string, fn func(*GuildSettings) error) (GuildSettings, error) {
	return updateSettings(s, bucketGuilds, guildID, s.opt.GuildDefaults, func(g *GuildSettings) error {
		if err := fn(g); err != nil {
			return err
		}
		if g.MoveTime < 0 {
			return fmt.Errorf("%w: the move time %v is negative", ErrInvalid, g.MoveTime)
		}
		return nil
	})
}

// UserSettings returns the settings of the user: Options.UserDefaults
// until the user changes them.
func (s *Store) UserSettings(userID string) (UserSettings, error) {
	return readSettings(s, bucketUsers, userID, s.opt.UserDefaults)
}

// UpdateUserSettings changes the settings of the user in one transaction:
// fn changes the current settings (see UserSettings), and nothing is
// written if it returns an error.
func (s *Store) UpdateUserSettings(userID string, fn func(*UserSettings) error) (UserSettings, error) {
	return updateSettings(s, bucketUsers, userID, s.opt.UserDefaults, fn)
}

// getSettings reads the settings of id from bucket, or returns def.
func getSettings[T any](tx *bolt.Tx, bucket []byte, id string, def T) (*T, error) {
	v, err := get[T](tx.Bucket(bucket), []byte(id), "settings")
	if errors.Is(err, ErrNotFound) {
		return &def, nil
	}
	return v, err
}

// readSettings returns the settings of id from bucket, or def.
func readSettings[T any](s *Store, bucket []byte, id string, def T) (T, error) {
	v, err := inTx(s.db.View, func(tx *bolt.Tx) (*T, error) { return getSettings(tx, bucket, id, def) })
	if err != nil {
		return def, fmt.Errorf("%s %s: %w", bucket, id, err)
	}
	return *v, nil
}

// updateSettings changes the settings of id in bucket with fn.
func updateSettings[T any](s *Store, bucket []byte, id string, def T, fn func(*T) error) (T, error) {
	v, err := inTx(s.db.Update, func(tx *bolt.Tx) (*T, error) {
		if err := checkID("ID", id); err != nil {
			return nil, err
		}
		v, err := getSettings(tx, bucket, id, def)
		if err != nil {
			return nil, err
		}
		if err := fn(v); err != nil {
			return nil, err
		}
		return v, put(tx.Bucket(bucket), []byte(id), v)
	})
	if err != nil {
		return def, fmt.Errorf("update %s %s: %w", bucket, id, err)
	}
	return *v, nil
}
