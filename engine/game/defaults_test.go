package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/game"
)

// TestDefaultsSettings: a new game's clock and comforts, resolved once for
// every way a game starts: what the players asked, else the server's
// settings, else the bot's; never a weekend pause nor a claim against the
// computer; never a weekend pause in a live game, which asking for is
// refused.
func TestDefaultsSettings(t *testing.T) {
	t.Parallel()
	yes, no := true, false
	clock := func(s string) *game.MoveTime {
		m, err := game.ParseMoveTime(s)
		require.NoError(t, err)
		return &m
	}
	server := game.Defaults{ServerMoveTime: 2 * day, BotMoveTime: 3 * day, Weekends: true, Timeouts: game.Claim}
	perMove := func(d time.Duration) game.MoveTime { return game.MoveTime{Start: d, Kind: game.PerMove} }
	for _, tt := range []struct {
		name     string
		d        game.Defaults
		asked    game.Asked
		computer bool
		want     game.Settings
		err      error
	}{
		{"the server's", server, game.Asked{}, false, game.Settings{Clock: perMove(2 * day), Weekends: true, Timeouts: game.Claim}, nil},
		{"the bot's move time where the server set none", game.Defaults{BotMoveTime: 3 * day}, game.Asked{}, false, game.Settings{Clock: perMove(3 * day)}, nil},
		{"no clock at all", game.Defaults{}, game.Asked{}, false, game.Settings{}, nil},
		{"what the players asked", server, game.Asked{Clock: clock("3d+1d"), Weekends: &no}, false,
			game.Settings{Clock: *clock("3d+1d"), Timeouts: game.Claim}, nil},
		{"a pause asked on a server that plays weekends", game.Defaults{BotMoveTime: day}, game.Asked{Weekends: &yes}, false,
			game.Settings{Clock: perMove(day), Weekends: true}, nil},
		{"against the computer", server, game.Asked{Weekends: &yes}, true, game.Settings{Clock: perMove(2 * day), Timeouts: game.Auto}, nil},
		{"a live clock on a server that pauses weekends", server, game.Asked{Clock: clock("10m")}, false,
			game.Settings{Clock: *clock("10m"), Timeouts: game.Claim}, nil},
		{"a live default", game.Defaults{ServerMoveTime: 5 * time.Minute, Weekends: true}, game.Asked{}, false,
			game.Settings{Clock: perMove(5 * time.Minute)}, nil},
		{"a pause asked of a live clock", server, game.Asked{Clock: clock("5m+10s"), Weekends: &yes}, false, game.Settings{}, game.ErrLiveGame},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.d.Settings(tt.asked, tt.computer)
			assert.ErrorIs(t, err, tt.err)
			assert.Equal(t, tt.want, got)
			if err != nil {
				return
			}
			cfg := config()
			got.Apply(&cfg)
			g, err := game.New(cfg, t0)
			assert.NoError(t, err)
			assert.Equal(t, got.Clock, g.Clock(), "the game is played with them")
			assert.Equal(t, got.Weekends, g.Weekends())
		})
	}
}
