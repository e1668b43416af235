package storagetest

import (
	"testing"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testGuildGames(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	got, err := s.GuildGames(t.Context(), guild)
	require.NoError(t, err)
	assert.Empty(t, got, "a new store has no games")

	first := mustCreate(t, s, "c1", alice, bob)
	second := mustCreate(t, s, "c2", carol, easyAI)
	other := newGame(t, "c3", bob, carol)
	other.GuildID = "2000"
	require.NoError(t, s.CreateGame(t.Context(), other))
	ended := mustCreate(t, s, "c4", alice, carol)
	mustFinish(t, s, "c4", game.Resigned, engine.Red, moveTime(0))
	mustPlay(t, s, "c1", "D4")
	require.NoError(t, s.NoteBoard(t.Context(), "c1", first.ID, 1, "4242"))

	got, err = s.GuildGames(t.Context(), guild)
	require.NoError(t, err)
	require.Len(t, got, 2, "the active games of the guild: not another guild's, not a finished one (%d)", ended.ID)
	assert.Equal(t, []uint64{second.ID, first.ID}, []uint64{got[0].ID, got[1].ID}, "newest first")
	assert.Equal(t, 1, got[1].Ply(), "the game as it is now")
	assert.Equal(t, "4242", got[1].BoardMessageID, "with the board noted but not yet written")

	got, err = s.GuildGames(t.Context(), "2000")
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, other.ID, got[0].ID)
}
