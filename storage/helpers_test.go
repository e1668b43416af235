package storage

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
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

// mustOpen opens a new database in a temporary directory, closed when the
// test ends.
func mustOpen(tb testing.TB, opt Options) *Store {
	tb.Helper()
	return mustOpenPath(tb, filepath.Join(tb.TempDir(), "kulami.db"), opt)
}

// mustOpenPath opens the database at path, closed when the test ends.
func mustOpenPath(tb testing.TB, path string, opt Options) *Store {
	tb.Helper()
	s, err := Open(path, opt)
	require.NoError(tb, err)
	tb.Cleanup(func() { s.Close() })
	return s
}

// squareConfig returns the config of a game on the square board between
// red and black: full rules, red first, no move time.
func squareConfig(red, black game.Player) game.Config {
	return game.Config{Layout: engine.Square(), Rules: engine.Full, First: engine.Red, Players: [2]game.Player{red, black}}
}

// mustNewGame returns a game of cfg begun at t0 in channel of the test
// guild, not yet stored.
func mustNewGame(tb testing.TB, channel string, cfg game.Config) *Game {
	tb.Helper()
	g, err := game.New(cfg, t0)
	require.NoError(tb, err)
	return &Game{GuildID: guild, ChannelID: channel, Game: g}
}

// newGame returns a game of squareConfig begun at t0 in channel, not yet
// stored.
func newGame(tb testing.TB, channel string, red, black game.Player) *Game {
	tb.Helper()
	return mustNewGame(tb, channel, squareConfig(red, black))
}

// mustCreate stores a new game of squareConfig in channel.
func mustCreate(tb testing.TB, s *Store, channel string, red, black game.Player) *Game {
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
func play(g *Game, c engine.Cell) error {
	return g.Play(g.ToMove(), g.Ply(), c, moveTime(g.Ply()))
}

// mustPlay plays moves in the game of channel, one transaction each, at
// moveTime, and returns the stored game.
func mustPlay(tb testing.TB, s *Store, channel string, moves ...string) *Game {
	tb.Helper()
	var g *Game
	for _, m := range moves {
		c := mustCell(tb, m)
		var err error
		g, err = s.UpdateGame(channel, func(g *Game) error { return play(g, c) })
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

// mustFinish ends the game of channel at time at as ending says: loser
// resigns or runs out of time, red aborts or offers a draw that black
// accepts.
func mustFinish(tb testing.TB, s *Store, channel string, ending game.Ending, loser engine.Color, at time.Time) *Game {
	tb.Helper()
	g, err := s.UpdateGame(channel, func(g *Game) error { return end(g, ending, loser, at) })
	require.NoError(tb, err)
	require.True(tb, g.Over())
	return g
}

// end ends g at time at as ending says, through the game's own methods;
// see mustFinish.
func end(g *Game, ending game.Ending, loser engine.Color, at time.Time) error {
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

// activeGames returns the active games of s, by channel, read straight
// from the bucket.
func activeGames(tb testing.TB, s *Store) []*Game {
	tb.Helper()
	var out []*Game
	require.NoError(tb, s.db.View(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketGames).ForEach(func(_, v []byte) error {
			var r gameRecord
			if err := decode(v, &r); err != nil {
				return err
			}
			g, err := r.game()
			out = append(out, g)
			return err
		})
	}))
	return out
}

// checkFile runs bbolt's consistency check on the file of s.
func checkFile(s *Store) error {
	return s.db.View(func(tx *bolt.Tx) error {
		var errs []error
		for err := range tx.Check() {
			errs = append(errs, err)
		}
		return errors.Join(errs...)
	})
}

// mustWakes returns every wake due at the end of time, in UTC.
func mustWakes(tb testing.TB, s *Store) []Wake {
	tb.Helper()
	w, err := s.Due(time.Unix(1<<40, 0))
	require.NoError(tb, err)
	for i := range w {
		w[i].At = w[i].At.UTC()
	}
	return w
}

// newChallenge returns a challenge of from to to in channel, made at t0
// and expiring an hour later.
func newChallenge(channel string, from, to game.Player) *Challenge {
	return &Challenge{GuildID: guild, ChannelID: channel, From: from, To: to, Layout: engine.SquareString,
		Rules: engine.Basic, Created: t0, Expires: t0.Add(time.Hour), WakeAt: t0.Add(time.Hour)}
}
