package storage

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// Players and times of the tests.
var (
	alice  = Player{UserID: "100", Name: "alice"}
	bob    = Player{UserID: "200", Name: "bob"}
	carol  = Player{UserID: "300", Name: "Carol"}
	easyAI = Player{UserID: "900", Name: "Kulami (easy)", AI: "easy"}
	hardAI = Player{UserID: "900", Name: "Kulami (hard)", AI: "hard"}

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

// newGame returns a game on the square board in channel between red and
// black, red first, not yet stored.
func newGame(channel string, red, black Player) *Game {
	return &Game{
		GuildID: guild, ChannelID: channel, Layout: engine.SquareString, Rules: engine.Full,
		First: engine.Red, Players: [2]Player{red, black}, Created: t0,
	}
}

// mustCreate stores a new game in channel between red and black.
func mustCreate(tb testing.TB, s *Store, channel string, red, black Player) *Game {
	tb.Helper()
	g := newGame(channel, red, black)
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

// mustPlay plays moves in the game of channel, one transaction each, a
// minute apart from t0 on, and returns the stored game.
func mustPlay(tb testing.TB, s *Store, channel string, moves ...string) *Game {
	tb.Helper()
	var g *Game
	for _, m := range moves {
		c := mustCell(tb, m)
		var err error
		g, err = s.UpdateGame(channel, func(g *Game) error {
			_, err := g.Play(c, t0.Add(time.Duration(g.Ply()+1)*time.Minute))
			return err
		})
		require.NoError(tb, err, "move %s", m)
	}
	return g
}

// randomMove returns a random legal move of g.
func randomMove(tb testing.TB, g *Game, r *engine.Rand) engine.Cell {
	tb.Helper()
	p, err := g.Position()
	require.NoError(tb, err)
	legal := p.Legal()
	require.NotZero(tb, legal, "game %d has no legal move", g.ID)
	return p.Layout().Cell(r.Pick(legal))
}

// mustPlayOut plays random moves in the game of channel until it ends and
// returns the finished game.
func mustPlayOut(tb testing.TB, s *Store, channel string, seed uint64) *FinishedGame {
	tb.Helper()
	r := engine.NewRand(seed)
	for {
		g, err := s.UpdateGame(channel, func(g *Game) error {
			_, err := g.Play(randomMove(tb, g, &r), t0.Add(time.Duration(g.Ply()+1)*time.Minute))
			return err
		})
		require.NoError(tb, err)
		if g.Result != nil {
			f, err := s.FinishedGame(g.GuildID, g.ID)
			require.NoError(tb, err)
			return f
		}
	}
}

// mustFinish ends the game of channel as ending says (loser for
// resignations and timeouts) at time at.
func mustFinish(tb testing.TB, s *Store, channel string, ending Ending, loser engine.Color, at time.Time) *Game {
	tb.Helper()
	g, err := s.UpdateGame(channel, func(g *Game) error { return g.Finish(ending, loser, at) })
	require.NoError(tb, err)
	return g
}

// mustGame plays a whole game in a new channel: red resigns after two
// moves if redLoses, else black does. It returns the finished game.
func mustGame(tb testing.TB, s *Store, red, black Player, redLoses bool, at time.Time) *FinishedGame {
	tb.Helper()
	channel := fmt.Sprintf("game-%d", at.UnixNano())
	g := mustCreate(tb, s, channel, red, black)
	mustPlay(tb, s, channel, "D4", "D7")
	loser := engine.Black
	if redLoses {
		loser = engine.Red
	}
	mustFinish(tb, s, channel, Resigned, loser, at)
	f, err := s.FinishedGame(guild, g.ID)
	require.NoError(tb, err)
	return f
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
