package storagetest

import (
	_ "embed"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/internal/fixture"
)

// The stored forms of a game and a challenge of 5 minutes per move, as
// kulami wrote them before clocks had a kind (commit f98b22c): no
// "clock" field.
var (
	//go:embed testdata/permove_game_v1.json
	oldGame []byte
	//go:embed testdata/permove_challenge_v1.json
	oldChallenge []byte
)

// Rows reads and writes the stored form of a value the way one backend
// keeps it, for tests of values written by earlier releases: Put replaces
// the stored form of the active game or challenge (challenge true) of
// channel by data, Get returns it.
type Rows interface {
	Put(tb testing.TB, channel string, challenge bool, data []byte)
	Get(tb testing.TB, channel string, challenge bool) []byte
}

// OldClocks checks that a game and a challenge of 5 minutes per move
// stored by an earlier release, whose clocks have no kind, are read as
// per move: the game gives each move 5 minutes, is written back with its
// kind, and the challenge's game and its clock stay per move, though
// "5m" typed today is a clock for the whole game.
func OldClocks(t *testing.T, s Store, rows Rows) {
	perMove := game.MoveTime{Start: 5 * time.Minute, Kind: game.PerMove}
	cfg := squareConfig(alice, bob)
	cfg.MoveTime = perMove.Start
	g := mustNewGame(t, "old", cfg)
	require.NoError(t, s.CreateGame(t.Context(), g))
	require.Equal(t, uint64(1), g.ID, "the ID the stored form has")
	rows.Put(t, "old", false, oldGame)

	g, err := s.Game(t.Context(), "old")
	require.NoError(t, err)
	assert.Equal(t, perMove, g.Clock(), "an old 5m game is per move")
	g, err = s.UpdateGame(t.Context(), "old", func(g *storage.Game) error {
		return g.Play(g.ToMove(), g.Ply(), fixture.MustCell(t, "D4"), t0.Add(4*time.Minute))
	})
	require.NoError(t, err)
	assert.Equal(t, t0.Add(9*time.Minute), g.Deadline(), "the next move has 5 minutes again")
	assert.Contains(t, string(rows.Get(t, "old", false)), `"clock":"move"`, "written back with its kind")

	c := newChallenge("oldch", alice, bob)
	c.MoveTime = perMove.Start
	require.NoError(t, s.CreateChallenge(t.Context(), c))
	require.Equal(t, uint64(1), c.ID, "the ID the stored form has")
	rows.Put(t, "oldch", true, oldChallenge)
	c, err = s.Challenge(t.Context(), "oldch")
	require.NoError(t, err)
	assert.False(t, c.Clock().Whole(), "an old 5m challenge is per move")
	accepted, err := c.Accept(bob, t0, true, nil)
	require.NoError(t, err)
	assert.Equal(t, perMove, accepted.Clock(), "and so is its game")
}
