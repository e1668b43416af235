package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The secondary indexes of the bbolt file, which its writes keep in the
// same transaction as the values they index, so that the reads a player
// makes stay O(log n) or O(page) however many games are stored. Schema
// version 5 added them (addIndexes), built from the stored values.
var (
	// bucketLastFinished: guild ‖ channel → the highest ID (8 bytes,
	// big-endian) of the guild's finished games played in the channel.
	bucketLastFinished = []byte("last_finished")
	// bucketGuildGames: guild ‖ game ID → channel, for the active games.
	bucketGuildGames = []byte("guild_games")
	// bucketHeadToHead: guild ‖ player ‖ opponent → the Tally of player
	// against opponent (ProfileIDs), counted from player's history.
	bucketHeadToHead = []byte("head_to_head")
	// bucketLadderSizes: guild ‖ ladder → the number of profiles on the
	// ladder (8 bytes, big-endian).
	bucketLadderSizes = []byte("ladder_sizes")

	indexBuckets = [][]byte{bucketLastFinished, bucketGuildGames, bucketHeadToHead, bucketLadderSizes}
)

// place is what an index needs of a stored game (active or finished):
// read without replaying its moves.
type place struct {
	ID        uint64 `json:"id"`
	GuildID   string `json:"guild"`
	ChannelID string `json:"channel"`
}

// guildGameKey returns the key of an active game in bucketGuildGames.
func guildGameKey(guild string, id uint64) []byte { return key(nil).str(guild).u64(id) }

// lastFinishedKey returns the key of a channel in bucketLastFinished.
func lastFinishedKey(guild, channel string) []byte { return key(nil).str(guild).str(channel) }

// headToHeadKey returns the key of a pair in bucketHeadToHead.
func headToHeadKey(guild, player, opponent string) []byte {
	return key(nil).str(guild).str(player).str(opponent)
}

// indexGame indexes the active game at p in its guild; a game whose
// entry is there already (every move) writes nothing.
func indexGame(tx *bolt.Tx, p place) error {
	b, k := tx.Bucket(bucketGuildGames), guildGameKey(p.GuildID, p.ID)
	if bytes.Equal(b.Get(k), []byte(p.ChannelID)) {
		return nil
	}
	return b.Put(k, []byte(p.ChannelID))
}

// unindexGame drops the active game stored as v, of channel, from the
// index of its guild: unless the entry is another channel's (a game moved
// into a thread is stored there before its old channel is deleted).
func unindexGame(tx *bolt.Tx, channel string, v []byte) error {
	var p place
	if err := decode(v, &p); err != nil {
		return fmt.Errorf("game of channel %s: %w", channel, err)
	}
	b, k := tx.Bucket(bucketGuildGames), guildGameKey(p.GuildID, p.ID)
	if !bytes.Equal(b.Get(k), []byte(channel)) {
		return nil
	}
	return b.Delete(k)
}

// indexFinished notes the finished game at p as its channel's last,
// unless the channel has a later one.
func indexFinished(tx *bolt.Tx, p place) error {
	b, k := tx.Bucket(bucketLastFinished), lastFinishedKey(p.GuildID, p.ChannelID)
	if v := b.Get(k); len(v) == 8 && binary.BigEndian.Uint64(v) >= p.ID {
		return nil
	}
	return b.Put(k, binary.BigEndian.AppendUint64(nil, p.ID))
}

// countHistory adds the history entry e of player (in guild) to the tally
// against its opponent, or takes it away if sign is -1 (an entry that is
// replaced).
func countHistory(tx *bolt.Tx, guild, player string, e *HistoryEntry, sign int) error {
	var d Tally
	if d.Add(e.Outcome); d.Games() == 0 {
		return nil // an aborted game counts for nobody
	}
	b, k := tx.Bucket(bucketHeadToHead), headToHeadKey(guild, player, ProfileID(e.Opponent))
	var t Tally
	if v := b.Get(k); v != nil {
		if err := decode(v, &t); err != nil {
			return fmt.Errorf("head-to-head %q: %w", k, err)
		}
	}
	t.Wins, t.Losses, t.Draws = t.Wins+sign*d.Wins, t.Losses+sign*d.Losses, t.Draws+sign*d.Draws
	if t.Games() == 0 {
		return b.Delete(k)
	}
	return put(b, k, t)
}

// countProfile adds one to the size of the ladder whose key is k.
func countProfile(tx *bolt.Tx, k []byte) error {
	b := tx.Bucket(bucketLadderSizes)
	return b.Put(k, binary.BigEndian.AppendUint64(nil, ladderSize(tx, k)+1))
}

// ladderSize returns the size of the ladder whose key is k.
func ladderSize(tx *bolt.Tx, k []byte) uint64 {
	if v := tx.Bucket(bucketLadderSizes).Get(k); len(v) == 8 {
		return binary.BigEndian.Uint64(v)
	}
	return 0
}

// addIndexes brings a file of schema version 7 to version 8: it creates
// the index buckets and builds them from the active games, the finished
// games and the histories. It needs only the buckets of schema version 1,
// so that it works after any other step.
func addIndexes(tx *bolt.Tx) error {
	for _, name := range indexBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	for _, each := range []struct {
		bucket []byte
		fn     func(k, v []byte) error
	}{
		{bucketGames, func(k, v []byte) error {
			var p place
			if err := decode(v, &p); err != nil {
				return fmt.Errorf("game of channel %s: %w", k, err)
			}
			return indexGame(tx, p)
		}},
		{bucketFinished, func(k, v []byte) error {
			var p place
			if err := decode(v, &p); err != nil {
				return fmt.Errorf("finished game %q: %w", k, err)
			}
			return indexFinished(tx, p)
		}},
		{bucketProfiles, func(k, _ []byte) error {
			guild, _, _ := bytes.Cut(k, []byte{0})
			return countProfile(tx, k[:len(guild)+2]) // guild, its zero byte, the ladder
		}},
		{bucketHistory, func(k, v []byte) error {
			e := new(HistoryEntry)
			if err := decode(v, e); err != nil {
				return fmt.Errorf("history entry %q: %w", k, err)
			}
			guild, player := historyOwner(k)
			return countHistory(tx, guild, player, e, 1)
		}},
	} {
		if err := tx.Bucket(each.bucket).ForEach(each.fn); err != nil {
			return fmt.Errorf("index %s: %w", each.bucket, err)
		}
	}
	return nil
}
