package challenge_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/challenge"
	"github.com/kulami/kulami/engine/game"
)

// mustGame returns a game of alice (red, first) against bob.
func mustGame(tb testing.TB) *game.Game {
	tb.Helper()
	g, err := game.New(game.Config{Layout: engine.RandomIrregular(3), Rules: engine.Lines, First: engine.Red,
		Players: [2]game.Player{alice, bob}, MoveTime: 2 * time.Hour}, t0)
	require.NoError(tb, err)
	return g
}

func TestRematch(t *testing.T) {
	g := mustGame(t)
	assert.Equal(t, [2]game.Player{bob, alice}, challenge.RematchPlayers(g), "bob moved second, so he moves first")
	layout := engine.RandomIrregular(5)
	for _, tt := range []struct {
		name  string
		by    game.Player
		first challenge.FirstChoice
	}{
		{"by the first mover", alice, challenge.FirstOpponent},
		{"by the second mover", bob, challenge.FirstChallenger},
	} {
		t.Run(tt.name, func(t *testing.T) {
			by := tt.by
			by.Name = "new name"
			c, err := challenge.Rematch(g, by, layout, t0.Add(time.Hour), time.Hour)
			require.NoError(t, err)
			assert.Equal(t, by, c.From)
			assert.NotEqual(t, by.UserID, c.To.UserID)
			assert.Equal(t, tt.first, c.First)
			assert.Equal(t, engine.Lines, c.Rules)
			assert.Equal(t, 2*time.Hour, c.MoveTime)
			assert.Equal(t, layout.String(), c.Layout)
			assert.Equal(t, t0.Add(2*time.Hour), c.Wake())
			red, err := c.Accept(c.To, t0.Add(time.Hour), false, nil)
			require.NoError(t, err)
			assert.Equal(t, bob.UserID, red.Player(engine.Red).UserID, "whoever asks, the second mover of the game moves first")
		})
	}
	_, err := challenge.Rematch(g, carol, layout, t0, time.Hour)
	assert.ErrorIs(t, err, game.ErrNotAPlayer)
}

func TestRematchLayout(t *testing.T) {
	assert.True(t, challenge.RematchLayout(engine.Square(), 1).Equal(engine.Square()), "the classic board again")
	sq := challenge.RematchLayout(engine.RandomSquare(1), 2)
	assert.True(t, sq.IsSquare())
	assert.True(t, sq.Equal(engine.RandomSquare(2)), "a new random square board")
	assert.True(t, challenge.RematchLayout(engine.RandomIrregular(1), 2).Equal(engine.RandomIrregular(2)), "a new irregular board")
}

func TestCheckRematch(t *testing.T) {
	aliceToBob, bobToAlice := mustNew(t, bob, challenge.FirstRandom), &challenge.Challenge{From: bob, To: alice}
	for _, tt := range []struct {
		name string
		open *challenge.Challenge
		by   game.Player
		want error
	}{
		{"own offer stands", aliceToBob, alice, challenge.ErrRematchOffered},
		{"the other's offer stands", bobToAlice, alice, challenge.ErrRematchAsked},
		{"a challenge to anyone", &challenge.Challenge{From: bob}, alice, nil},
		{"a challenge of others", &challenge.Challenge{From: carol, To: bob}, alice, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assertErr(t, tt.want, challenge.CheckRematch(tt.open, tt.by, bob), "check")
		})
	}
}
