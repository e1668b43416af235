package storage

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// indexes are the contents of the index buckets as a test reads them.
type indexes struct {
	HeadToHead map[string]Tally    // guild, player, opponent
	Last       map[string]uint64   // guild, channel
	Games      map[string][]uint64 // guild → IDs, newest first
	Sizes      map[string]uint64   // guild, ladder → profiles
	Bands      map[string]uint64   // all-time or season, ladder key, band → profiles
	Players    map[string]uint64   // user, channel → game ID
	GameCounts map[string]uint64   // guild → active games
}

// newIndexes returns empty indexes.
func newIndexes() indexes {
	return indexes{HeadToHead: map[string]Tally{}, Last: map[string]uint64{}, Games: map[string][]uint64{}, Sizes: map[string]uint64{},
		Bands: map[string]uint64{}, Players: map[string]uint64{}, GameCounts: map[string]uint64{}}
}

// wantIndexes works out the indexes of s from its records (Export): what
// the index buckets must hold.
func wantIndexes(tb testing.TB, s *Store) indexes {
	tb.Helper()
	want := newIndexes()
	require.NoError(tb, s.Export(tb.Context(), func(r Record) error {
		if p, ok := ProfileRecords.Of(r); ok {
			want.Sizes[string(ladderKey(p.GuildID, p.Season, p.Ladder))]++
			want.Bands["all-time "+string(ladderKey(p.GuildID, p.Season, p.Ladder))+string(RankBand(p.RankKey()))]++
		}
		if p, ok := SeasonProfileRecords.Of(r); ok {
			want.Sizes[string(ladderKey(p.GuildID, p.Season, p.Ladder))]++
			want.Bands["season "+string(ladderKey(p.GuildID, p.Season, p.Ladder))+string(RankBand(p.RankKey()))]++
		}
		if g, ok := GameRecords.Of(r); ok {
			want.Games[g.GuildID] = append(want.Games[g.GuildID], g.ID)
			want.GameCounts[string(guildCountKey(g.GuildID))]++
			for _, p := range g.Players() {
				if !p.IsAI() {
					want.Players[string(playerGameKey(p.UserID, g.ChannelID))] = g.ID
				}
			}
		}
		if f, ok := FinishedRecords.Of(r); ok {
			k := string(lastFinishedKey(f.GuildID, f.ChannelID))
			want.Last[k] = max(want.Last[k], f.ID)
		}
		if h, ok := HistoryRecords.Of(r); ok && h.Entry.Outcome != game.NoContest {
			k := string(headToHeadKey(h.GuildID, h.PlayerID, ProfileID(h.Entry.Opponent)))
			t := want.HeadToHead[k]
			t.Add(h.Entry.Outcome)
			want.HeadToHead[k] = t
		}
		return nil
	}))
	for _, ids := range want.Games {
		slices.SortFunc(ids, func(a, b uint64) int { return cmp.Compare(b, a) })
	}
	return want
}

// readIndexes reads the index buckets of s.
func readIndexes(tb testing.TB, s *Store) indexes {
	tb.Helper()
	got := newIndexes()
	require.NoError(tb, s.db.View(func(tx *bolt.Tx) error {
		require.NoError(tb, tx.Bucket(bucketHeadToHead).ForEach(func(k, v []byte) error {
			var t Tally
			require.NoError(tb, decode(v, &t))
			got.HeadToHead[string(k)] = t
			return nil
		}))
		require.NoError(tb, tx.Bucket(bucketLastFinished).ForEach(func(k, v []byte) error {
			got.Last[string(k)] = binary.BigEndian.Uint64(v)
			return nil
		}))
		for b, m := range map[string]map[string]uint64{string(bucketLadderSizes): got.Sizes, string(bucketSeasonSizes): got.Sizes,
			string(bucketPlayerGames): got.Players, string(bucketGuildGameCounts): got.GameCounts} {
			require.NoError(tb, tx.Bucket([]byte(b)).ForEach(func(k, v []byte) error {
				m[string(k)] = binary.BigEndian.Uint64(v)
				return nil
			}))
		}
		for name, b := range map[string][]byte{"all-time ": bucketRankBands, "season ": bucketSeasonRankBands} {
			require.NoError(tb, tx.Bucket(b).ForEach(func(k, v []byte) error {
				got.Bands[name+string(k)] = binary.BigEndian.Uint64(v)
				return nil
			}))
		}
		return nil
	}))
	guilds := map[string]bool{}
	for _, g := range activeGames(tb, s) {
		guilds[g.GuildID] = true
	}
	for guild := range guilds {
		games, total, err := s.GuildGames(tb.Context(), guild, 1000)
		require.NoError(tb, err)
		require.Len(tb, games, total)
		for _, g := range games {
			got.Games[guild] = append(got.Games[guild], g.ID)
		}
	}
	return got
}

