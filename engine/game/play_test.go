package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

func TestPlayRefused(t *testing.T) {
	// After D4 (panel i: D4 E4 D5 E5) and D7 (panel q: D7 E7 D8 E8) on
	// the square board, Red must play in row 7 or column D, on neither
	// panel.
	tests := []struct {
		name string
		by   engine.Color
		seen int // the ply the player saw, from the current one
		cell string
		want error
	}{
		{"stale board", engine.Red, -1, "F7", game.ErrStale},
		{"board from the future", engine.Red, +1, "F7", game.ErrStale},
		{"not your turn", engine.Black, 0, "F7", game.ErrNotYourTurn},
		{"not a colour", 2, 0, "F7", game.ErrNotYourTurn},
		{"off the board", engine.Red, 0, "J10", engine.ErrOffBoard},
		{"occupied", engine.Red, 0, "D7", engine.ErrOccupied},
		{"not in line", engine.Red, 0, "A1", engine.ErrNotInLine},
		{"same panel", engine.Red, 0, "E7", engine.ErrSamePanel},
		{"previous panel", engine.Red, 0, "D5", engine.ErrPreviousPanel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t)
			mustPlay(t, g, "D4", "D7")
			refuse(t, g, tt.want, func() error {
				return g.Play(tt.by, g.Ply()+tt.seen, mustCell(t, tt.cell), next(g))
			})
		})
	}
}

func TestPlayRefusedOffIrregularBoard(t *testing.T) {
	l := engine.RandomIrregular(1)
	g := mustNew(t, func(c *game.Config) { c.Layout = l })
	for row := range engine.MaxSide {
		for col := range engine.MaxSide {
			c := engine.CellAt(col, row)
			if _, ok := l.HoleAt(c); !ok {
				t.Run(c.String(), func(t *testing.T) {
					refuse(t, g, engine.ErrOffBoard, func() error { return g.Play(engine.Red, 0, c, next(g)) })
				})
			}
		}
	}
}

func TestPlayAfterTheEnd(t *testing.T) {
	for name, g := range sampleGames(t) {
		if !g.Over() {
			continue
		}
		t.Run(name, func(t *testing.T) {
			refuse(t, g, engine.ErrGameOver, func() error {
				return g.Play(g.ToMove(), g.Ply(), mustCell(t, "A1"), next(g))
			})
		})
	}
}

func TestPlay(t *testing.T) {
	g := mustNew(t)
	at := t0.Add(time.Hour)
	require.NoError(t, g.Play(engine.Red, 0, mustCell(t, "D4"), at))

	assert.Equal(t, []game.Move{{Cell: mustCell(t, "D4"), At: at}}, g.Moves())
	assert.Equal(t, 1, g.Ply())
	assert.Equal(t, engine.Black, g.ToMove())
	assert.Equal(t, at.Add(moveTime), g.Deadline(), "the opponent's clock runs from the move")
	p := g.Position()
	last, _ := p.Last()
	assert.Equal(t, mustCell(t, "D4"), g.Layout().Cell(last))
	assert.False(t, g.Over())
	assert.Nil(t, g.Result())
}

func TestPlayRestartsTheClock(t *testing.T) {
	g := mustNew(t)
	mustPlay(t, g, "D4")
	require.NoError(t, g.Remind(g.Deadline()))
	require.Equal(t, 2, g.Reminders())

	at := g.Deadline().Add(-time.Second)
	require.NoError(t, g.Play(engine.Black, 1, mustCell(t, "D7"), at))
	assert.Equal(t, at.Add(moveTime), g.Deadline())
	assert.Zero(t, g.Reminders(), "a move resets the reminders")
	assert.Equal(t, at.Add(moveTime/2), g.Wake(), "the first reminder of the new turn")
}

func TestPlayAgainstTheComputer(t *testing.T) {
	g := mustNew(t, againstComputer)
	mustPlay(t, g, "D4")
	assert.Zero(t, g.Deadline(), "the computer has no clock")
	assert.Equal(t, turnStart(g).Add(game.ComputerGrace), g.Wake(), "the scheduler checks on the computer")

	at := g.Moves()[0].At.Add(time.Second)
	require.NoError(t, g.Play(engine.Black, 1, mustCell(t, "D7"), at))
	assert.Equal(t, at.Add(moveTime), g.Deadline(), "the person's clock runs again")
}

func TestPlayWithdrawsTheDrawOffer(t *testing.T) {
	for _, by := range []engine.Color{engine.Red, engine.Black} {
		t.Run(by.String(), func(t *testing.T) {
			g := mustNew(t)
			mustPlay(t, g, "D4")
			require.NoError(t, g.OfferDraw(by, next(g)))
			require.NotNil(t, g.DrawOffer())
			mustPlay(t, g, "D7")
			assert.Nil(t, g.DrawOffer())
			assert.Nil(t, g.State().DrawOffer)
			assert.ErrorIs(t, g.AnswerDraw(by.Other(), 1, true, next(g)), game.ErrNoDrawOffer)
		})
	}
}

func TestPlayEndsTheGame(t *testing.T) {
	tests := []struct {
		name    string
		full    bool
		layout  *engine.Layout
		rules   engine.Rules
		blocked bool
	}{
		{"all marbles placed", true, engine.Square(), engine.Full, false},
		{"next player blocked", false, engine.Square(), engine.Full, true},
		{"blocked on an irregular board", false, engine.RandomIrregular(5), engine.Area, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			moves := findGame(t, tt.layout, tt.full)
			g := mustNew(t, func(c *game.Config) { c.Layout, c.Rules = tt.layout, tt.rules })
			last := len(moves) - 1
			mustPlayCells(t, g, moves[:last])
			require.False(t, g.Over())
			require.NoError(t, g.OfferDraw(g.ToMove(), next(g)))

			at := next(g)
			require.NoError(t, g.Play(g.ToMove(), g.Ply(), moves[last], at))
			require.True(t, g.Over())
			assert.Equal(t, tt.blocked, g.Blocked())
			assert.Equal(t, tt.blocked, g.Ply() < engine.MaxPly)
			p := g.Position()
			assert.Zero(t, p.Legal().Len())

			r := g.Result()
			require.NotNil(t, r)
			score := p.Score(tt.rules)
			winner, decided := score.Winner()
			assert.Equal(t, &game.Result{Ending: game.Normal, Winner: winner, Draw: !decided, Score: score, At: at}, r)
			assert.Nil(t, g.DrawOffer(), "the end withdraws the draw offer")
			assert.Zero(t, g.Deadline())
			assert.Zero(t, g.Wake())
			assert.Zero(t, g.Reminders())
		})
	}
}

func TestPlayEndingRefusedWithoutTime(t *testing.T) {
	moves := findGame(t, engine.Square(), false)
	g := mustNew(t)
	last := len(moves) - 1
	mustPlayCells(t, g, moves[:last])
	refuse(t, g, game.ErrInvalid, func() error { return g.Play(g.ToMove(), g.Ply(), moves[last], time.Time{}) })
}

func TestCheckTurn(t *testing.T) {
	g := mustNew(t)
	assert.NoError(t, g.CheckTurn(engine.Red), "red moves first")
	assert.ErrorIs(t, g.CheckTurn(engine.Black), game.ErrNotYourTurn)
	mustPlay(t, g, "D4")
	assert.NoError(t, g.CheckTurn(engine.Black))
	assert.ErrorIs(t, g.CheckTurn(engine.Red), game.ErrNotYourTurn)
	require.NoError(t, g.Resign(engine.Red, next(g)))
	assert.ErrorIs(t, g.CheckTurn(engine.Black), engine.ErrGameOver)
}
