package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"

	bolt "go.etcd.io/bbolt"
)

// The buckets of the puzzles (schema version 10, addPuzzles).
var (
	bucketPuzzles        = []byte("puzzles")         // id → PuzzleEntry
	bucketPuzzleRatings  = []byte("puzzle_ratings")  // rating ‖ id → nothing
	bucketPuzzleProfiles = []byte("puzzle_profiles") // user → PuzzleProfile
	bucketPuzzleRanks    = []byte("puzzle_ranks")    // guild ‖ rank key → user
	bucketPuzzleSizes    = []byte("puzzle_sizes")    // puzzleSizeKey → players on its puzzle leaderboard (8 bytes)
	bucketPuzzleAttempts = []byte("puzzle_attempts") // user ‖ puzzle → PuzzleAttempt
	bucketPuzzleTries    = []byte("puzzle_tries")    // user → PuzzleTry
	bucketDailyPuzzles   = []byte("daily_puzzles")   // day → DailyPuzzle
	bucketDailyPosts     = []byte("daily_posts")     // guild ‖ day → DailyPost

	puzzleBuckets = [][]byte{bucketPuzzles, bucketPuzzleRatings, bucketPuzzleProfiles, bucketPuzzleRanks,
		bucketPuzzleSizes, bucketPuzzleAttempts, bucketPuzzleTries, bucketDailyPuzzles, bucketDailyPosts}
)

// addPuzzles brings a file of schema version 9 to version 10: it creates
// the buckets of the puzzles.
func addPuzzles(tx *bolt.Tx) error {
	for _, b := range puzzleBuckets {
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return err
		}
	}
	return nil
}

// puzzleSetKey is the key in bucketMeta of the hash of the puzzle set
// named name.
func puzzleSetKey(name string) []byte { return []byte("puzzle_set:" + name) }

// puzzleRatingKey returns the key of e in bucketPuzzleRatings.
func puzzleRatingKey(e *PuzzleEntry) []byte {
	return key(nil).u64(orderedFloat(e.Rating.Rating)).str(e.ID())
}

// PuzzleSet implements Tx.
func (t *boltTx) PuzzleSet(name string) (string, error) {
	v := t.tx.Bucket(bucketMeta).Get(puzzleSetKey(name))
	if v == nil {
		return "", ErrNotFound
	}
	return string(v), nil
}

// PutPuzzleSet implements Tx.
func (t *boltTx) PutPuzzleSet(name, hash string) error {
	return t.tx.Bucket(bucketMeta).Put(puzzleSetKey(name), []byte(hash))
}

// Puzzle implements Tx.
func (t *boltTx) Puzzle(id string) (*PuzzleEntry, error) {
	return get[PuzzleEntry](t.tx.Bucket(bucketPuzzles), []byte(id), "puzzle "+id)
}

// PutPuzzle implements Tx.
func (t *boltTx) PutPuzzle(e, old *PuzzleEntry) error {
	if err := checkID("puzzle ID", e.ID()); err != nil {
		return err
	}
	ratings := t.tx.Bucket(bucketPuzzleRatings)
	if old != nil {
		if err := ratings.Delete(puzzleRatingKey(old)); err != nil {
			return err
		}
	}
	if err := ratings.Put(puzzleRatingKey(e), nil); err != nil {
		return err
	}
	return put(t.tx.Bucket(bucketPuzzles), []byte(e.ID()), e)
}

// PuzzlesAround implements Tx: from r's place in the index of ratings,
// the first puzzle not tried upwards and the first downwards.
func (t *boltTx) PuzzlesAround(r float64, user string) (up, down *PuzzleEntry, err error) {
	tried := func(k []byte) bool {
		if user == "" {
			return false
		}
		return t.tx.Bucket(bucketPuzzleAttempts).Get(puzzleAttemptKey(user, string(k[8:len(k)-1]))) != nil
	}
	from := key(nil).u64(orderedFloat(r))
	c := t.tx.Bucket(bucketPuzzleRatings).Cursor()
	var upKey, downKey []byte
	for k, _ := c.Seek(from); k != nil; k, _ = c.Next() {
		if !tried(k) {
			upKey = k
			break
		}
	}
	for k, _ := lastBefore(c, from); k != nil; k, _ = c.Prev() {
		if !tried(k) {
			downKey = k
			break
		}
	}
	if upKey != nil {
		if up, err = t.Puzzle(string(upKey[8 : len(upKey)-1])); err != nil {
			return nil, nil, err
		}
	}
	if downKey != nil {
		if down, err = t.Puzzle(string(downKey[8 : len(downKey)-1])); err != nil {
			return nil, nil, err
		}
	}
	return up, down, nil
}

