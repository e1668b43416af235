package tournament_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/tournament"
)

// TestForfeitSide: a forfeit is won by the player who waited and lost by
// the one who did not move, or by both in a double forfeit; any other end
// is no forfeit. The record says the same.
func TestForfeitSide(t *testing.T) {
	start := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	forfeited := func(t *testing.T) *game.Result { // Red, to move first, never moves
		g, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Full, MoveTime: time.Hour,
			Players: [2]game.Player{{UserID: "r", Name: "r"}, {UserID: "b", Name: "b"}}}, start)
		require.NoError(t, err)
		require.NoError(t, g.Timeout(start.Add(time.Hour)))
		return g.Result()
	}
	resigned := func(t *testing.T) *game.Result {
		g, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Full,
			Players: [2]game.Player{{UserID: "r", Name: "r"}, {UserID: "b", Name: "b"}}}, start)
		require.NoError(t, err)
		require.NoError(t, g.Resign(engine.Red, start))
		return g.Result()
	}
	tests := []struct {
		name       string
		res        func(t *testing.T) *game.Result
		double     bool
		red, black tournament.Side
		tag        string
	}{
		{"forfeit", forfeited, false, tournament.LostByForfeit, tournament.WonByForfeit, "Black wins by forfeit, Red did not make a first move"},
		{"double forfeit", forfeited, true, tournament.LostByForfeit, tournament.LostByForfeit, "Double forfeit, Red did not make a first move"},
		{"resigned", resigned, false, tournament.NotForfeited, tournament.NotForfeited, ""},
		{"going on", func(*testing.T) *game.Result { return nil }, false, tournament.NotForfeited, tournament.NotForfeited, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := tt.res(t)
			assert.Equal(t, tt.red, tournament.ForfeitSide(res, engine.Red, tt.double))
			assert.Equal(t, tt.black, tournament.ForfeitSide(res, engine.Black, tt.double))
			assert.Equal(t, tt.tag, tournament.ForfeitResult(res, tt.double))
		})
	}
}