// dropIndexes turns the file of s back into one of schema version 4:
// without the index buckets.
func dropIndexes(tb testing.TB, s *Store) {
	tb.Helper()
	downgrade(tb, s, 4, indexBuckets...)
}

// downgrade turns the file of s back into one of schema version v,
// without the buckets named (those that later versions added).
func downgrade(tb testing.TB, s *Store, v uint64, buckets ...[]byte) {
	tb.Helper()
	require.NoError(tb, s.db.Update(func(tx *bolt.Tx) error {
		for _, name := range buckets {
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
		}
		return tx.Bucket(bucketMeta).Put(keySchema, binary.BigEndian.AppendUint64(nil, v))
	}))
}

// TestMigrationBuildsIndexes: a file of an earlier schema gets the index
// buckets built from what it stores when it is opened: testdata/v1.db
// (every step from schema 1), and a file of schema 4 whose games went on
// in several channels and guilds, into a thread and to their end.
func TestMigrationBuildsIndexes(t *testing.T) {
	t.Run("v1.db", func(t *testing.T) {
		s := mustOpenPath(t, mustCopyV1(t), Options{})
		want := wantIndexes(t, s)
		require.NotEmpty(t, want.HeadToHead, "the old file holds rated games")
		require.NotEmpty(t, want.Last)
		require.NotEmpty(t, want.Sizes)
		assert.Equal(t, want, readIndexes(t, s))
	})
	t.Run("schema 4", func(t *testing.T) {
		path := t.TempDir() + "/kulami.db"
		s := mustOpenPath(t, path, Options{})
		for i, ch := range []string{"a", "b", "a", "c", "a"} {
			players := [][2]game.Player{{alice, bob}, {bob, alice}, {carol, easyAI}}[i%3]
			mustCreate(t, s, ch, players[0], players[1])
			mustPlay(t, s, ch, "D4")
			mustFinish(t, s, ch, []game.Ending{game.Resigned, game.DrawAgreed, game.Aborted}[i%3], engine.Color(i%2), t0.Add(time.Duration(i)*time.Hour))
		}
		moved := mustCreate(t, s, "parent", alice, carol)
		_, err := s.MoveIntoThread(t.Context(), "parent", moved.ID, "thread")
		require.NoError(t, err)
		other := newGame(t, "elsewhere", bob, carol)
		other.GuildID = "2000"
		require.NoError(t, s.CreateGame(t.Context(), other))
		mustCreate(t, s, "a", alice, bob)
		want := wantIndexes(t, s)
		require.Equal(t, want, readIndexes(t, s), "the writes keep the indexes")
		dropIndexes(t, s)
		require.NoError(t, s.Close())

		s = mustOpenPath(t, path, Options{})
		assert.Equal(t, want, readIndexes(t, s), "the migration builds them as the writes kept them")
		require.NoError(t, checkFile(s))
	})
}

// upgradeFile is the database BenchmarkUpgradeIndexes upgrades: a copy of
// it, without its indexes, each time.
var upgradeFile = flag.String("kulami.upgrade", "", "a database (e.g. kept by BenchmarkYear -kulami.keep) whose upgrade to the indexes BenchmarkUpgradeIndexes times")

