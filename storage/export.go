package storage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"time"
)

// Record is one stored value, for copying a store into another of any
// backend (Export, Import) and comparing them (Compare). Exactly one
// field is set.
type Record struct {
	Game          *Game      // an active game
	Challenge     *Challenge // an open challenge
	Finished      *FinishedGame
	History       *HistoryRecord
	Profile       *Profile
	GuildSettings *GuildSettingsEntry
	UserSettings  *UserSettingsEntry
	Review        *ReviewRecord
	Alive         *time.Time      // when the bot was last alive
	Sequence      *SequenceRecord // the last ID given
}

// HistoryRecord is an entry of a player's history in a guild.
type HistoryRecord struct {
	GuildID  string
	PlayerID string // the player's ProfileID
	Entry    HistoryEntry
}

// GuildSettingsEntry are the settings a guild changed.
type GuildSettingsEntry struct {
	GuildID  string
	Settings GuildSettings
}

// UserSettingsEntry are the settings a user changed.
type UserSettingsEntry struct {
	UserID   string
	Settings UserSettings
}

// ReviewRecord is the review of a finished game.
type ReviewRecord struct {
	GuildID string
	GameID  uint64
	Data    json.RawMessage
}

// SequenceRecord is the last ID a sequence gave.
type SequenceRecord struct {
	Name  Sequence
	Value uint64
}

// stored returns what r holds as a store keeps it, for Compare.
func (r Record) stored() any {
	switch {
	case r.Game != nil:
		return r.Game.record()
	case r.Finished != nil:
		return r.Finished.stored()
	}
	return r
}

// Kind returns what r holds ("game", "challenge", …) and a key that tells
// it from every other record of its kind.
func (r Record) Kind() (kind, key string) {
	switch {
	case r.Game != nil:
		return "game", r.Game.ChannelID
	case r.Challenge != nil:
		return "challenge", r.Challenge.ChannelID
	case r.Finished != nil:
		return "finished game", r.Finished.GuildID + "/" + strconv.FormatUint(r.Finished.ID, 10)
	case r.History != nil:
		return "history entry", r.History.GuildID + "/" + r.History.PlayerID + "/" + strconv.FormatUint(r.History.Entry.GameID, 10)
	case r.Profile != nil:
		return "profile", r.Profile.GuildID + "/" + r.Profile.Ladder.String() + "/" + r.Profile.UserID
	case r.GuildSettings != nil:
		return "guild settings", r.GuildSettings.GuildID
	case r.UserSettings != nil:
		return "user settings", r.UserSettings.UserID
	case r.Review != nil:
		return "review", r.Review.GuildID + "/" + strconv.FormatUint(r.Review.GameID, 10)
	case r.Alive != nil:
		return "alive", ""
	case r.Sequence != nil:
		return "sequence", r.Sequence.Name.String()
	}
	return "", ""
}

// put writes r in tx, as it was in the store it came from.
func (r Record) put(tx Tx) error {
	switch {
	case r.Game != nil:
		return tx.PutGame(r.Game, time.Time{})
	case r.Challenge != nil:
		return tx.PutChallenge(r.Challenge, time.Time{})
	case r.Finished != nil:
		return tx.PutFinished(r.Finished)
	case r.History != nil:
		return tx.PutHistory(r.History.GuildID, r.History.PlayerID, &r.History.Entry)
	case r.Profile != nil:
		return tx.PutProfile(r.Profile, nil)
	case r.GuildSettings != nil:
		return tx.PutGuildSettings(r.GuildSettings.GuildID, &r.GuildSettings.Settings)
	case r.UserSettings != nil:
		return tx.PutUserSettings(r.UserSettings.UserID, &r.UserSettings.Settings)
	case r.Review != nil:
		return tx.PutReview(r.Review.GuildID, r.Review.GameID, r.Review.Data)
	case r.Alive != nil:
		return tx.PutAlive(*r.Alive)
	case r.Sequence != nil:
		return tx.SetSequence(r.Sequence.Name, r.Sequence.Value)
	}
	return fmt.Errorf("%w: an empty record", ErrInvalid)
}

// Export calls fn with every record of the store, as of one moment (one
// read transaction), and returns fn's first error.
func (s *Core) Export(fn func(Record) error) error {
	if err := s.b.View(func(tx Tx) error { return tx.Records(fn) }); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// Import writes every record that records yields into the store, which
// must be empty (ErrInvalid otherwise), in one transaction. It returns
// the number of records of each kind (see Record.Kind).
func (s *Core) Import(records func(fn func(Record) error) error) (map[string]int, error) {
	counts := map[string]int{}
	err := s.b.Update(func(tx Tx) error {
		clear(counts)
		empty := true
		if err := tx.Records(func(r Record) error {
			kind, key := r.Kind()
			empty = false
			return fmt.Errorf("%w: the store is not empty (it holds the %s %q); import into a new one", ErrInvalid, kind, key)
		}); !empty {
			return err
		}
		return records(func(r Record) error {
			kind, _ := r.Kind()
			counts[kind]++
			return r.put(tx)
		})
	})
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	return counts, nil
}

// Exporter is a store that Compare can read: Core, and so every backend.
type Exporter interface {
	Export(fn func(Record) error) error
}

// Compare compares every record of the stores a and b. It returns the
// number of records of each kind, and an error that names the first
// records that differ (or are in one store only), if any.
func Compare(a, b Exporter) (map[string]int, error) {
	want := map[string][]byte{}
	err := a.Export(func(r Record) error {
		kind, key := r.Kind()
		v, err := json.Marshal(r.stored())
		want[kind+" "+key] = v
		return err
	})
	if err != nil {
		return nil, err
	}
	counts := map[string]int{}
	err = b.Export(func(r Record) error {
		kind, key := r.Kind()
		v, err := json.Marshal(r.stored())
		if err != nil {
			return err
		}
		w, ok := want[kind+" "+key]
		switch {
		case !ok:
			return fmt.Errorf("the %s %q is only in the second store", kind, key)
		case !bytes.Equal(w, v):
			return fmt.Errorf("the %s %q differs:\n%s\n%s", kind, key, w, v)
		}
		delete(want, kind+" "+key)
		counts[kind]++
		return nil
	})
	if err != nil {
		return nil, err
	}
	for k := range want {
		return nil, fmt.Errorf("the %s is only in the first store", k)
	}
	return counts, nil
}
