package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// migrations are the steps that bring a file from one schema to the next:
// migrations[i] turns a file of schema version i+1 into one of version
// i+2. Each step may rely on every bucket of its own version existing.
// Open runs the steps a file needs, and records the new version, in the
// transaction that opens it: a failed migration leaves the file as it was.
var migrations = []func(tx *bolt.Tx) error{
	clearFinishedClocks, // 1 → 2
	addReviews,          // 2 → 3
	addPendingReviews,   // 3 → 4
	addSeasons,          // 4 → 5
	addTournaments,      // 5 → 6
	addVacations,        // 6 → 7
	addIndexes,          // 7 → 8
	addSeasonSizes,      // 8 → 9
	addPuzzles,          // 9 → 10
	addRankBands,        // 10 → 11
	addPlayerGames,      // 11 → 12
	addRoleLinks,        // 12 → 13
}

// clearFinishedClocks brings a file of schema version 1 to version 2: the
// releases before engine/game left the clock of the last turn (deadline,
// reminders) and a standing draw offer in a game that ended by
// resignation, timeout, abort or agreement. A finished game has neither
// (game.Restore refuses them), so the step clears them in every finished
// game. The stored format of values is unchanged.
func clearFinishedClocks(tx *bolt.Tx) error {
	b := tx.Bucket(bucketFinished)
	type change struct {
		k []byte
		f *finishedRecord
	}
	var changes []change
	err := b.ForEach(func(k, v []byte) error {
		f := new(finishedRecord)
		if err := decode(v, f); err != nil {
			return fmt.Errorf("finished game %q: %w", k, err)
		}
		if f.Deadline.IsZero() && f.Reminders == 0 && f.DrawOffer == nil && f.WakeAt.IsZero() {
			return nil
		}
		f.Deadline, f.Reminders, f.DrawOffer, f.WakeAt = time.Time{}, 0, nil, time.Time{}
		changes = append(changes, change{bytes.Clone(k), f})
		return nil
	})
	if err != nil {
		return err
	}
	for _, c := range changes { // a bucket may not change while ForEach runs
		if err := put(b, c.k, c.f); err != nil {
			return err
		}
	}
	return nil
}

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

// bucketPending holds the reviews asked for and not made yet (storage's
// PendingReview): guild ‖ game ID → PendingReview. Schema version 4 added
// it (addPendingReviews).
var bucketPending = []byte("pending_reviews")

// addPendingReviews brings a file of schema version 3 to version 4: it
// creates the bucket of pending reviews. No stored value changes.
func addPendingReviews(tx *bolt.Tx) error {
	_, err := tx.CreateBucketIfNotExists(bucketPending)
	return err
}

// bucketSeasonProfiles and bucketSeasonRanks hold the ladders of the
// seasons, as bucketProfiles and bucketRanks hold the all-time ones:
// guild ‖ season ‖ ladder ‖ player → Profile, and guild ‖ season ‖
// ladder ‖ rank order ‖ player → player. Schema version 5 added them
// (addSeasons).
var (
	bucketSeasonProfiles = []byte("season_profiles")
	bucketSeasonRanks    = []byte("season_ranks")
)

// keySeasonsPending is the key, in bucketMeta, of the mark addSeasons
// leaves for Open: the seasons' ladders are to be filled from the
// finished games (Core.RebuildSeasons), after the migration commits.
var keySeasonsPending = []byte("seasons_pending")

// addSeasons brings a file of schema version 4 to version 5: it creates
// the buckets of the seasons' ladders, and marks them to be filled from
// the finished games (see boltSeasonsMark). No stored value
// changes.
func addSeasons(tx *bolt.Tx) error {
	for _, b := range [][]byte{bucketSeasonProfiles, bucketSeasonRanks} {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketMeta).Put(keySeasonsPending, []byte{1})
}

// boltSeasonsMark is the mark of RebuildSeasons in a bbolt file: the key
// keySeasonsPending that addSeasons puts, for Open to fill the seasons'
// ladders after the migration commits (the steps need the rating period,
// which only Open knows).
func boltSeasonsMark(t Tx, drop bool) (bool, error) {
	meta := t.(*boltTx).tx.Bucket(bucketMeta)
	switch {
	case meta.Get(keySeasonsPending) == nil:
		return false, nil
	case drop:
		return true, meta.Delete(keySeasonsPending)
	}
	return true, nil
}

// bucketTournaments holds the tournaments of guilds (storage's
// Tournament): guild ‖ tournament ID → Tournament; its sequence gives
// their IDs. Schema version 6 added it (addTournaments).
var bucketTournaments = []byte("tournaments")

// addTournaments brings a file of schema version 5 to version 6: it
// creates the bucket of tournaments. No stored value changes.
func addTournaments(tx *bolt.Tx) error {
	_, err := tx.CreateBucketIfNotExists(bucketTournaments)
	return err
}

// bucketVacations holds the players' vacation banks (storage's
// Vacation): user → Vacation and the wake it is indexed under (in
// bucketWake, as WakeVacation). Schema version 7 added it (addVacations).
var bucketVacations = []byte("vacations")

// addVacations brings a file of schema version 6 to version 7: it
// creates the bucket of vacations. No stored value changes.
func addVacations(tx *bolt.Tx) error {
	_, err := tx.CreateBucketIfNotExists(bucketVacations)
	return err
}

// bucketRoleLinks holds the users' links to Discord's Linked Roles
// (RoleLink): user → RoleLink. Schema version 13 added it (addRoleLinks).
var bucketRoleLinks = []byte("role_links")

// addRoleLinks brings a file of schema version 12 to version 13: it
// creates the bucket of role links. No stored value changes.
func addRoleLinks(tx *bolt.Tx) error {
	_, err := tx.CreateBucketIfNotExists(bucketRoleLinks)
	return err
}

// schemaVersion returns the schema version this build writes.
func schemaVersion() uint64 { return uint64(len(migrations)) + 1 }

// prepare readies the file for use in transaction tx: it creates the
// buckets of a new file, migrates an older one and refuses a newer one.
func prepare(tx *bolt.Tx) error {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		if k, _ := tx.Cursor().First(); k != nil {
			return fmt.Errorf("%w: it holds data of another program (bucket %q) and no kulami schema version", ErrNotKulami, k)
		}
		return createBuckets(tx)
	}
	raw := meta.Get(keySchema)
	if len(raw) != 8 {
		return fmt.Errorf("%w: its schema version %q cannot be read", ErrNotKulami, raw)
	}
	have, want := binary.BigEndian.Uint64(raw), schemaVersion()
	switch {
	case have > want:
		return fmt.Errorf("%w: the file has schema version %d, this kulamibot reads versions up to %d; upgrade kulamibot to open it", ErrSchemaTooNew, have, want)
	case have == 0:
		return fmt.Errorf("%w: its schema version is 0", ErrNotKulami)
	}
	for v := have; v < want; v++ {
		if err := migrations[v-1](tx); err != nil {
			return fmt.Errorf("migrate schema version %d to %d: %w", v, v+1, err)
		}
	}
	if have == want {
		return nil
	}
	return createBuckets(tx)
}

// createBuckets creates the buckets that do not exist yet and records the
// schema version.
func createBuckets(tx *bolt.Tx) error {
	for _, name := range allBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return fmt.Errorf("create bucket %s: %w", name, err)
		}
	}
	return tx.Bucket(bucketMeta).Put(keySchema, binary.BigEndian.AppendUint64(nil, schemaVersion()))
}
