package game_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

// assertEnded checks that g ended at time at as ending says, with winner
// the winner of a decided game, and that nothing of the clock or of draw
// offers is left.
func assertEnded(t *testing.T, g *game.Game, ending game.Ending, winner engine.Color, draw bool, at time.Time) {
	t.Helper()
	p := g.Position()
	assert.Equal(t, &game.Result{Ending: ending, Winner: winner, Draw: draw, Score: p.Score(g.Rules()), At: at}, g.Result())
	assert.True(t, g.Over())
	assert.False(t, g.Blocked())
	assert.Nil(t, g.DrawOffer())
	assert.Zero(t, g.Deadline())
	assert.Zero(t, g.Wake())
	assert.Zero(t, g.Reminders())
}

func TestResign(t *testing.T) {
	tests := []struct {
		name  string
		moves []string
		by    engine.Color
	}{
		{"red before any move", nil, engine.Red},
		{"black before any move", nil, engine.Black},
		{"the player to move", []string{"D4", "D7", "F7"}, engine.Black},
		{"the player not to move", []string{"D4", "D7", "F7"}, engine.Red},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t)
			mustPlay(t, g, tt.moves...)
			require.NoError(t, g.OfferDraw(tt.by.Other(), next(g)))
			at := next(g)
			require.NoError(t, g.Resign(tt.by, at))
			assertEnded(t, g, game.Resigned, tt.by.Other(), false, at)
			assert.Equal(t, len(tt.moves), g.Ply(), "resigning places no marble")
		})
	}
}

func TestResignAgainstTheComputer(t *testing.T) {
	g := mustNew(t, againstComputer)
	mustPlay(t, g, "D4")
	require.NoError(t, g.Resign(engine.Red, next(g)))
	assert.Equal(t, game.Lost, g.Result().Outcome(engine.Red))
	assert.Equal(t, game.Won, g.Result().Outcome(engine.Black))
}

func TestAbort(t *testing.T) {
	moves := []string{"D4", "D7", "F7", "F2"}
	for ply := 0; ply <= game.AbortPlies; ply++ {
		for _, by := range []engine.Color{engine.Red, engine.Black} {
			t.Run(fmt.Sprintf("%v at ply %d", by, ply), func(t *testing.T) {
				g := mustNew(t)
				mustPlay(t, g, moves[:ply]...)
				at := next(g)
				if ply >= game.AbortPlies {
					refuse(t, g, game.ErrTooLateToAbort, func() error { return g.Abort(by, at) })
					return
				}
				require.NoError(t, g.Abort(by, at))
				assertEnded(t, g, game.Aborted, 0, false, at)
				assert.False(t, g.Result().Rated())
			})
		}
	}
}

func TestTimeout(t *testing.T) {
	tests := []struct {
		name    string
		changes []func(*game.Config)
		moves   []string
		after   time.Duration // from the start of the turn
		loser   engine.Color
		ending  game.Ending
		err     error
	}{
		{"before the deadline", nil, []string{"D4"}, moveTime - time.Nanosecond, 0, 0, game.ErrNotDue},
		{"at the deadline", nil, []string{"D4", "D7", "F7"}, moveTime, engine.Black, game.TimedOut, nil},
		{"after the deadline", nil, []string{"D4", "D7"}, 3 * moveTime, engine.Red, game.TimedOut, nil},
		{"first player's first move", nil, nil, moveTime, engine.Red, game.Unstarted, nil},
		{"second player's first move", nil, []string{"D4"}, moveTime, engine.Black, game.Unstarted, nil},
		{"no clock", []func(*game.Config){noClock}, []string{"D4"}, 100 * moveTime, 0, 0, game.ErrNotDue},
		{"the computer's turn", []func(*game.Config){againstComputer}, []string{"D4"}, 100 * moveTime, 0, 0, game.ErrNotDue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t, tt.changes...)
			mustPlay(t, g, tt.moves...)
			at := turnStart(g).Add(tt.after)
			if tt.err != nil {
				refuse(t, g, tt.err, func() error { return g.Timeout(at) })
				return
			}
			require.NoError(t, g.Timeout(at))
			assertEnded(t, g, tt.ending, tt.loser.Other(), false, at)
			if tt.ending == game.Unstarted {
				assert.False(t, g.Result().Rated(), "a game that never started counts for nobody")
				assert.Equal(t, game.NoContest, g.Result().Outcome(tt.loser))
				assert.Equal(t, game.NoContest, g.Result().Outcome(tt.loser.Other()))
				return
			}
			assert.True(t, g.Result().Rated())
			assert.Equal(t, game.Lost, g.Result().Outcome(tt.loser))
		})
	}
}

