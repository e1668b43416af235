package storagetest

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// testPlayingOverDays stores a game with the comforts of a game played
// over days (an increment clock, weekend pause, quiet hours, claims, a
// plan, a player away) and reads each change back as it was made; the
// planned reply is played in the transaction of the move that sets it
// off, and the claimed win and the plan stay with the finished game.
func testPlayingOverDays(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	paris, err := time.LoadLocation("Europe/Paris")
	require.NoError(t, err)
	cfg := squareConfig(alice, bob)
	cfg.MoveTime, cfg.Increment, cfg.Weekends, cfg.Timeouts = 72*time.Hour, 24*time.Hour, true, game.Claim
	cfg.Zones[engine.Red], cfg.Quiet[engine.Black] = paris, game.Quiet{From: 22, To: 8}
	g := mustNewGame(t, "days", cfg)
	require.NoError(t, s.CreateGame(ctx, g))
	roundTrip := func(want *storage.Game) {
		t.Helper()
		got, err := s.Game(ctx, "days")
		require.NoError(t, err)
		assert.Equal(t, want.State(), got.State())
		assert.Equal(t, want.Wake(), got.Wake())
	}
	roundTrip(g)

	var line game.Line
	g, err = s.UpdateGame(ctx, "days", func(g *storage.Game) error {
		p := g.Position()
		if err := g.Play(engine.Red, g.Ply(), firstLegal(p), t0.Add(time.Hour)); err != nil {
			return err
		}
		p = g.Position()
		theirs := firstLegal(p)
		require.NoError(t, p.Play(theirs))
		line = game.Line{theirs, firstLegal(p)}
		return g.SetPlan(engine.Red, []game.Line{line}, t0.Add(time.Hour))
	})
	require.NoError(t, err)
	assert.Equal(t, []game.Line{line}, g.Plan(engine.Red))
	roundTrip(g)

	g, err = s.UpdateGame(ctx, "days", func(g *storage.Game) error { return g.Away(engine.Black, t0.Add(2*time.Hour)) })
	require.NoError(t, err)
	_, stopped := g.Stopped()
	require.True(t, stopped, "bob's clock stopped while he is away")
	roundTrip(g)

	back := t0.Add(5 * 24 * time.Hour)
	g, err = s.UpdateGame(ctx, "days", func(g *storage.Game) error {
		if err := g.Back(engine.Black, back); err != nil {
			return err
		}
		return g.Play(engine.Black, g.Ply(), line[0], back.Add(time.Hour))
	})
	require.NoError(t, err)
	moves := g.Moves()
	require.Len(t, moves, 3, "the planned reply was played with the move")
	assert.True(t, moves[2].Planned)
	roundTrip(g)

	g, err = s.UpdateGame(ctx, "days", func(g *storage.Game) error { return g.Timeout(g.Deadline()) })
	require.NoError(t, err)
	require.False(t, g.Over(), "a game of claims waits for the claim")
	roundTrip(g)
	g, err = s.UpdateGame(ctx, "days", func(g *storage.Game) error { return g.Claim(engine.Red, g.Deadline().Add(time.Hour)) })
	require.NoError(t, err)
	f, err := s.FinishedGame(ctx, guild, g.ID)
	require.NoError(t, err)
	assert.Equal(t, g.State(), f.State())
	assert.True(t, f.Result().Claimed)
	assert.Contains(t, f.RecordText, `[Result "Red wins, Black ran out of time (claimed)"]`)
	assert.Len(t, f.PlanLog(), 1, "the plan is kept for review and export")
	h, err := s.History(ctx, guild, bob.UserID, 1, 0)
	require.NoError(t, err)
	require.Len(t, h, 1)
	assert.True(t, h[0].Claimed, "history says the win was claimed")
	assert.Equal(t, game.MoveTime{Start: 72 * time.Hour, Increment: 24 * time.Hour, Kind: game.WholeGame}, h[0].Clock, "history keeps the clock and its kind")
}

// firstLegal returns the first legal hole of p.
func firstLegal(p engine.Position) engine.Cell { return p.Legal().Cells(p.Layout())[0] }
