package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
)

func runThink(ctx context.Context, e *env, args []string) error {
	fs := newFlags("think")
	levelName := fs.String("level", ai.Hard.String(), e.flagUsage("think", "level"))
	budget := fs.Duration("time", ai.DefaultTime, e.flagUsage("think", "time"))
	asJSON := fs.Bool("json", false, e.flagUsage("think", "json"))
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	name, err := e.recordName("think", rest)
	if err != nil {
		return err
	}
	level, err := e.parseLevel("--level", *levelName)
	if err != nil {
		return err
	}
	if *budget <= 0 {
		return &usageError{e.lang.T("cli.time_positive", "Time", budget.String())}
	}
	rec, err := e.loadRecord(ctx, name)
	if err != nil {
		return err
	}
	pos, err := rec.Replay()
	if err != nil {
		return fmt.Errorf("%s: %w; %s", e.displayName(name), e.illegalMove(rec, err), e.lang.T("cli.think.legal_moves"))
	}
	c := level.Config()
	c.Time = *budget
	m, err := c.Move(ctx, pos, rec.Rules)
	if errors.Is(err, engine.ErrGameOver) {
		return fmt.Errorf("%s: %s", e.displayName(name), e.lang.N("cli.think.game_over", pos.Ply()))
	}
	if err != nil {
		return err
	}
	p := e.newPrinter()
	if *asJSON {
		b, err := json.Marshal(thinkResult{Move: m.Cell.String(), ToMove: pos.ToMove().String(),
			WinChance: m.WinChance, Proven: m.Proven, Playouts: m.Playouts, Level: level.String()})
		if err != nil {
			return err
		}
		p.printf("%s\n", b)
		return p.err
	}
	p.printf("%s\n", m.Cell)
	p.line(p.lang.T("cli.think.move", "Color", p.colorName(pos.ToMove()), "Level", e.levelName(level), "Hole", m.Cell, "Chance", p.chanceText(m)))
	return p.err
}

// thinkResult is the JSON object of think --json.
type thinkResult struct {
	Move      string  `json:"move"`
	ToMove    string  `json:"to_move"`
	WinChance float64 `json:"win_chance"`
	Proven    bool    `json:"proven"`
	Playouts  int     `json:"playouts"`
	Level     string  `json:"level"`
}

// chanceText says how m rates the chances of the player to move.
func (p *printer) chanceText(m ai.Move) string {
	if m.Proven {
		return p.proven(m.WinChance)
	}
	return p.lang.N("cli.chance", m.Playouts, "Chance", p.lang.Percent(m.WinChance))
}

// proven says what a proven chance is: a win, a draw or a loss.
func (p *printer) proven(chance float64) string {
	switch chance {
	case 1:
		return p.lang.T("cli.proven_win")
	case 0:
		return p.lang.T("cli.proven_loss")
	}
	return p.lang.T("cli.proven_draw")
}
