package storage_test

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/storagetest"
)

// TestAppendFill: the finished games and the histories, whose keys append
// at the end of a range, fill their bbolt pages well past what bbolt's
// default split leaves (half a page and at most one value more), both
// when Import writes them in batches, as kulamibot migrate writes a new
// file, and when games end one a commit, as the bot ends them.
func TestAppendFill(t *testing.T) {
	tests := []struct {
		name    string
		write   func(t *testing.T, s *storage.Store)
		buckets []string // those the writes fill densely
	}{
		{"Import", func(t *testing.T, s *storage.Store) {
			_, err := s.Import(t.Context(), storagetest.YearRecords(t, storagetest.Year{Finished: 1500, Players: 6}))
			require.NoError(t, err)
		}, []string{"finished", "history"}},
		{"games ending", func(t *testing.T, s *storage.Store) {
			// One commit starts each game and one ends it: finished games
			// of a few moves are about 1 KB, of which bbolt keeps two a
			// page whatever the fill when they come one a commit, so only
			// the histories count here.
			players := []game.Player{{UserID: "100", Name: "alice"}, {UserID: "200", Name: "bob"}, {UserID: "300", Name: "carol"}}
			at := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
			r := engine.NewRand(1)
			for i := range 600 {
				at = at.Add(time.Hour)
				gg, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Full, First: engine.Red,
					Players: [2]game.Player{players[i%3], players[(i+1)%3]}}, at)
				require.NoError(t, err)
				p := gg.Position()
				require.NoError(t, gg.Play(engine.Red, 0, p.Layout().Cell(r.Pick(p.Legal())), at))
				channel := fmt.Sprint(500000000000000000 + i)
				require.NoError(t, s.CreateGame(t.Context(), &storage.Game{GuildID: "1", ChannelID: channel, Game: gg}))
				g, err := s.UpdateGame(t.Context(), channel, func(g *storage.Game) error { return g.Resign(engine.Black, at) })
				require.NoError(t, err)
				require.True(t, g.Over())
			}
		}, []string{"history"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "kulami.db")
			s, err := storage.Open(path, storage.Options{NoSync: true})
			require.NoError(t, err)
			tt.write(t, s)
			require.NoError(t, s.Close())

			db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
			require.NoError(t, err)
			defer db.Close()
			require.NoError(t, db.View(func(tx *bolt.Tx) error {
				for _, name := range tt.buckets {
					st := tx.Bucket([]byte(name)).Stats()
					require.Greater(t, st.LeafPageN, 50, "%s: enough pages that the last one, which no split left, counts little", name)
					fill := float64(st.LeafInuse) / float64(st.LeafAlloc)
					assert.Greater(t, fill, 0.65, "%s: %d keys in %d pages", name, st.KeyN, st.LeafPageN)
					t.Logf("%s: %d keys, %d leaf pages, %.1f%% full", name, st.KeyN, st.LeafPageN, 100*fill)
				}
				return nil
			}))
		})
	}
}