// BenchmarkUpgradeIndexes times the opening of a file of schema 4 (the
// file -kulami.upgrade names, without its index buckets): the upgrade
// that fills the seasons' ladders again and builds the indexes and the
// ladders' bands, in batches after the migration commits.
func BenchmarkUpgradeIndexes(b *testing.B) {
	if *upgradeFile == "" {
		b.Skip("no -kulami.upgrade file")
	}
	path := filepath.Join(b.TempDir(), "kulami.db")
	for b.Loop() {
		b.StopTimer()
		data, err := os.ReadFile(*upgradeFile)
		require.NoError(b, err)
		require.NoError(b, os.WriteFile(path, data, 0o600))
		s, err := Open(path, Options{NoSync: true})
		require.NoError(b, err)
		dropIndexes(b, s)
		require.NoError(b, s.Close())
		b.StartTimer()
		s, err = Open(path, Options{})
		require.NoError(b, err)
		require.NoError(b, s.Close())
	}
}

// TestIndexBuildResumes: the build of the indexes commits in batches,
// each moving its mark; a process stopped after any of them (a crash:
// the file as those commits left it) finishes the build at the next Open,
// with the indexes the writes would have kept, and logs its progress.
func TestIndexBuildResumes(t *testing.T) {
	defer func(n int) { indexBatch = n }(indexBatch)
	indexBatch = 2
	for _, batches := range []int{0, 1, 3, 6} {
		t.Run(fmt.Sprintf("after %d batches", batches), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "kulami.db")
			s := mustOpenPath(t, path, Options{})
			for i, ch := range []string{"a", "b", "a", "c", "a", "d"} {
				players := [][2]game.Player{{alice, bob}, {bob, alice}, {carol, easyAI}}[i%3]
				mustCreate(t, s, ch, players[0], players[1])
				mustPlay(t, s, ch, "D4")
				mustFinish(t, s, ch, []game.Ending{game.Resigned, game.DrawAgreed, game.Aborted}[i%3], engine.Color(i%2), t0.Add(time.Duration(i)*time.Hour))
			}
			mustCreate(t, s, "e", alice, carol)
			mustCreate(t, s, "f", bob, carol)
			want := wantIndexes(t, s)
			dropIndexes(t, s)
			require.NoError(t, s.Close())

			db, err := bolt.Open(path, 0o600, nil)
			require.NoError(t, err)
			require.NoError(t, db.Update(prepare))
			for range batches {
				require.NoError(t, db.Update(func(tx *bolt.Tx) error {
					_, _, done, err := buildIndexBatch(tx)
					require.False(t, done, "stopped mid-build")
					return err
				}))
			}
			require.NoError(t, db.View(func(tx *bolt.Tx) error {
				assert.NotNil(t, tx.Bucket(bucketMeta).Get(keyIndexesPending), "the mark of a build under way")
				return nil
			}))
			require.NoError(t, db.Close())

			var log bytes.Buffer
			s = mustOpenPath(t, path, Options{Log: slog.New(slog.NewTextHandler(&log, nil))})
			assert.Equal(t, want, readIndexes(t, s), "built as the writes keep them, no record counted twice")
			require.NoError(t, s.db.View(func(tx *bolt.Tx) error {
				assert.Nil(t, tx.Bucket(bucketMeta).Get(keyIndexesPending), "the mark is gone")
				return nil
			}))
			assert.Contains(t, log.String(), "building the indexes")
			assert.Contains(t, log.String(), "done=true")
			require.NoError(t, checkFile(s))
		})
	}
}

// TestSeasonSizesCounted: a file of schema version 8, whose indexes are
// built but whose seasons' ladders were counted on every read, has their
// sizes counted when it opens, as the writes keep them.
func TestSeasonSizesCounted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kulami.db")
	s := mustOpenPath(t, path, Options{})
	for i := range 4 { // a game a season
		ch := fmt.Sprint("game ", i)
		mustCreate(t, s, ch, []game.Player{alice, bob, carol}[i%3], []game.Player{bob, carol, alice}[i%3])
		mustPlay(t, s, ch, "D4")
		mustFinish(t, s, ch, game.Resigned, engine.Color(i%2), t0.AddDate(0, 4*i, 0))
	}
	want := wantIndexes(t, s)
	require.Len(t, want.Sizes, 1+4, "the all-time ladder and four seasons'")
	downgrade(t, s, 8, bucketSeasonSizes)
	require.NoError(t, s.Close())

	s = mustOpenPath(t, path, Options{})
	assert.Equal(t, want, readIndexes(t, s))
}

