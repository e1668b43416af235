package storage

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCreateGame(t *testing.T) {
	s := mustOpen(t, Options{})
	g := newGame("c1", alice, bob)
	g.Layout = "zzyxxwvv/zzyxxwvv/zzyuuuvv/tssrrqqp/tssrrqqp/oonnnmkk/oojiimkk/oojiimkk"
	require.NoError(t, s.CreateGame(g))
	assert.Equal(t, uint64(1), g.ID)
	assert.Equal(t, engine.SquareString, g.Layout, "the layout is stored canonical")

	got, err := s.Game("c1")
	require.NoError(t, err)
	assert.Equal(t, g.ID, got.ID)
	assert.Equal(t, g.Players, got.Players)
	assert.True(t, g.Created.Equal(got.Created))

	second := mustCreate(t, s, "c2", alice, carol)
	assert.Equal(t, uint64(2), second.ID, "IDs are unique")
}

func TestCreateGameRefuses(t *testing.T) {
	s := mustOpen(t, Options{})
	mustCreate(t, s, "game", alice, bob)
	require.NoError(t, s.CreateChallenge(newChallenge("challenge", alice, bob)))

	tests := []struct {
		name string
		g    *Game
		want error
		msg  string
	}{
		{"channel with a game", newGame("game", carol, bob), ErrChannelBusy, "a game is going on there"},
		{"channel with a challenge", newGame("challenge", carol, bob), ErrChannelBusy, "a challenge is open there"},
		{"invalid game", newGame("free", alice, alice), ErrInvalid, "cannot play against themself"},
		{"finished game", func() *Game {
			g := newGame("free", alice, bob)
			g.Result = &Result{Ending: Aborted, At: t0}
			return g
		}(), ErrInvalid, "a new game cannot have a result"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := s.CreateGame(tt.g)
			assert.ErrorIs(t, err, tt.want)
			assert.ErrorContains(t, err, tt.msg)
			assert.ErrorContains(t, err, "channel "+tt.g.ChannelID)
			assert.Zero(t, tt.g.ID, "a refused game gets no ID")
		})
	}
	n, err := s.Counts()
	require.NoError(t, err)
	assert.Equal(t, Counts{Games: 1, Challenges: 1}, n, "refusals store nothing")
	third := mustCreate(t, s, "free", alice, bob)
	assert.Equal(t, uint64(2), third.ID, "refusals use up no ID")
}

func TestGameNotFound(t *testing.T) {
	s := mustOpen(t, Options{})
	_, err := s.Game("nowhere")
	assert.ErrorIs(t, err, ErrNotFound)
	_, err = s.UpdateGame("nowhere", func(*Game) error { return nil })
	assert.ErrorIs(t, err, ErrNotFound)
	assert.ErrorContains(t, err, "channel nowhere")
}

func TestUpdateGame(t *testing.T) {
	s := mustOpen(t, Options{})
	mustCreate(t, s, "c", alice, bob)

	g, err := s.UpdateGame("c", func(g *Game) error {
		g.BoardMessageID = "555"
		g.Deadline = t0.Add(time.Hour)
		g.Players[engine.Black].Name = "Bob"
		_, err := g.Play(mustCell(t, "D4"), t0)
		return err
	})
	require.NoError(t, err)
	assert.Equal(t, 1, g.Ply())

	stored, err := s.Game("c")
	require.NoError(t, err)
	assert.Equal(t, "555", stored.BoardMessageID)
	assert.Equal(t, "Bob", stored.Players[engine.Black].Name, "a player's name may change")
	assert.True(t, stored.Deadline.Equal(t0.Add(time.Hour)))
	assert.Equal(t, g.Moves[0].Cell, stored.Moves[0].Cell)
}

func TestUpdateGameWritesNothingOnError(t *testing.T) {
	s := mustOpen(t, Options{})
	mustCreate(t, s, "c", alice, bob)
	mustPlay(t, s, "c", "D4")

	boom := errors.New("boom")
	tests := []struct {
		name string
		fn   func(*Game) error
		want error
		msg  string
	}{
		{"fn fails", func(g *Game) error {
			g.Moves = nil
			return boom
		}, boom, "boom"},
		{"stale", func(g *Game) error {
			g.BoardMessageID = "x"
			return ErrStale
		}, ErrStale, "the game has changed since the move was checked"},
		{"illegal move", func(g *Game) error {
			g.Moves = append(g.Moves, Move{Cell: mustCell(t, "E5"), At: t0})
			return nil
		}, ErrInvalid, "move 2 (E5): the move must be in the row or column of the last marble"},
		{"new player", func(g *Game) error {
			g.Players[engine.Black] = carol
			return nil
		}, ErrInvalid, "the players may not change (only their names)"},
		{"new layout", func(g *Game) error {
			g.Layout = engine.RandomSquare(1).String()
			return nil
		}, ErrInvalid, "the ID, place, layout, rules, first colour and creation time may not change"},
		{"new ID", func(g *Game) error {
			g.ID++
			return nil
		}, ErrInvalid, "may not change"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.UpdateGame("c", tt.fn)
			assert.ErrorIs(t, err, tt.want)
			assert.ErrorContains(t, err, tt.msg)
			g, err := s.Game("c")
			require.NoError(t, err)
			assert.Len(t, g.Moves, 1)
			assert.Empty(t, g.BoardMessageID)
			assert.Equal(t, [2]Player{alice, bob}, g.Players)
		})
	}
}

