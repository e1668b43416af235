package storagetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testCreateGame(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	g := newGame(t, "c1", alice, bob)
	g.ParentChannelID, g.BoardMessageID = "parent", "555"
	require.NoError(t, s.CreateGame(t.Context(), g))
	assert.Equal(t, uint64(1), g.ID)

	got, err := s.Game(t.Context(), "c1")
	require.NoError(t, err)
	assert.Equal(t, g.ID, got.ID)
	assert.Equal(t, guild, got.GuildID)
	assert.Equal(t, "parent", got.ParentChannelID)
	assert.Equal(t, "555", got.BoardMessageID)
	assert.Equal(t, g.State(), got.State(), "the game is stored as it was made")

	second := mustCreate(t, s, "c2", alice, carol)
	assert.Equal(t, uint64(2), second.ID, "IDs are unique")
}

func testCreateGameRefuses(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	mustCreate(t, s, "game", alice, bob)
	require.NoError(t, s.CreateChallenge(t.Context(), newChallenge("challenge", alice, bob)))

	tests := []struct {
		name string
		g    *storage.Game
		want error
		msg  string
	}{
		{"channel with a game", newGame(t, "game", carol, bob), storage.ErrChannelBusy, "a game is going on there"},
		{"channel with a challenge", newGame(t, "challenge", carol, bob), storage.ErrChannelBusy, "a challenge is open there"},
		{"no game", &storage.Game{GuildID: guild, ChannelID: "free"}, storage.ErrInvalid, "no game"},
		{"bad place", func() *storage.Game {
			g := newGame(t, "free", alice, bob)
			g.GuildID = "a\x00b"
			return g
		}(), storage.ErrInvalid, "holds a zero byte"},
		{"finished game", func() *storage.Game {
			g := newGame(t, "free", alice, bob)
			require.NoError(t, g.Abort(engine.Red, t0))
			return g
		}(), storage.ErrInvalid, "a new game cannot have a result"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.CreateGame(t.Context(), tt.g)
			assert.ErrorIs(t, err, tt.want)
			assert.ErrorContains(t, err, tt.msg)
			assert.ErrorContains(t, err, "channel "+tt.g.ChannelID)
			assert.Zero(t, tt.g.ID, "a refused game gets no ID")
		})
	}
	assert.Equal(t, map[string]int{"game": 1, "challenge": 1, "sequence": 2, "vacation": 2}, counts(t, s),
		"refusals store nothing: the banks are alice's and bob's, opened by their game (carol's was refused)")
	third := mustCreate(t, s, "free", alice, bob)
	assert.Equal(t, uint64(2), third.ID, "refusals use up no ID")
}

func testGameNotFound(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	_, err := s.Game(t.Context(), "nowhere")
	assert.ErrorIs(t, err, storage.ErrNotFound)
	_, err = s.UpdateGame(t.Context(), "nowhere", func(*storage.Game) error { return nil })
	assert.ErrorIs(t, err, storage.ErrNotFound)
	assert.ErrorContains(t, err, "channel nowhere")
}

func testUpdateGame(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	mustCreate(t, s, "c", alice, bob)

	g, err := s.UpdateGame(t.Context(), "c", func(g *storage.Game) error {
		g.BoardMessageID, g.ClickedBoards = "555", []string{"333", "444"}
		g.Rename(engine.Black, "Bob")
		return play(g, mustCell(t, "D4"))
	})
	require.NoError(t, err)
	assert.Equal(t, 1, g.Ply())

	stored, err := s.Game(t.Context(), "c")
	require.NoError(t, err)
	assert.Equal(t, "555", stored.BoardMessageID)
	assert.Equal(t, []string{"333", "444"}, stored.ClickedBoards)
	assert.Equal(t, "Bob", stored.Player(engine.Black).Name, "a player's name may change")
	assert.Equal(t, g.State(), stored.State())
	assert.Equal(t, mustCell(t, "D4"), stored.Moves()[0].Cell)
}

