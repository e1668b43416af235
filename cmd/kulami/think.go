package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
)

const thinkDoc = `Think reads a game record (RECORD.md) from FILE, or from standard input
when FILE is "-" or missing, and prints the move the computer opponent
would play in the position after the record's last move, scored under the
record's Scoring rules, with its estimated chance to win (a draw counting
half). It is for analysing games and for pitting the computer against
other Kulami programs: the first line is the move alone.

--level picks the opponent (easy, medium, hard) and --time its budget; a
"proven" result comes from an exact search to the end of the game.

With --json, think prints one JSON object on one line:

  {"move":"D4","to_move":"red"|"black","win_chance":x,"proven":bool,
   "playouts":n,"level":"hard"}

A record that cannot be read, one with an illegal move, or one whose game
is over gives exit status 1 and one line on standard error.
`

func runThink(ctx context.Context, e *env, args []string) error {
	fs := newFlags("think")
	levelName := fs.String("level", ai.Hard.String(), "the `level` of the computer opponent: easy, medium or hard")
	budget := fs.Duration("time", ai.DefaultTime, "the `budget` for the move, such as 500ms or 2s")
	asJSON := fs.Bool("json", false, "print one JSON object on one line")
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	name, err := recordName("think", rest)
	if err != nil {
		return err
	}
	level, err := ai.ParseLevel(*levelName)
	if err != nil {
		return usagef("--level: %v", err)
	}
	if *budget <= 0 {
		return usagef("--time must be more than 0, such as 500ms or 2s, not %s", *budget)
	}
	rec, err := e.loadRecord(ctx, name)
	if err != nil {
		return err
	}
	pos, err := rec.Replay()
	if err != nil {
		return fmt.Errorf("%s: %w; think needs a record of legal moves", displayName(name), err)
	}
	c := level.Config()
	c.Time = *budget
	m, err := c.Move(ctx, pos, rec.Rules)
	if errors.Is(err, engine.ErrGameOver) {
		return fmt.Errorf("%s: the game is over after %d moves; there is no move to think about", displayName(name), pos.Ply())
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
	p.printf("%s\n%s to move; %s plays %s: %s\n", m.Cell, pos.ToMove().Title(), level, m.Cell, chanceText(m))
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
func chanceText(m ai.Move) string {
	if m.Proven {
		switch {
		case m.WinChance == 1:
			return "a proven win"
		case m.WinChance == 0:
			return "a proven loss"
		}
		return "a proven draw"
	}
	return fmt.Sprintf("%.0f%% to win (%d playouts)", 100*m.WinChance, m.Playouts)
}
