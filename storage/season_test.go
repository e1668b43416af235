package storage

import (
	"errors"
	"fmt"
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
				for _, b := range [][]byte{bucketSeasonProfiles, bucketSeasonRanks} {
					if err := tx.DeleteBucket(b); err != nil {
						return err
					}
				}
				return addSeasons(tx)
			}))
			require.Empty(t, seasonProfiles(t, s))
			require.NoError(t, s.db.Update(func(tx *bolt.Tx) error { return rebuildPendingSeasons(tx, DefaultRatingPeriod) }))
			assert.Equal(t, live, seasonProfiles(t, s))
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

// errRolledBack ends a transaction of a benchmark without a commit.
var errRolledBack = errors.New("rolled back")

// BenchmarkRebuildSeasons fills the seasons' ladders from 10,000 finished
// games of 40 moves (what an upgrade does once), in a
// transaction rolled back each time.
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
		err := s.db.Update(func(tx *bolt.Tx) error {
			if err := rebuildSeasons(&boltTx{tx: tx, boards: &boardNotes{}}, DefaultRatingPeriod); err != nil {
				return err
			}
			return errRolledBack
		})
		require.ErrorIs(b, err, errRolledBack)
	}
}