func testUpdateGameWritesNothingOnError(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	mustCreate(t, s, "c", alice, bob)
	mustPlay(t, s, "c", "D4")

	// other returns the stored game changed by change, for fn to put in
	// place of the one it was given.
	other := func(change func(*game.State)) *game.Game {
		g, err := s.Game(t.Context(), "c")
		require.NoError(t, err)
		st := g.State()
		change(&st)
		gg, err := game.Restore(st)
		require.NoError(t, err)
		return gg
	}
	boom := errors.New("boom")
	tests := []struct {
		name string
		fn   func(*storage.Game) error
		want error
		msg  string
	}{
		{"fn fails", func(g *storage.Game) error {
			g.BoardMessageID = "x"
			return boom
		}, boom, "boom"},
		{"stale", func(g *storage.Game) error {
			g.BoardMessageID = "x"
			return g.Play(engine.Black, 0, mustCell(t, "D7"), t0)
		}, game.ErrStale, "the game has moved on"},
		{"illegal move", func(g *storage.Game) error {
			g.BoardMessageID = "x"
			return play(g, mustCell(t, "E5"))
		}, engine.ErrNotInLine, "update game in channel c"},
		{"new player", func(g *storage.Game) error {
			g.Game = other(func(s *game.State) { s.Players[engine.Black] = carol })
			return nil
		}, storage.ErrInvalid, "the players may not change (only their names)"},
		{"new layout", func(g *storage.Game) error {
			g.Game = other(func(s *game.State) { s.Layout, s.Moves = engine.RandomSquare(1).String(), nil })
			return nil
		}, storage.ErrInvalid, "the ID, place, layout, rules, first colour and creation time may not change"},
		{"new rules", func(g *storage.Game) error {
			g.Game = other(func(s *game.State) { s.Rules = engine.Basic })
			return nil
		}, storage.ErrInvalid, "may not change"},
		{"new creation time", func(g *storage.Game) error {
			g.Game = other(func(s *game.State) { s.Created = s.Created.Add(-time.Hour) })
			return nil
		}, storage.ErrInvalid, "may not change"},
		{"move taken back", func(g *storage.Game) error {
			g.Game = other(func(s *game.State) { s.Moves = nil })
			return nil
		}, storage.ErrInvalid, "moves may not be taken back"},
		{"new ID", func(g *storage.Game) error {
			g.ID++
			return nil
		}, storage.ErrInvalid, "may not change"},
		{"new channel", func(g *storage.Game) error {
			g.ChannelID = "elsewhere"
			return nil
		}, storage.ErrInvalid, "may not change"},
		{"new parent", func(g *storage.Game) error {
			g.ParentChannelID = "parent"
			return nil
		}, storage.ErrInvalid, "may not change"},
		{"no game", func(g *storage.Game) error {
			g.Game = nil
			return nil
		}, storage.ErrInvalid, "no game"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.UpdateGame(t.Context(), "c", tt.fn)
			assert.ErrorIs(t, err, tt.want)
			assert.ErrorContains(t, err, tt.msg)
			g, err := s.Game(t.Context(), "c")
			require.NoError(t, err)
			assert.Equal(t, 1, g.Ply())
			assert.Empty(t, g.BoardMessageID)
			assert.Equal(t, [2]game.Player{alice, bob}, g.Players())
			assert.Equal(t, uint64(1), g.ID)
			assert.Empty(t, g.ParentChannelID)
		})
	}
	_, err := s.Game(t.Context(), "elsewhere")
	assert.ErrorIs(t, err, storage.ErrNotFound)
}

// submit plays cell in the game of channel for the player to move, who
// saw the board at ply, as the bot does.
func submit(ctx context.Context, s Store, channel string, ply int, c engine.Cell, at time.Time) error {
	_, err := s.UpdateGame(ctx, channel, func(g *storage.Game) error { return g.Play(g.ToMove(), ply, c, at) })
	return err
}

func testStaleMoveIsRefused(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	mustCreate(t, s, "c", alice, bob)
	mustPlay(t, s, "c", "D4")

	// Both players' clients saw the board at ply 1; the second move is
	// legal on that board but checked against an old one.
	require.NoError(t, submit(t.Context(), s, "c", 1, mustCell(t, "D7"), t0))
	err := submit(t.Context(), s, "c", 1, mustCell(t, "D1"), t0)
	assert.ErrorIs(t, err, game.ErrStale)

	g, err := s.Game(t.Context(), "c")
	require.NoError(t, err)
	assert.Equal(t, []engine.Cell{mustCell(t, "D4"), mustCell(t, "D7")}, cells(g.Moves()))
}

// cells returns the cells of moves.
func cells(moves []game.Move) []engine.Cell {
	out := make([]engine.Cell, len(moves))
	for i, m := range moves {
		out[i] = m.Cell
	}
	return out
}