// PuzzlesRated implements Tx. It reads every puzzle: it is called once a
// day (DailyPuzzle).
func (t *boltTx) PuzzlesRated(lo, hi int) ([]string, error) {
	var ids []string
	err := t.tx.Bucket(bucketPuzzles).ForEach(func(k, v []byte) error {
		var e PuzzleEntry
		if err := decode(v, &e); err != nil {
			return err
		}
		if e.Puzzle.Rating >= lo && e.Puzzle.Rating <= hi {
			ids = append(ids, string(k))
		}
		return nil
	})
	return ids, err
}

// PuzzleProfile implements Tx.
func (t *boltTx) PuzzleProfile(user string) (*PuzzleProfile, error) {
	return get[PuzzleProfile](t.tx.Bucket(bucketPuzzleProfiles), []byte(user), "puzzle profile of "+user)
}

// puzzleRankKey returns the key of p in bucketPuzzleRanks, on the
// leaderboard of guild.
func puzzleRankKey(guild string, p *PuzzleProfile) []byte {
	return append(key(nil).str(guild), p.RankKey()...)
}

// puzzleSizeKey returns the key of the guild's puzzle leaderboard in
// bucketPuzzleSizes: its ID, or, for the leaderboard of the places
// outside the servers (guild ""), a zero byte, which no guild ID holds
// (bbolt refuses an empty key).
func puzzleSizeKey(guild string) []byte {
	if guild == "" {
		return []byte{0}
	}
	return []byte(guild)
}

// PutPuzzleProfile implements Tx.
func (t *boltTx) PutPuzzleProfile(p, old *PuzzleProfile) error {
	if err := checkID("user ID", p.UserID); err != nil {
		return err
	}
	ranks, sizes := t.tx.Bucket(bucketPuzzleRanks), t.tx.Bucket(bucketPuzzleSizes)
	for _, g := range p.Guilds {
		if old != nil && slices.Contains(old.Guilds, g) {
			if err := ranks.Delete(puzzleRankKey(g, old)); err != nil {
				return err
			}
		} else {
			var n uint64
			if v := sizes.Get(puzzleSizeKey(g)); len(v) == 8 {
				n = binary.BigEndian.Uint64(v)
			}
			if err := sizes.Put(puzzleSizeKey(g), binary.BigEndian.AppendUint64(nil, n+1)); err != nil {
				return err
			}
		}
		if err := ranks.Put(puzzleRankKey(g, p), []byte(p.UserID)); err != nil {
			return err
		}
	}
	return put(t.tx.Bucket(bucketPuzzleProfiles), []byte(p.UserID), p)
}

// PuzzleLeaderboard implements Tx.
func (t *boltTx) PuzzleLeaderboard(guild string, from *Mark, before bool, limit int) ([]PuzzleProfile, int, error) {
	prefix := key(nil).str(guild)
	c := t.tx.Bucket(bucketPuzzleRanks).Cursor()
	var ids []string
	switch {
	case from == nil:
		for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix) && len(ids) < limit; k, v = c.Next() {
			ids = append(ids, string(v))
		}
	default:
		p, err := t.PuzzleProfile(from.Player)
		if err != nil {
			return nil, 0, err
		}
		mark := append(prefix[:len(prefix):len(prefix)], from.PuzzleRankKey(p)...)
		if before {
			for k, v := lastBefore(c, mark); k != nil && bytes.HasPrefix(k, prefix) && len(ids) < limit; k, v = c.Prev() {
				ids = append(ids, string(v))
			}
			slices.Reverse(ids)
			break
		}
		k, v := c.Seek(mark)
		if bytes.Equal(k, mark) {
			k, v = c.Next()
		}
		for ; k != nil && bytes.HasPrefix(k, prefix) && len(ids) < limit; k, v = c.Next() {
			ids = append(ids, string(v))
		}
	}
	var total uint64
	if v := t.tx.Bucket(bucketPuzzleSizes).Get(puzzleSizeKey(guild)); len(v) == 8 {
		total = binary.BigEndian.Uint64(v)
	}
	page := make([]PuzzleProfile, 0, len(ids))
	for _, id := range ids {
		p, err := t.PuzzleProfile(id)
		if err != nil {
			return nil, 0, err
		}
		page = append(page, *p)
	}
	return page, int(total), nil
}

