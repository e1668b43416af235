package storagetest

import (
	"fmt"
	"github.com/kulami/kulami/storage"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/stretchr/testify/require"
)

// Players and times of the tests.
var (
	alice  = game.Player{UserID: "100", Name: "alice"}
	bob    = game.Player{UserID: "200", Name: "bob"}
	carol  = game.Player{UserID: "300", Name: "Carol"}
	easyAI = game.Player{UserID: "900", Name: "Kulami (easy)", AI: "easy"}
	hardAI = game.Player{UserID: "900", Name: "Kulami (hard)", AI: "hard"}

	t0 = time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
)

const guild = "1000"

// squareConfig returns the config of a game on the square board between
// red and black: full rules, red first, no move time.
func squareConfig(red, black game.Player) game.Config {
	return game.Config{Layout: engine.Square(), Rules: engine.Full, First: engine.Red, Players: [2]game.Player{red, black}}
}

// mustNewGame returns a game of cfg begun at t0 in channel of the test
// guild, not yet stored.
func mustNewGame(tb testing.TB, channel string, cfg game.Config) *storage.Game {
	tb.Helper()
	g, err := game.New(cfg, t0)
	require.NoError(tb, err)
	return &storage.Game{GuildID: guild, ChannelID: channel, Game: g}
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
	require.NoError(tb, s.CreateGame(g))
	return g
}

// mustCell parses a coordinate.
func mustCell(tb testing.TB, s string) engine.Cell {
	tb.Helper()
	c, err := engine.ParseCell(s)
	require.NoError(tb, err)
	return c
}

// moveTime returns the time of the move after ply plies in the tests: a
// minute apart from t0 on.
func moveTime(ply int) time.Time { return t0.Add(time.Duration(ply+1) * time.Minute) }

// play plays cell c for the player to move of g at moveTime.
func play(g *storage.Game, c engine.Cell) error {
	return g.Play(g.ToMove(), g.Ply(), c, moveTime(g.Ply()))
}

// mustPlay plays moves in the game of channel, one transaction each, at
// moveTime, and returns the stored game.
func mustPlay(tb testing.TB, s Store, channel string, moves ...string) *storage.Game {
	tb.Helper()
	var g *storage.Game
	for _, m := range moves {
		c := mustCell(tb, m)
		var err error
		g, err = s.UpdateGame(channel, func(g *storage.Game) error { return play(g, c) })
		require.NoError(tb, err, "move %s", m)
	}
	return g
}

// randomMove returns a random legal move of g.
func randomMove(tb testing.TB, g *game.Game, r *engine.Rand) engine.Cell {
	tb.Helper()
	p := g.Position()
	legal := p.Legal()
	require.NotZero(tb, legal, "the game has no legal move")
	return p.Layout().Cell(r.Pick(legal))
}

// mustPlayOut plays random moves in the game of channel until it ends and
// returns the finished game.
func mustPlayOut(tb testing.TB, s Store, channel string, seed uint64) *storage.FinishedGame {
	tb.Helper()
	r := engine.NewRand(seed)
	for {
		g, err := s.UpdateGame(channel, func(g *storage.Game) error { return play(g, randomMove(tb, g.Game, &r)) })
		require.NoError(tb, err)
		if g.Over() {
			f, err := s.FinishedGame(g.GuildID, g.ID)
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
	g, err := s.UpdateGame(channel, func(g *storage.Game) error { return end(g, ending, loser, at) })
	require.NoError(tb, err)
	require.True(tb, g.Over())
	return g
}

// end ends g at time at as ending says, through the game's own methods;
// see mustFinish.
func end(g *storage.Game, ending game.Ending, loser engine.Color, at time.Time) error {
	switch ending {
	case game.Resigned:
		return g.Resign(loser, at)
	case game.TimedOut:
		if g.ToMove() != loser {
			return fmt.Errorf("%v cannot run out of time: %v is to move", loser, g.ToMove())
		}
		return g.Timeout(at)
	case game.Aborted:
		return g.Abort(engine.Red, at)
	case game.Abandoned:
		return g.Abandon(at)
	case game.DrawAgreed:
		if err := g.OfferDraw(engine.Red, at); err != nil {
			return err
		}
		return g.AnswerDraw(engine.Black, g.Ply(), true, at)
	}
	return fmt.Errorf("the tests cannot end a game as %v", ending)
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
	f, err := s.FinishedGame(guild, g.ID)
	require.NoError(tb, err)
	return f
}

// counts returns the number of records of each kind that s exports.
func counts(tb testing.TB, s Store) map[string]int {
	tb.Helper()
	out := map[string]int{}
	require.NoError(tb, s.Export(func(r storage.Record) error {
		kind, _ := r.Kind()
		out[kind]++
		return nil
	}))
	return out
}