// TestConcurrentMoves has many goroutines submit moves to the same games
// and to different games at once, each checked against the board it read.
// Every accepted move must be stored exactly once, at the ply it was
// accepted for, and the plies must be gapless.
func testConcurrentMoves(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	const games, perGame, movesEach = 4, 4, 8
	ids := map[string]uint64{}
	for i := range games {
		channel := fmt.Sprintf("c%d", i)
		ids[channel] = mustCreate(t, s, channel, alice, bob).ID
	}

	type accepted struct {
		ply  int
		cell engine.Cell
	}
	var (
		mu   sync.Mutex
		got  = map[string][]accepted{}
		wg   sync.WaitGroup
		errs = make(chan error, games*perGame)
	)
	for i := range games * perGame {
		channel := fmt.Sprintf("c%d", i%games)
		wg.Go(func() {
			r := engine.NewRand(uint64(i) + 1)
			for done := 0; done < movesEach; {
				g, err := s.Game(t.Context(), channel)
				if errors.Is(err, storage.ErrNotFound) {
					return // the game has ended
				}
				if err != nil {
					errs <- err
					return
				}
				p := g.Position()
				cell := p.Layout().Cell(r.Pick(p.Legal()))
				err = submit(t.Context(), s, channel, g.Ply(), cell, t0)
				switch {
				case errors.Is(err, game.ErrStale):
					continue // someone moved first: read the new board
				case err != nil:
					errs <- err
					return
				}
				mu.Lock()
				got[channel] = append(got[channel], accepted{g.Ply() + 1, cell})
				mu.Unlock()
				done++
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	for channel, id := range ids {
		var moves []game.Move
		if g, err := s.Game(t.Context(), channel); err == nil {
			moves = g.Moves()
			assert.Len(t, moves, perGame*movesEach, "channel %s: every accepted move", channel)
		} else {
			f, err := s.FinishedGame(t.Context(), guild, id)
			require.NoError(t, err, "channel %s: the game is active or finished", channel)
			moves = f.Moves()
		}
		require.Len(t, got[channel], len(moves), "channel %s: the moves stored are the moves accepted", channel)
		seen := map[int]bool{}
		for _, a := range got[channel] {
			assert.False(t, seen[a.ply], "channel %s: ply %d accepted twice", channel, a.ply)
			seen[a.ply] = true
			assert.Equal(t, a.cell, moves[a.ply-1].Cell, "channel %s, ply %d", channel, a.ply)
		}
		for ply := 1; ply <= len(moves); ply++ {
			assert.True(t, seen[ply], "channel %s: ply %d is missing", channel, ply)
		}
	}
}

func testReadsAreCopies(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	mustCreate(t, s, "c", alice, bob)
	mustPlay(t, s, "c", "D4", "D7")

	a, err := s.Game(t.Context(), "c")
	require.NoError(t, err)
	require.NoError(t, play(a, mustCell(t, "F7")))
	a.Rename(engine.Red, "mallory")
	a.BoardMessageID = "1"

	b, err := s.Game(t.Context(), "c")
	require.NoError(t, err)
	assert.Equal(t, 2, b.Ply(), "a change to a game read is not stored")
	assert.Equal(t, "alice", b.Player(engine.Red).Name)
	assert.Empty(t, b.BoardMessageID)

	var inFn *storage.Game
	_, err = s.UpdateGame(t.Context(), "c", func(g *storage.Game) error {
		inFn = g
		return play(g, mustCell(t, "F7"))
	})
	require.NoError(t, err)
	assert.Equal(t, 2, b.Ply(), "a game read earlier does not change with the store")
	require.NoError(t, play(inFn, mustCell(t, "F2")))
	c, err := s.Game(t.Context(), "c")
	require.NoError(t, err)
	assert.Equal(t, 3, c.Ply(), "a change to the game after fn returned is not stored")
}

func testFinishedGameIsNoLongerActive(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	mustCreate(t, s, "b", alice, bob)
	mustCreate(t, s, "a", carol, bob)
	require.NoError(t, s.CreateChallenge(t.Context(), newChallenge("x", alice, carol)))
	mustCreate(t, s, "c", carol, alice)
	mustFinish(t, s, "c", game.Aborted, engine.Red, t0)

	all, n, err := s.GuildGames(t.Context(), guild, 10)
	require.NoError(t, err)
	require.Len(t, all, 2)
	assert.Equal(t, 2, n)
	assert.Equal(t, "a", all[0].ChannelID)
	assert.Equal(t, "b", all[1].ChannelID)
	c := counts(t, s)
	assert.Equal(t, []int{2, 1, 1}, []int{c["game"], c["challenge"], c["finished game"]})
}

func testActiveGames(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	n, err := s.ActiveGames(t.Context())
	require.NoError(t, err)
	assert.Zero(t, n, "an empty store")

	mustCreate(t, s, "a", alice, bob)
	mustCreate(t, s, "b", carol, bob)
	mustCreate(t, s, "c", carol, alice)
	require.NoError(t, s.CreateChallenge(t.Context(), newChallenge("x", alice, carol)))
	mustFinish(t, s, "c", game.Aborted, engine.Red, t0)
	n, err = s.ActiveGames(t.Context())
	require.NoError(t, err)
	assert.Equal(t, 2, n, "the games going on: neither a challenge nor a finished game")
}

func testUpdatedHook(t *testing.T, open Open) {
	var commits, failed int
	s := open(t, storage.Options{Updated: func(took time.Duration, err error) {
		assert.GreaterOrEqual(t, took, time.Duration(0))
		if err != nil {
			failed++
		} else {
			commits++
		}
	}})
	mustCreate(t, s, "a", alice, bob)
	mustPlay(t, s, "a", "D4")
	_, err := s.Game(t.Context(), "a")
	require.NoError(t, err)
	_, err = s.UpdateGame(t.Context(), "a", func(*storage.Game) error { return errors.New("no") })
	require.Error(t, err)
	assert.Equal(t, 2, commits, "a create and a move; a read is no write")
	assert.Equal(t, 1, failed, "a write that fn refused")
}