// puzzleAttemptKey returns the key of user's attempt at puzzle in
// bucketPuzzleAttempts.
func puzzleAttemptKey(user, puzzle string) []byte { return key(nil).str(user).str(puzzle) }

// PuzzleAttempt implements Tx.
func (t *boltTx) PuzzleAttempt(user, puzzle string) (*PuzzleAttempt, error) {
	return get[PuzzleAttempt](t.tx.Bucket(bucketPuzzleAttempts), puzzleAttemptKey(user, puzzle), "attempt at puzzle "+puzzle)
}

// PutPuzzleAttempt implements Tx.
func (t *boltTx) PutPuzzleAttempt(a *PuzzleAttempt) error {
	return put(t.tx.Bucket(bucketPuzzleAttempts), puzzleAttemptKey(a.UserID, a.PuzzleID), a)
}

// PuzzleTry implements Tx.
func (t *boltTx) PuzzleTry(user string) (*PuzzleTry, error) {
	return get[PuzzleTry](t.tx.Bucket(bucketPuzzleTries), []byte(user), "puzzle under way of "+user)
}

// PutPuzzleTry implements Tx.
func (t *boltTx) PutPuzzleTry(user string, p *PuzzleTry) error {
	if p == nil {
		return t.tx.Bucket(bucketPuzzleTries).Delete([]byte(user))
	}
	return put(t.tx.Bucket(bucketPuzzleTries), []byte(user), p)
}

// DailyPuzzle implements Tx.
func (t *boltTx) DailyPuzzle(day string) (*DailyPuzzle, error) {
	return get[DailyPuzzle](t.tx.Bucket(bucketDailyPuzzles), []byte(day), "daily puzzle of "+day)
}

// PutDailyPuzzle implements Tx.
func (t *boltTx) PutDailyPuzzle(d *DailyPuzzle) error {
	return put(t.tx.Bucket(bucketDailyPuzzles), []byte(d.Day), d)
}

// dailyPostKey returns the key of a daily post in bucketDailyPosts.
func dailyPostKey(guild, day string) []byte { return key(nil).str(guild).str(day) }

// DailyPost implements Tx.
func (t *boltTx) DailyPost(guild, day string) (*DailyPost, error) {
	return get[DailyPost](t.tx.Bucket(bucketDailyPosts), dailyPostKey(guild, day), "daily post of "+day)
}

// PutDailyPost implements Tx.
func (t *boltTx) PutDailyPost(p *DailyPost) error {
	return put(t.tx.Bucket(bucketDailyPosts), dailyPostKey(p.GuildID, p.Day), p)
}

// puzzleRecords calls fn with every record of the puzzles (Records), one
// bucket after the other.
func (t *boltTx) puzzleRecords(fn func(Record) error) error {
	c := t.tx.Bucket(bucketMeta).Cursor()
	prefix := puzzleSetKey("")
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if err := fn(PuzzleSetRecords.Record(&PuzzleSetRecord{Name: string(k[len(prefix):]), Hash: string(v)})); err != nil {
			return err
		}
	}
	for _, each := range []struct {
		bucket []byte
		fn     func(v []byte) error
	}{
		{bucketPuzzles, decodedRecord(PuzzleRecords, fn)},
		{bucketPuzzleProfiles, decodedRecord(PuzzleProfileRecords, fn)},
		{bucketPuzzleAttempts, decodedRecord(PuzzleAttemptRecords, fn)},
		{bucketPuzzleTries, decodedRecord(PuzzleTryRecords, fn)},
		{bucketDailyPuzzles, decodedRecord(DailyPuzzleRecords, fn)},
		{bucketDailyPosts, decodedRecord(DailyPostRecords, fn)},
	} {
		if err := t.tx.Bucket(each.bucket).ForEach(func(_, v []byte) error { return each.fn(v) }); err != nil {
			return fmt.Errorf("%s: %w", each.bucket, err)
		}
	}
	return nil
}

// decodedRecord returns a function that decodes a stored value of kind k
// and calls fn with it.
func decodedRecord[T any](k *RecordKind[T], fn func(Record) error) func(v []byte) error {
	return func(v []byte) error {
		x := new(T)
		if err := decode(v, x); err != nil {
			return err
		}
		return fn(k.Record(x))
	}
}
