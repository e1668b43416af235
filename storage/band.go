package storage

import (
	"bytes"
	"encoding/binary"

	bolt "go.etcd.io/bbolt"
)

// RankBandLen is how many leading bytes of a rank key (Profile.RankKey)
// name its band: the top 24 bits of the rating's order, a band a quarter
// of a point wide for ratings from 1024 to 2048. Both backends keep the
// number of profiles in each band of each ladder in the commit that puts
// a profile, so that a leaderboard page far down a ladder is found by
// adding up the bands before it (a few thousand at most, however long the
// ladder) and skipping within one band, not by skipping every rank before
// it.
const RankBandLen = 3

// RankBand returns the band of a rank key (Profile.RankKey).
func RankBand(rankKey []byte) []byte { return rankKey[:RankBandLen] }

// The bands of the bbolt file's ladders: ladder key (ladderKey) ‖ band →
// the number of profiles of the ladder in the band (8 bytes, big-endian),
// the all-time ladders' and the seasons' apart, as their ranks are.
// Schema version 11 added them (addRankBands).
var (
	bucketRankBands       = []byte("rank_bands")
	bucketSeasonRankBands = []byte("season_rank_bands")
)

// bandsBucket returns the bucket of the bands of the ladders of the season
// (zero: all-time).
func bandsBucket(tx *bolt.Tx, season Season) *bolt.Bucket {
	if season != 0 {
		return tx.Bucket(bucketSeasonRankBands)
	}
	return tx.Bucket(bucketRankBands)
}

// countBand adds d to the count of the band whose key is k, in b, dropping
// a band that is left empty.
func countBand(b *bolt.Bucket, k []byte, d int64) error {
	var n int64
	if v := b.Get(k); len(v) == 8 {
		n = int64(binary.BigEndian.Uint64(v))
	}
	if n += d; n <= 0 {
		return b.Delete(k)
	}
	return b.Put(k, binary.BigEndian.AppendUint64(nil, uint64(n)))
}

// moveBand counts p, whose stored version is old (nil for a new profile),
// in its band, and no longer in old's if that was another.
func moveBand(tx *bolt.Tx, p, old *Profile) error {
	b := bandsBucket(tx, p.Season)
	prefix := ladderKey(p.GuildID, p.Season, p.Ladder)
	band := append(prefix[:len(prefix):len(prefix)], RankBand(p.RankKey())...)
	if old != nil {
		was := append(prefix[:len(prefix):len(prefix)], RankBand(old.RankKey())...)
		if bytes.Equal(was, band) {
			return nil
		}
		if err := countBand(b, was, -1); err != nil {
			return err
		}
	}
	return countBand(b, band, 1)
}

// bandStart returns where the rank at offset of the ladder whose key
// (ladderKey) is prefix is: the first rank key of its band (with the
// ladder key), and how many ranks of the band come before it. It adds up
// the bands in rank order; nil if the ladder has offset ranks or fewer.
func bandStart(b *bolt.Bucket, prefix []byte, offset int) ([]byte, int) {
	c := b.Cursor()
	sum := 0
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		if len(v) != 8 {
			continue
		}
		n := int(binary.BigEndian.Uint64(v))
		if sum+n > offset {
			return bytes.Clone(k), offset - sum
		}
		sum += n
	}
	return nil, 0
}

// addRankBands brings a file of schema version 10 to version 11: it
// creates the buckets of the ladders' bands and marks them to be counted
// from the ranks, in the build of the indexes after the migration commits
// (the bands' stages; a build under way already comes to them).
func addRankBands(tx *bolt.Tx) error {
	return addIndexStage(tx, bandsStage, bucketRankBands, bucketSeasonRankBands)
}
