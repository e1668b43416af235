package bot

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

func TestWithLine(t *testing.T) {
	c := func(s string) engine.Cell {
		cell, err := engine.ParseCell(s)
		require.NoError(t, err)
		return cell
	}
	ab, cd := game.Line{c("A1"), c("B1")}, game.Line{c("C1"), c("D1")}
	abef := game.Line{c("A1"), c("B1"), c("E1"), c("F1")}
	for _, tt := range []struct {
		name  string
		lines []game.Line
		add   game.Line
		want  []game.Line
	}{
		{"to no plan", nil, ab, []game.Line{ab}},
		{"beside another", []game.Line{cd}, ab, []game.Line{cd, ab}},
		{"extends a line: replaces it", []game.Line{ab, cd}, abef, []game.Line{cd, abef}},
		{"the start of a line: already there", []game.Line{abef}, ab, []game.Line{abef}},
		{"the same line", []game.Line{ab}, ab, []game.Line{ab}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, withLine(tt.lines, tt.add))
		})
	}
}

// TestPlanReview: a review lists the last plans of its game, each with
// its lines, and how many more there were; nothing for a game without
// plans.
func TestPlanReview(t *testing.T) {
	t0 := time.Date(2026, 11, 22, 9, 0, 0, 0, time.UTC)
	alice, bob := game.Player{UserID: "1", Name: "alice"}, game.Player{UserID: "2", Name: "bob"}
	g, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Basic, Players: [2]game.Player{alice, bob}, MoveTime: 24 * time.Hour}, t0)
	require.NoError(t, err)
	f := &storage.FinishedGame{Game: storage.Game{Game: g}}
	require.NoError(t, g.Resign(engine.Red, t0))
	assert.Empty(t, planReview(i18n.English, f), "no plans, no section")

	g, err = game.New(game.Config{Layout: engine.Square(), Rules: engine.Basic, Players: [2]game.Player{alice, bob}, MoveTime: 24 * time.Hour}, t0)
	require.NoError(t, err)
	var first game.Line
	for k := range reviewedPlans + 2 {
		p := g.Position()
		require.NoError(t, g.Play(g.ToMove(), g.Ply(), p.Legal().Cells(p.Layout())[0], t0))
		p = g.Position()
		x := p.Legal().Cells(p.Layout())[0]
		require.NoError(t, p.Play(x))
		line := game.Line{x, p.Legal().Cells(p.Layout())[0]}
		if k == 0 {
			first = line
		}
		require.NoError(t, g.SetPlan(g.ToMove().Other(), []game.Line{line}, t0))
	}
	require.NoError(t, g.Resign(engine.Red, t0))
	f = &storage.FinishedGame{Game: storage.Game{Game: g}}
	text := planReview(i18n.English, f)
	assert.Contains(t, text, "**Plans** (private while the game went on):")
	assert.Contains(t, text, "… and 2 plans more")
	assert.NotContains(t, text, "after move 1: "+lineWords(i18n.English, first), "only the last plans")
	assert.Contains(t, text, "alice after move 5: if ")
}
