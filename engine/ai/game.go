package ai

import (
	"context"
	"fmt"
	"time"

	"github.com/kulami/kulami/engine"
)

// Game is a finished game between two players.
type Game struct {
	Record *engine.Record // the moves, with the Result tag
	Final  engine.Position
	Score  engine.Score
	// Slowest is the longest any one move took, per colour.
	Slowest [2]time.Duration
	// Thought is the time all moves took, and Moves their number, per
	// colour.
	Thought [2]time.Duration
	Moves   [2]int
}

// PlayGame plays a game on layout l under rules, first moving first,
// between the players of players (indexed by engine.Color), and returns it.
// It returns the first error of a player, or an error if a player chose an
// illegal move.
func PlayGame(ctx context.Context, l *engine.Layout, first engine.Color, rules engine.Rules, players [2]Player) (*Game, error) {
	g := &Game{Record: engine.NewRecord(l, first, rules), Final: engine.NewPosition(l, first)}
	for !g.Final.IsOver() {
		c := g.Final.ToMove()
		begin := time.Now()
		m, err := players[c].Move(ctx, g.Final, rules)
		if err != nil {
			return nil, fmt.Errorf("%s's move %d: %w", c, g.Final.Ply()+1, err)
		}
		took := time.Since(begin)
		g.Slowest[c] = max(g.Slowest[c], took)
		g.Thought[c] += took
		g.Moves[c]++
		if err := g.Final.Play(m.Cell); err != nil {
			return nil, fmt.Errorf("%s's move %d (%s): %w", c, g.Final.Ply()+1, m.Cell, err)
		}
		g.Record.Moves = append(g.Record.Moves, m.Cell.String())
	}
	g.Score = g.Final.Score(rules)
	g.Record.SetTag("Result", result(g.Score))
	return g, nil
}

// result writes a score as RECORD.md's Result tag does: "Red 35-29",
// "Draw 32-32".
func result(s engine.Score) string {
	w, ok := s.Winner()
	if !ok {
		return fmt.Sprintf("Draw %d-%d", s[engine.Red].Total, s[engine.Black].Total)
	}
	return fmt.Sprintf("%s %d-%d", w.Title(), s[w].Total, s[w.Other()].Total)
}