// TestRankBandsCounted: a file of schema version 9, whose ladders have no
// bands, has them counted from the ranks when it opens, as the writes keep
// them, and every leaderboard page by number read from them.
func TestRankBandsCounted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "kulami.db")
	s := mustOpenPath(t, path, Options{})
	players := []game.Player{alice, bob, carol, easyAI}
	for i := range 8 {
		ch := fmt.Sprint("game ", i)
		mustCreate(t, s, ch, players[i%4], players[(i+1+i/4)%4])
		mustPlay(t, s, ch, "D4")
		mustFinish(t, s, ch, game.Resigned, engine.Color(i%2), t0.AddDate(0, 2*i, 0))
	}
	want := wantIndexes(t, s)
	require.NotEmpty(t, want.Bands)
	require.Equal(t, want, readIndexes(t, s), "the writes keep the bands")
	downgrade(t, s, 9, bucketRankBands, bucketSeasonRankBands)
	require.NoError(t, s.Close())

	s = mustOpenPath(t, path, Options{})
	assert.Equal(t, want, readIndexes(t, s))
	for _, ladder := range []Ladder{Human, AI} {
		all, total, err := s.Leaderboard(t.Context(), guild, ladder, 0, 100)
		require.NoError(t, err)
		require.Len(t, all, total)
		for offset := range all {
			page, _, err := s.Leaderboard(t.Context(), guild, ladder, offset, 2)
			require.NoError(t, err)
			assert.Equal(t, all[offset:min(offset+2, len(all))], page, "%v from %d", ladder, offset)
		}
	}
}

// TestPlayerGamesIndexed: a file of schema version 11, whose active games
// were found by player and counted by guild by reading them all, has them
// indexed by player and counted when it opens, in batches with its
// progress logged, as the writes keep them: games in several channels and
// guilds, one moved into a thread, some ended, one against the computer.
func TestPlayerGamesIndexed(t *testing.T) {
	defer func(n int) { indexBatch = n }(indexBatch)
	indexBatch = 2
	path := filepath.Join(t.TempDir(), "kulami.db")
	s := mustOpenPath(t, path, Options{})
	for i, ch := range []string{"a", "b", "c", "d", "e"} {
		mustCreate(t, s, ch, []game.Player{alice, bob, carol}[i%3], []game.Player{bob, carol, easyAI}[i%3])
	}
	moved := mustCreate(t, s, "parent", carol, alice)
	_, err := s.MoveIntoThread(t.Context(), "parent", moved.ID, "thread")
	require.NoError(t, err)
	other := newGame(t, "elsewhere", bob, alice)
	other.GuildID = "2000"
	require.NoError(t, s.CreateGame(t.Context(), other))
	mustPlay(t, s, "b", "D4")
	mustFinish(t, s, "b", game.Resigned, engine.Red, t0)
	mustFinish(t, s, "a", game.Aborted, engine.Red, t0)
	want := wantIndexes(t, s)
	require.Equal(t, map[string]uint64{string(guildCountKey(guild)): 4, string(guildCountKey("2000")): 1}, want.GameCounts)
	require.Len(t, want.Players, 2*5-1, "two people a game, but the computer")
	require.Equal(t, want, readIndexes(t, s), "the writes keep the indexes")
	mine := map[string][]*Game{}
	for _, p := range []game.Player{alice, bob, carol, easyAI} {
		mine[p.UserID], err = s.PlayerGames(t.Context(), p.UserID)
		require.NoError(t, err)
	}
	downgrade(t, s, 11, bucketPlayerGames, bucketGuildGameCounts)
	require.NoError(t, s.Close())

	var log bytes.Buffer
	s = mustOpenPath(t, path, Options{Log: slog.New(slog.NewTextHandler(&log, nil))})
	assert.Equal(t, want, readIndexes(t, s))
	for user, games := range mine {
		got, err := s.PlayerGames(t.Context(), user)
		require.NoError(t, err)
		assert.Equal(t, games, got, "user %s", user)
	}
	assert.Contains(t, log.String(), "bucket=games")
	assert.Contains(t, log.String(), "done=true")
	require.NoError(t, checkFile(s))
}
