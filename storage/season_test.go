package storage

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

// seasonProfiles returns every season profile of s, by key.
func seasonProfiles(tb testing.TB, s *Store) map[string]Profile {
	tb.Helper()
	out := map[string]Profile{}
	require.NoError(tb, s.Export(tb.Context(), func(r Record) error {
		if p, ok := SeasonProfileRecords.Of(r); ok {
			_, k := r.Kind()
			out[k] = *p
		}
		return nil
	}))
	return out
}

// TestRebuildSeasonsIsWhatTheGamesCounted: over random games between
// random players (people and the computer, in two guilds, won, lost,
// drawn, aborted), ending at random times over two years, filling the
// seasons from the finished games (what an upgrade does) gives the very
// ladders that counting each game at its end gave.
func TestRebuildSeasonsIsWhatTheGamesCounted(t *testing.T) {
	for seed := range uint64(3) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 7))
			s := mustOpen(t, Options{})
			people := []game.Player{alice, bob, carol, {UserID: "400", Name: "dave"}, {UserID: "500", Name: "erin"}}
			endings := []game.Ending{game.Resigned, game.Resigned, game.DrawAgreed, game.Aborted}
			at := t0
			for i := range 60 {
				red := people[r.IntN(len(people))]
				black := people[r.IntN(len(people))]
				if red.UserID == black.UserID || r.IntN(6) == 0 {
					black = easyAI
				}
				channel := fmt.Sprintf("c%d", i)
				g := newGame(t, channel, red, black)
				if r.IntN(3) == 0 {
					g.GuildID = "other"
				}
				require.NoError(t, s.CreateGame(t.Context(), g))
				ending := endings[r.IntN(len(endings))]
				if ending == game.DrawAgreed && black.IsAI() {
					ending = game.Resigned // the computer takes no draws
				}
				if ending != game.Aborted {
					mustPlay(t, s, channel, "D4", "D7")
				}
				at = at.Add(time.Duration(r.Int64N(int64(30 * 24 * time.Hour))))
				mustFinish(t, s, channel, ending, engine.Color(r.IntN(2)), at)
			}
			live := seasonProfiles(t, s)
			require.NotEmpty(t, live)

			require.NoError(t, s.db.Update(func(tx *bolt.Tx) error {
				for _, b := range [][]byte{bucketSeasonProfiles, bucketSeasonRanks, bucketSeasonSizes, bucketSeasonRankBands} {
					if err := tx.DeleteBucket(b); err != nil {
						return err
					}
				}
				for _, b := range [][]byte{bucketSeasonSizes, bucketSeasonRankBands} { // counted afresh, as the puts go
					if _, err := tx.CreateBucket(b); err != nil {
						return err
					}
				}
				return addSeasons(tx)
			}))
			require.Empty(t, seasonProfiles(t, s))
			// In batches of 3 profiles; with seed 1, a crash after two.
			defer func(n int) { seasonBatch = n }(seasonBatch)
			seasonBatch = 3
			if seed == 1 {
				calls := 0
				crash := func(tx Tx, drop bool) (bool, error) {
					if calls++; calls == 4 { // the View, two batches, then the crash
						return false, errors.New("crash")
					}
					return boltSeasonsMark(tx, drop)
				}
				require.ErrorContains(t, s.RebuildSeasons(t.Context(), crash, slog.New(slog.DiscardHandler)), "crash")
				require.Len(t, seasonProfiles(t, s), 2*3, "two batches written")
			}
			var log bytes.Buffer
			require.NoError(t, s.RebuildSeasons(t.Context(), boltSeasonsMark, slog.New(slog.NewTextHandler(&log, nil))))
			assert.Equal(t, live, seasonProfiles(t, s))
			assert.Contains(t, log.String(), "filling the seasons' ladders from the finished games")
			assert.Contains(t, log.String(), "done=true")
			assert.Equal(t, wantIndexes(t, s), readIndexes(t, s), "the ladders' sizes and bands kept right, a crash or not")
			assert.NoError(t, checkFile(s))
			// The ranks were rebuilt too: the leaderboards read the same.
			for _, p := range live {
				page, _, err := s.SeasonLeaderboard(t.Context(), p.GuildID, p.Season, p.Ladder, 0, 100)
				require.NoError(t, err)
				assert.Contains(t, page, p)
			}
			require.NoError(t, s.db.View(func(tx *bolt.Tx) error {
				assert.Nil(t, tx.Bucket(bucketMeta).Get(keySeasonsPending), "the mark is gone")
				return nil
			}))
		})
	}
}

// BenchmarkRebuildSeasons works out the seasons' ladders from 10,000
// finished games of 40 moves (what an upgrade does once, before it writes
// them).
func BenchmarkRebuildSeasons(b *testing.B) {
	s := mustOpen(b, Options{NoSync: true})
	g := newGame(b, "c", alice, bob)
	r := engine.NewRand(2)
	for g.Ply() < 40 {
		require.NoError(b, play(g, randomMove(b, g.Game, &r)))
	}
	require.NoError(b, g.Resign(g.ToMove(), moveTime(g.Ply())))
	require.NoError(b, s.db.Update(func(tx *bolt.Tx) error {
		t := &boltTx{tx: tx, boards: &boardNotes{}}
		for i := range uint64(10000) {
			f := &FinishedGame{Game: *g, RecordText: g.Record().String()}
			f.ID = i + 1
			if err := t.PutFinished(f); err != nil {
				return err
			}
		}
		return nil
	}))
	for b.Loop() {
		require.NoError(b, s.db.View(func(tx *bolt.Tx) error {
			_, _, err := seasonStandings(&boltTx{tx: tx, boards: &boardNotes{}}, DefaultRatingPeriod)
			return err
		}))
	}
}