// submit plays cell in the game of channel for a player who saw the
// board at ply, as the bot does.
func submit(s *Store, channel string, ply int, c engine.Cell, at time.Time) error {
	_, err := s.UpdateGame(channel, func(g *Game) error {
		if g.Ply() != ply {
			return ErrStale
		}
		_, err := g.Play(c, at)
		return err
	})
	return err
}

func TestStaleMoveIsRefused(t *testing.T) {
	s := mustOpen(t, Options{})
	mustCreate(t, s, "c", alice, bob)
	mustPlay(t, s, "c", "D4")

	// Both players' clients saw the board at ply 1; the second move is
	// legal on that board but checked against an old one.
	require.NoError(t, submit(s, "c", 1, mustCell(t, "D7"), t0))
	err := submit(s, "c", 1, mustCell(t, "D1"), t0)
	assert.ErrorIs(t, err, ErrStale)

	g, err := s.Game("c")
	require.NoError(t, err)
	assert.Equal(t, []engine.Cell{mustCell(t, "D4"), mustCell(t, "D7")}, cells(g.Moves))
}

// cells returns the cells of moves.
func cells(moves []Move) []engine.Cell {
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
func TestConcurrentMoves(t *testing.T) {
	s := mustOpen(t, Options{})
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
				g, err := s.Game(channel)
				if errors.Is(err, ErrNotFound) {
					return // the game has ended
				}
				if err != nil {
					errs <- err
					return
				}
				p, err := g.Position()
				if err != nil {
					errs <- err
					return
				}
				cell := p.Layout().Cell(r.Pick(p.Legal()))
				err = submit(s, channel, g.Ply(), cell, t0)
				switch {
				case errors.Is(err, ErrStale):
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
		var moves []Move
		if g, err := s.Game(channel); err == nil {
			moves = g.Moves
			assert.Len(t, moves, perGame*movesEach, "channel %s: every accepted move", channel)
		} else {
			f, err := s.FinishedGame(guild, id)
			require.NoError(t, err, "channel %s: the game is active or finished", channel)
			moves = f.Moves
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

func TestReadsAreCopies(t *testing.T) {
	s := mustOpen(t, Options{})
	mustCreate(t, s, "c", alice, bob)
	mustPlay(t, s, "c", "D4", "D7")

	a, err := s.Game("c")
	require.NoError(t, err)
	a.Moves[0].Cell = mustCell(t, "A1")
	a.Players[0].Name = "mallory"

	b, err := s.Game("c")
	require.NoError(t, err)
	assert.Equal(t, mustCell(t, "D4"), b.Moves[0].Cell)
	assert.Equal(t, "alice", b.Players[0].Name)

	mustPlay(t, s, "c", "F7")
	assert.Len(t, b.Moves, 2, "a game read earlier does not change with the store")

	all, err := s.ActiveGames()
	require.NoError(t, err)
	require.Len(t, all, 1)
	all[0].Moves = nil
	c, err := s.Game("c")
	require.NoError(t, err)
	assert.Len(t, c.Moves, 3)
}

func TestActiveGamesAndCounts(t *testing.T) {
	s := mustOpen(t, Options{})
	mustCreate(t, s, "b", alice, bob)
	mustCreate(t, s, "a", carol, bob)
	require.NoError(t, s.CreateChallenge(newChallenge("x", alice, carol)))
	mustCreate(t, s, "c", carol, alice)
	mustFinish(t, s, "c", Aborted, engine.Red, t0)

	all, err := s.ActiveGames()
	require.NoError(t, err)
	require.Len(t, all, 2)
	assert.Equal(t, "a", all[0].ChannelID)
	assert.Equal(t, "b", all[1].ChannelID)
	n, err := s.Counts()
	require.NoError(t, err)
	assert.Equal(t, Counts{Games: 2, Challenges: 1}, n)
}
