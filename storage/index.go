package storage

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"log/slog"

	"github.com/kulami/kulami/engine/game"
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
	// bucketSeasonSizes: guild ‖ season ‖ ladder → the number of
	// profiles on the ladder of the season (8 bytes, big-endian). Schema
	// version 9 added it (addSeasonSizes).
	bucketSeasonSizes = []byte("season_ladder_sizes")
	// bucketPlayerGames: user ‖ channel → the ID (8 bytes, big-endian)
	// of the active game of the channel, under each person who plays it
	// (PlayerUsers), so that PlayerGames reads a player's games in
	// channel order without reading anyone else's. Schema version 12
	// added it (addPlayerGames).
	bucketPlayerGames = []byte("player_games")
	// bucketGuildGameCounts: guild → the number of its entries in
	// bucketGuildGames (8 bytes, big-endian), so that GuildGames counts
	// a guild's active games without walking them. Schema version 12
	// added it (addPlayerGames).
	bucketGuildGameCounts = []byte("guild_game_counts")

	indexBuckets = [][]byte{bucketLastFinished, bucketGuildGames, bucketHeadToHead, bucketLadderSizes, bucketSeasonSizes,
		bucketPlayerGames, bucketGuildGameCounts}
)

// place is what an index needs of a stored game (active or finished):
// read without replaying its moves.
type place struct {
	ID        uint64         `json:"id"`
	GuildID   string         `json:"guild"`
	ChannelID string         `json:"channel"`
	Players   [2]game.Player `json:"players"`
}

// guildGameKey returns the key of an active game in bucketGuildGames.
func guildGameKey(guild string, id uint64) []byte { return key(nil).str(guild).u64(id) }

// guildCountKey returns the key of a guild in bucketGuildGameCounts.
func guildCountKey(guild string) []byte { return key(nil).str(guild) }

// playerGameKey returns the key of the active game of channel in
// bucketPlayerGames under user, who plays it.
func playerGameKey(user, channel string) []byte { return key(nil).str(user).str(channel) }

// lastFinishedKey returns the key of a channel in bucketLastFinished.
func lastFinishedKey(guild, channel string) []byte { return key(nil).str(guild).str(channel) }

// headToHeadKey returns the key of a pair in bucketHeadToHead.
func headToHeadKey(guild, player, opponent string) []byte {
	return key(nil).str(guild).str(player).str(opponent)
}

// indexGame indexes the active game at p in its guild (counted there if
// its entry is new) and under its players; a game whose entries are
// there already (every move) writes nothing.
func indexGame(tx *bolt.Tx, p place) error {
	if err := indexPlayers(tx, p); err != nil {
		return err
	}
	b, k := tx.Bucket(bucketGuildGames), guildGameKey(p.GuildID, p.ID)
	old := b.Get(k)
	if bytes.Equal(old, []byte(p.ChannelID)) {
		return nil
	}
	if old == nil { // else the game's entry moves to its new channel
		if err := countGuildGames(tx, p.GuildID, 1); err != nil {
			return err
		}
	}
	return b.Put(k, []byte(p.ChannelID))
}

// indexPlayers indexes the active game at p under each person who plays
// it.
func indexPlayers(tx *bolt.Tx, p place) error {
	b, id := tx.Bucket(bucketPlayerGames), binary.BigEndian.AppendUint64(nil, p.ID)
	for _, user := range PlayerUsers(p.Players) {
		if k := playerGameKey(user, p.ChannelID); user != "" && !bytes.Equal(b.Get(k), id) {
			if err := b.Put(k, id); err != nil {
				return err
			}
		}
	}
	return nil
}

// countGuildGames adds d to the count of the guild's active games
// (countBand: a count dropped when it comes to zero).
func countGuildGames(tx *bolt.Tx, guild string, d int64) error {
	return countBand(tx.Bucket(bucketGuildGameCounts), guildCountKey(guild), d)
}

// guildGameCount returns the number of the guild's active games.
func guildGameCount(tx *bolt.Tx, guild string) int {
	if v := tx.Bucket(bucketGuildGameCounts).Get(guildCountKey(guild)); len(v) == 8 {
		return int(binary.BigEndian.Uint64(v))
	}
	return 0
}

