package game_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

func TestOfferDraw(t *testing.T) {
	for _, by := range []engine.Color{engine.Red, engine.Black} {
		t.Run(by.String(), func(t *testing.T) {
			g := mustNew(t)
			mustPlay(t, g, "D4")
			before := g.State()
			require.NoError(t, g.OfferDraw(by, next(g)))
			assert.Equal(t, &game.DrawOffer{By: by, Ply: 1}, g.DrawOffer())
			after := g.State()
			after.DrawOffer = nil
			assert.Equal(t, before, after, "an offer changes nothing else: not the clock")
		})
	}
}

func TestDrawRefused(t *testing.T) {
	tests := []struct {
		name     string
		computer bool // the game is against the computer
		setup    func(*testing.T, *game.Game)
		change   func(*game.Game) error
		want     error
	}{
		{"offer to the computer", true, nil,
			func(g *game.Game) error { return g.OfferDraw(engine.Red, next(g)) }, game.ErrComputerDeclines},
		{"second offer by the same player", false, offer(engine.Red),
			func(g *game.Game) error { return g.OfferDraw(engine.Red, next(g)) }, game.ErrDrawOffered},
		{"counter-offer", false, offer(engine.Red),
			func(g *game.Game) error { return g.OfferDraw(engine.Black, next(g)) }, game.ErrDrawOffered},
		{"accept without an offer", false, nil,
			func(g *game.Game) error { return g.AnswerDraw(engine.Black, g.Ply(), true, next(g)) }, game.ErrNoDrawOffer},
		{"decline without an offer", false, nil,
			func(g *game.Game) error { return g.AnswerDraw(engine.Black, g.Ply(), false, next(g)) }, game.ErrNoDrawOffer},
		{"accept after a move", false, func(t *testing.T, g *game.Game) {
			offer(engine.Red)(t, g)
			mustPlay(t, g, "D7")
		}, func(g *game.Game) error { return g.AnswerDraw(engine.Black, 1, true, next(g)) }, game.ErrNoDrawOffer},
		{"accept the offer of another ply", false, offer(engine.Red),
			func(g *game.Game) error { return g.AnswerDraw(engine.Black, 0, true, next(g)) }, game.ErrNoDrawOffer},
		{"accept one's own offer", false, offer(engine.Red),
			func(g *game.Game) error { return g.AnswerDraw(engine.Red, 1, true, next(g)) }, game.ErrOwnDrawOffer},
		{"answer a declined offer", false, func(t *testing.T, g *game.Game) {
			offer(engine.Red)(t, g)
			require.NoError(t, g.AnswerDraw(engine.Black, 1, false, next(g)))
		}, func(g *game.Game) error { return g.AnswerDraw(engine.Black, 1, true, next(g)) }, game.ErrNoDrawOffer},
		{"accept without a time", false, offer(engine.Red),
			func(g *game.Game) error { return g.AnswerDraw(engine.Black, 1, true, time.Time{}) }, game.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t)
			if tt.computer {
				g = mustNew(t, againstComputer)
			}
			mustPlay(t, g, "D4")
			if tt.setup != nil {
				tt.setup(t, g)
			}
			refuse(t, g, tt.want, func() error { return tt.change(g) })
		})
	}
}

// offer returns a setup in which the player of colour by offers a draw.
func offer(by engine.Color) func(*testing.T, *game.Game) {
	return func(t *testing.T, g *game.Game) {
		t.Helper()
		require.NoError(t, g.OfferDraw(by, next(g)))
	}
}

func TestComputerDeclinesEitherWay(t *testing.T) {
	g := mustNew(t, func(c *game.Config) { c.Players = [2]game.Player{computer, alice} })
	refuse(t, g, game.ErrComputerDeclines, func() error { return g.OfferDraw(engine.Black, next(g)) })
}

func TestDeclineDraw(t *testing.T) {
	tests := []struct {
		name string
		by   engine.Color // who declines; Red offered
	}{
		{"the opponent declines", engine.Black},
		{"the offerer takes it back", engine.Red},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t)
			mustPlay(t, g, "D4")
			before := g.State()
			require.NoError(t, g.OfferDraw(engine.Red, next(g)))
			require.NoError(t, g.AnswerDraw(tt.by, 1, false, next(g)))
			assert.Nil(t, g.DrawOffer())
			assert.Equal(t, before, g.State())
			assert.False(t, g.Over())
			require.NoError(t, g.OfferDraw(engine.Black, next(g)), "a new offer may be made")
		})
	}
}

func TestAcceptDraw(t *testing.T) {
	for _, by := range []engine.Color{engine.Red, engine.Black} {
		t.Run("offered by "+by.String(), func(t *testing.T) {
			g := mustNew(t)
			mustPlay(t, g, "D4", "D7")
			require.NoError(t, g.OfferDraw(by, next(g)))
			at := next(g)
			require.NoError(t, g.AnswerDraw(by.Other(), 2, true, at))
			assertEnded(t, g, game.DrawAgreed, 0, true, at)
			r := g.Result()
			assert.Equal(t, game.Drawn, r.Outcome(engine.Red))
			assert.Equal(t, game.Drawn, r.Outcome(engine.Black))
			assert.True(t, r.Rated())
			assert.Equal(t, "Draw by agreement", r.String())
		})
	}
}
