package postgres

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// TestExportInKeyOrder: an export reads the histories in the order of
// their keys (guild, player, end, game), whatever order they were
// written in, so that a migrate into bbolt appends to each bucket.
func TestExportInKeyOrder(t *testing.T) {
	s := mustOpen(t, storage.Options{})
	type key struct {
		guild, player string
		at            time.Time
		id            uint64
	}
	var written []key
	for i := range 60 { // games in the order they ended, each player's entries far apart
		written = append(written, key{fmt.Sprint(1000 + i%3), fmt.Sprint(200000 + (i*7)%5), t0.Add(time.Duration(i) * time.Hour), uint64(i + 1)})
	}
	slices.Reverse(written[20:40])
	_, err := s.Import(t.Context(), func(_ context.Context, fn func(storage.Record) error) error {
		for _, k := range written {
			e := storage.HistoryEntry{GameID: k.id, At: k.at, Ladder: storage.Human, Opponent: game.Player{UserID: "9", Name: "opponent"},
				Ending: game.Resigned, Outcome: game.Won}
			if err := fn(storage.HistoryRecords.Record(&storage.HistoryRecord{GuildID: k.guild, PlayerID: k.player, Entry: e})); err != nil {
				return err
			}
		}
		return nil
	})
	require.NoError(t, err)
	var read []key
	require.NoError(t, s.Export(t.Context(), func(r storage.Record) error {
		if h, ok := storage.HistoryRecords.Of(r); ok {
			read = append(read, key{h.GuildID, h.PlayerID, h.Entry.At, h.Entry.GameID})
		}
		return nil
	}))
	want := slices.Clone(written)
	slices.SortFunc(want, func(a, b key) int {
		if a.guild != b.guild {
			return cmp.Compare(a.guild, b.guild)
		}
		if a.player != b.player {
			return cmp.Compare(a.player, b.player)
		}
		return a.at.Compare(b.at)
	})
	require.Len(t, read, len(want))
	assert.NotEqual(t, written, want, "written out of order")
	for i := range want {
		assert.Equal(t, want[i].id, read[i].id, "entry %d", i)
	}
}