// unindexGame drops the active game stored as v, of channel, from the
// indexes of its players and of its guild: the players' entries are the
// channel's, and go with its game; the guild's goes unless it is another
// channel's (a game moved into a thread may be stored there before its
// old channel is deleted), and is then no longer counted.
func unindexGame(tx *bolt.Tx, channel string, v []byte) error {
	var p place
	if err := decode(v, &p); err != nil {
		return fmt.Errorf("game of channel %s: %w", channel, err)
	}
	for _, user := range PlayerUsers(p.Players) {
		if user == "" {
			continue
		}
		if err := tx.Bucket(bucketPlayerGames).Delete(playerGameKey(user, channel)); err != nil {
			return err
		}
	}
	b, k := tx.Bucket(bucketGuildGames), guildGameKey(p.GuildID, p.ID)
	if !bytes.Equal(b.Get(k), []byte(channel)) {
		return nil
	}
	if err := countGuildGames(tx, p.GuildID, -1); err != nil {
		return err
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

// countProfile adds one to the size of the ladder whose key is k (see
// sizesBucket).
func countProfile(tx *bolt.Tx, k []byte) error {
	return tx.Bucket(sizesBucket(k)).Put(k, binary.BigEndian.AppendUint64(nil, ladderSize(tx, k)+1))
}

// ladderSize returns the size of the ladder whose key (ladderKey) is k.
func ladderSize(tx *bolt.Tx, k []byte) uint64 {
	if v := tx.Bucket(sizesBucket(k)).Get(k); len(v) == 8 {
		return binary.BigEndian.Uint64(v)
	}
	return 0
}

// sizesBucket returns the bucket that keeps the size of the ladder whose
// key (ladderKey) is k: bucketLadderSizes for the all-time ladders (the
// guild, its zero byte and the ladder), bucketSeasonSizes for a season's.
func sizesBucket(k []byte) []byte {
	if guild, _, _ := bytes.Cut(k, []byte{0}); len(k) > len(guild)+2 {
		return bucketSeasonSizes
	}
	return bucketLadderSizes
}

// addSeasonSizes brings a file of schema version 8 to version 9: it
// creates the bucket of the seasons' ladder sizes and, unless a build of
// the indexes is under way already (from addIndexes, which covers it),
// marks it to be counted from the seasons' profiles.
func addSeasonSizes(tx *bolt.Tx) error {
	return addIndexStage(tx, seasonSizesStage, bucketSeasonSizes)
}

// addPlayerGames brings a file of schema version 11 to version 12: it
// creates the buckets of the players' active games and of the guilds'
// counts of active games and marks them to be filled from the active
// games, in the build of the indexes after the migration commits (its
// last stage, playerGamesStage, which a build under way comes to).
func addPlayerGames(tx *bolt.Tx) error {
	return addIndexStage(tx, playerGamesStage, bucketPlayerGames, bucketGuildGameCounts)
}

// addIndexStage creates the buckets of an index that a schema step adds
// and marks them to be filled from the build's stage on, unless a build
// is under way already: it comes to that stage (each such stage starts
// from empty buckets).
func addIndexStage(tx *bolt.Tx, stage byte, buckets ...[]byte) error {
	for _, name := range buckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	meta := tx.Bucket(bucketMeta)
	if meta.Get(keyIndexesPending) != nil {
		return nil
	}
	return meta.Put(keyIndexesPending, []byte{stage})
}

// addIndexes brings a file of schema version 7 to version 8: it creates
// the index buckets and marks them to be built from the active games, the
// finished games, the profiles and the histories (see
// buildPendingIndexes), which Open does after the migration commits, in
// batches. It needs only the buckets of schema version 1, so that it
// works after any other step.
func addIndexes(tx *bolt.Tx) error {
	for _, name := range indexBuckets {
		if _, err := tx.CreateBucketIfNotExists(name); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketMeta).Put(keyIndexesPending, []byte{0})
}

// keyIndexesPending is the key, in bucketMeta, of how far the build of
// the indexes has come: the number of indexSources done (one byte), and
// the last key read of the next one's bucket (none: from its first).
var keyIndexesPending = []byte("indexes_pending")

// indexBatch is how many stored records a transaction of the build of
// the indexes reads: few enough that a transaction's changes, held in
// memory until its commit, and the work a crash loses stay small.
var indexBatch = 2000

// indexLogEvery is how many records the build reads between two lines of
// its log.
const indexLogEvery = 100_000

// indexSources are the buckets the indexes are built from, in the order
// of the build, with what each record adds.
var indexSources = []struct {
	bucket []byte
	add    func(tx *bolt.Tx, k, v []byte) error
}{
	{bucketGames, func(tx *bolt.Tx, k, v []byte) error {
		var p place
		if err := decode(v, &p); err != nil {
			return fmt.Errorf("game of channel %s: %w", k, err)
		}
		return indexGame(tx, p)
	}},
	{bucketFinished, func(tx *bolt.Tx, k, v []byte) error {
		var p place
		if err := decode(v, &p); err != nil {
			return fmt.Errorf("finished game %q: %w", k, err)
		}
		return indexFinished(tx, p)
	}},
	{bucketProfiles, func(tx *bolt.Tx, k, _ []byte) error {
		guild, _, _ := bytes.Cut(k, []byte{0})
		return countProfile(tx, k[:len(guild)+2]) // guild, its zero byte, the ladder
	}},
	{bucketHistory, func(tx *bolt.Tx, k, v []byte) error {
		e := new(HistoryEntry)
		if err := decode(v, e); err != nil {
			return fmt.Errorf("history entry %q: %w", k, err)
		}
		guild, player := historyOwner(k)
		return countHistory(tx, guild, player, e, 1)
	}},
	seasonSizesStage: {bucketSeasonProfiles, func(tx *bolt.Tx, k, _ []byte) error {
		guild, _, _ := bytes.Cut(k, []byte{0})
		return countProfile(tx, k[:len(guild)+10]) // guild, its zero byte, the season, the ladder
	}},
	bandsStage: {bucketRanks, func(tx *bolt.Tx, k, _ []byte) error {
		guild, _, _ := bytes.Cut(k, []byte{0})
		return countBand(tx.Bucket(bucketRankBands), k[:len(guild)+2+RankBandLen], 1) // the ladder key, the band
	}},
	{bucketSeasonRanks, func(tx *bolt.Tx, k, _ []byte) error {
		guild, _, _ := bytes.Cut(k, []byte{0})
		return countBand(tx.Bucket(bucketSeasonRankBands), k[:len(guild)+10+RankBandLen], 1)
	}},
	playerGamesStage: {bucketGames, func(tx *bolt.Tx, k, v []byte) error {
		var p place
		if err := decode(v, &p); err != nil {
			return fmt.Errorf("game of channel %s: %w", k, err)
		}
		if err := indexPlayers(tx, p); err != nil {
			return err
		}
		return countGuildGames(tx, p.GuildID, 1)
	}},
}

// seasonSizesStage is the stage of the build that counts the seasons'
// ladders. It starts from an empty bucketSeasonSizes: the seasons' ladders
// that a migration filled before the build (rebuildPendingSeasons) were
// counted as they were written, and are counted again here.
const seasonSizesStage = 4

// bandsStage is the first stage of the build that counts the ladders'
// bands (RankBand), from the all-time ranks, then the seasons'. It starts
// from empty buckets, as seasonSizesStage does, for the same reason.
const bandsStage = 5

// playerGamesStage is the stage of the build that indexes the active
// games under their players and counts each guild's. It starts from empty
// buckets, as seasonSizesStage does: the first stage (indexGame) fills
// them too, in a build from addIndexes.
const playerGamesStage = 7

// buildPendingIndexes builds the indexes that addIndexes marked to be
// built, indexBatch records a transaction, each moving the mark in its
// commit: a build stopped by a crash goes on from its last commit at the
// next Open. It logs its progress to log: when it starts, every
// indexLogEvery records and when it is done.
func buildPendingIndexes(db *bolt.DB, log *slog.Logger) error {
	read := 0
	for {
		var done bool
		var stage []byte
		var n int
		err := db.Update(func(tx *bolt.Tx) error {
			var err error
			stage, n, done, err = buildIndexBatch(tx)
			return err
		})
		if err != nil {
			return fmt.Errorf("build the indexes: %w", err)
		}
		if before := read; read+n > 0 && (done || (read+n)/indexLogEvery > before/indexLogEvery || read == 0) {
			log.Info("storage upgrade: building the indexes", "bucket", string(stage), "records", read+n, "done", done)
		}
		read += n
		if done {
			return nil
		}
	}
}

// buildIndexBatch adds to the indexes up to indexBatch records from where
// the mark of the build says, and moves the mark (dropping it at the
// end). It returns the bucket it read, how many records it added and
// whether the build is done.
func buildIndexBatch(tx *bolt.Tx) (bucket []byte, n int, done bool, err error) {
	meta := tx.Bucket(bucketMeta)
	mark := meta.Get(keyIndexesPending)
	if len(mark) == 0 || int(mark[0]) >= len(indexSources) {
		return nil, 0, true, meta.Delete(keyIndexesPending)
	}
	stage, after := int(mark[0]), mark[1:]
	if len(after) == 0 {
		var empty [][]byte
		switch stage {
		case seasonSizesStage:
			empty = [][]byte{bucketSeasonSizes}
		case bandsStage:
			empty = [][]byte{bucketRankBands, bucketSeasonRankBands}
		case playerGamesStage:
			empty = [][]byte{bucketPlayerGames, bucketGuildGameCounts}
		}
		for _, name := range empty {
			if err := tx.DeleteBucket(name); err != nil {
				return nil, 0, false, err
			}
			if _, err := tx.CreateBucket(name); err != nil {
				return nil, 0, false, err
			}
		}
	}
	src := indexSources[stage]
	c := tx.Bucket(src.bucket).Cursor()
	k, v := c.First()
	if len(after) > 0 {
		if k, v = c.Seek(after); bytes.Equal(k, after) {
			k, v = c.Next()
		}
	}
	var last []byte
	for ; k != nil && n < indexBatch; k, v = c.Next() {
		if err := src.add(tx, k, v); err != nil {
			return nil, 0, false, fmt.Errorf("index %s: %w", src.bucket, err)
		}
		last, n = k, n+1
	}
	next := []byte{byte(stage)}
	if k == nil {
		next[0]++ // this bucket is done
	} else {
		next = append(next, last...)
	}
	return src.bucket, n, false, meta.Put(keyIndexesPending, next)
}