func TestEndedGameRefusesEveryChange(t *testing.T) {
	changes := map[string]func(g *game.Game) error{
		"Play":        func(g *game.Game) error { return g.Play(g.ToMove(), g.Ply(), engine.CellAt(0, 0), next(g)) },
		"Resign":      func(g *game.Game) error { return g.Resign(engine.Red, next(g)) },
		"Abort":       func(g *game.Game) error { return g.Abort(engine.Red, next(g)) },
		"Timeout":     func(g *game.Game) error { return g.Timeout(next(g).Add(100 * moveTime)) },
		"Remind":      func(g *game.Game) error { return g.Remind(next(g).Add(100 * moveTime)) },
		"OfferDraw":   func(g *game.Game) error { return g.OfferDraw(engine.Red, next(g)) },
		"AnswerDraw":  func(g *game.Game) error { return g.AnswerDraw(engine.Black, g.Ply(), true, next(g)) },
		"DeclineDraw": func(g *game.Game) error { return g.AnswerDraw(engine.Black, g.Ply(), false, next(g)) },
		"Adjudicate":  func(g *game.Game) error { return g.Adjudicate(engine.Red, false, next(g)) },
	}
	for name, g := range sampleGames(t) {
		if !g.Over() {
			continue
		}
		for method, change := range changes {
			t.Run(name+"/"+method, func(t *testing.T) {
				refuse(t, g, engine.ErrGameOver, func() error { return change(g) })
			})
		}
	}
}

func TestEndingRefusedInvalid(t *testing.T) {
	tests := []struct {
		name   string
		change func(*game.Game) error
	}{
		{"resign without a time", func(g *game.Game) error { return g.Resign(engine.Red, time.Time{}) }},
		{"abort without a time", func(g *game.Game) error { return g.Abort(engine.Red, time.Time{}) }},
		{"resign by no colour", func(g *game.Game) error { return g.Resign(2, next(g)) }},
		{"adjudicate without a time", func(g *game.Game) error { return g.Adjudicate(engine.Red, false, time.Time{}) }},
		{"adjudicate for no colour", func(g *game.Game) error { return g.Adjudicate(2, false, next(g)) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t)
			refuse(t, g, game.ErrInvalid, func() error { return tt.change(g) })
		})
	}
}

func TestAbandon(t *testing.T) {
	g := mustNew(t)
	mustPlay(t, g, "D4", "D7", "F7", "F2", "A2")
	at := next(g)
	require.NoError(t, g.Abandon(at))
	r := g.Result()
	require.NotNil(t, r)
	assert.Equal(t, game.Abandoned, r.Ending)
	assert.False(t, r.Rated(), "an abandoned game counts for nobody")
	assert.Equal(t, game.NoContest, r.Outcome(engine.Red))
	assert.Equal(t, "Abandoned", r.String())
	assert.True(t, r.At.Equal(at))
	assert.Zero(t, g.Deadline(), "no clock runs after the end")
	refuse(t, g, engine.ErrGameOver, func() error { return g.Abandon(at) })
	back, err := game.Restore(g.State())
	require.NoError(t, err, "an abandoned game restores")
	assert.Equal(t, g.State(), back.State())
}

func TestAdjudicate(t *testing.T) {
	tests := []struct {
		name   string
		moves  []string
		winner engine.Color
		draw   bool
		str    string
	}{
		{"red wins before any move", nil, engine.Red, false, "Red wins by adjudication"},
		{"black wins, red to move", []string{"D4", "D7"}, engine.Black, false, "Black wins by adjudication"},
		{"red wins, black to move", []string{"D4", "D7", "F7"}, engine.Red, false, "Red wins by adjudication"},
		{"drawn", []string{"D4", "D7", "F7", "F2", "A2"}, engine.Black, true, "Draw by adjudication"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := mustNew(t)
			mustPlay(t, g, tt.moves...)
			require.NoError(t, g.OfferDraw(g.ToMove().Other(), next(g)))
			at := next(g)
			require.NoError(t, g.Adjudicate(tt.winner, tt.draw, at))
			winner := tt.winner
			if tt.draw {
				winner = 0 // the zero colour: a draw has no winner
			}
			assertEnded(t, g, game.Adjudicated, winner, tt.draw, at)
			r := g.Result()
			assert.Equal(t, tt.str, r.String())
			tag, _ := g.Record().Tag("Result")
			assert.Equal(t, tt.str, tag, "the record's Result tag says it")
			assert.True(t, r.Rated(), "an adjudicated game counts for the ratings")
			if tt.draw {
				assert.Equal(t, game.Drawn, r.Outcome(engine.Red))
				assert.Equal(t, game.Drawn, r.Outcome(engine.Black))
			} else {
				assert.Equal(t, game.Won, r.Outcome(tt.winner))
				assert.Equal(t, game.Lost, r.Outcome(tt.winner.Other()))
			}
			assert.Equal(t, len(tt.moves), g.Ply(), "adjudicating places no marble")
			refuse(t, g, engine.ErrGameOver, func() error { return g.Adjudicate(tt.winner, tt.draw, at) })
			back, err := game.Restore(g.State())
			require.NoError(t, err, "an adjudicated game restores")
			assert.Equal(t, g.State(), back.State())
		})
	}
}
