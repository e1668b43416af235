package storagetest

import (
	"fmt"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/internal/fixture"
	"github.com/stretchr/testify/require"
)

// Players, times and moves of the tests: see package fixture.
var (
	alice, bob, carol, easyAI, hardAI, t0              = fixture.Alice, fixture.Bob, fixture.Carol, fixture.EasyAI, fixture.HardAI, fixture.T0
	squareConfig, mustCell, moveTime, play, randomMove = fixture.SquareConfig, fixture.MustCell, fixture.MoveTime, fixture.Play, fixture.RandomMove
)

const guild = fixture.Guild

// mustNewGame returns a game of cfg begun at t0 in channel of the test
// guild, not yet stored.
func mustNewGame(tb testing.TB, channel string, cfg game.Config) *storage.Game {
	tb.Helper()
	return &storage.Game{GuildID: guild, ChannelID: channel, Game: fixture.MustNew(tb, cfg)}
}

// newGame returns a game of squareConfig begun at t0 in channel, not yet
// stored.
func newGame(tb testing.TB, channel string, red, black game.Player) *storage.Game {
	tb.Helper()
	return mustNewGame(tb, channel, squareConfig(red, black))
}

// mustCreate stores a new game of squareConfig in channel.
func mustCreate(tb testing.TB, s Store, channel string, red, black game.Player) *storage.Game {
	tb.Helper()
	g := newGame(tb, channel, red, black)
	require.NoError(tb, s.CreateGame(tb.Context(), g))
	return g
}

// mustPlay plays moves in the game of channel, one transaction each, at
// moveTime, and returns the stored game.
func mustPlay(tb testing.TB, s Store, channel string, moves ...string) *storage.Game {
	tb.Helper()
	return fixture.MustPlay(tb, s.UpdateGame, channel, moves...)
}

// mustPlayOut plays random moves in the game of channel until it ends and
// returns the finished game.
func mustPlayOut(tb testing.TB, s Store, channel string, seed uint64) *storage.FinishedGame {
	tb.Helper()
	r := engine.NewRand(seed)
	for {
		g, err := s.UpdateGame(tb.Context(), channel, func(g *storage.Game) error { return play(g, randomMove(tb, g.Game, &r)) })
		require.NoError(tb, err)
		if g.Over() {
			f, err := s.FinishedGame(tb.Context(), g.GuildID, g.ID)
			require.NoError(tb, err)
			return f
		}
	}
}

// mustFinish ends the game of channel at time at as ending says: loser
// resigns or runs out of time, red aborts or offers a draw that black
// accepts.
func mustFinish(tb testing.TB, s Store, channel string, ending game.Ending, loser engine.Color, at time.Time) *storage.Game {
	tb.Helper()
	return fixture.MustFinish(tb, s.UpdateGame, channel, ending, loser, at)
}

// mustGame plays a whole game in a new channel: red resigns after two
// moves if redLoses, else black does. It returns the finished game.
func mustGame(tb testing.TB, s Store, red, black game.Player, redLoses bool, at time.Time) *storage.FinishedGame {
	tb.Helper()
	channel := fmt.Sprintf("game-%d", at.UnixNano())
	g := mustCreate(tb, s, channel, red, black)
	mustPlay(tb, s, channel, "D4", "D7")
	loser := engine.Black
	if redLoses {
		loser = engine.Red
	}
	mustFinish(tb, s, channel, game.Resigned, loser, at)
	f, err := s.FinishedGame(tb.Context(), guild, g.ID)
	require.NoError(tb, err)
	return f
}

// counts returns the number of records of each kind that s exports.
func counts(tb testing.TB, s Store) map[string]int {
	tb.Helper()
	out := map[string]int{}
	require.NoError(tb, s.Export(tb.Context(), func(r storage.Record) error {
		kind, _ := r.Kind()
		out[kind]++
		return nil
	}))
	return out
}
