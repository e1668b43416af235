package storage

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/challenge"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage/internal/fixture"
	"github.com/stretchr/testify/require"
	bolt "go.etcd.io/bbolt"
)

// Players, times and moves of the tests: see package fixture.
var (
	alice, bob, carol, easyAI, hardAI, t0              = fixture.Alice, fixture.Bob, fixture.Carol, fixture.EasyAI, fixture.HardAI, fixture.T0
	squareConfig, mustCell, moveTime, play, randomMove = fixture.SquareConfig, fixture.MustCell, fixture.MoveTime, fixture.Play, fixture.RandomMove
)

const guild = fixture.Guild

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

// mustNewGame returns a game of cfg begun at t0 in channel of the test
// guild, not yet stored.
func mustNewGame(tb testing.TB, channel string, cfg game.Config) *Game {
	tb.Helper()
	return &Game{GuildID: guild, ChannelID: channel, Game: fixture.MustNew(tb, cfg)}
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
	require.NoError(tb, s.CreateGame(tb.Context(), g))
	return g
}

// mustPlay plays moves in the game of channel, one transaction each, at
// moveTime, and returns the stored game.
func mustPlay(tb testing.TB, s *Store, channel string, moves ...string) *Game {
	tb.Helper()
	return fixture.MustPlay(tb, s.UpdateGame, channel, moves...)
}

// mustFinish ends the game of channel at time at as ending says: loser
// resigns or runs out of time, red aborts or offers a draw that black
// accepts.
func mustFinish(tb testing.TB, s *Store, channel string, ending game.Ending, loser engine.Color, at time.Time) *Game {
	tb.Helper()
	return fixture.MustFinish(tb, s.UpdateGame, channel, ending, loser, at)
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
	w, err := s.Due(tb.Context(), time.Unix(1<<40, 0))
	require.NoError(tb, err)
	for i := range w {
		w[i].At = w[i].At.UTC()
	}
	return w
}

// newChallenge returns a challenge of from to to in channel, made at t0
// and expiring an hour later.
func newChallenge(channel string, from, to game.Player) *Challenge {
	return &Challenge{GuildID: guild, ChannelID: channel, Challenge: challenge.Challenge{From: from, To: to,
		Layout: engine.SquareString, Rules: engine.Basic, Created: t0, Expires: t0.Add(time.Hour)}}
}
