package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/kulami/kulami/engine"
)

func runReplay(ctx context.Context, e *env, args []string) error {
	fs := newFlags("replay")
	asJSON := fs.Bool("json", false, e.flagUsage("replay", "json"))
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	name, err := e.recordName("replay", rest)
	if err != nil {
		return err
	}
	rec, err := e.loadRecord(ctx, name)
	if err != nil {
		return err
	}
	pos, err := rec.Replay()
	var illegal *engine.MoveError
	if err != nil && !errors.As(err, &illegal) {
		return fmt.Errorf("%s: %w", e.displayName(name), err)
	}
	if *asJSON {
		return e.replayJSON(rec, &pos, illegal)
	}
	return e.replayText(rec, &pos, illegal)
}

// replayResult is the JSON object of replay --json.
type replayResult struct {
	Ply    int          `json:"ply"`
	ToMove string       `json:"to_move"`
	Over   bool         `json:"over"`
	Legal  []string     `json:"legal"`
	Score  replayScore  `json:"score"`
	Winner *string      `json:"winner"`
	Error  *replayError `json:"error"`
}

type replayScore struct {
	Red   engine.Breakdown `json:"red"`
	Black engine.Breakdown `json:"black"`
}

type replayError struct {
	Ply    int    `json:"ply"`
	Move   string `json:"move"`
	Reason string `json:"reason"`
}

func (e *env) replayJSON(rec *engine.Record, pos *engine.Position, illegal *engine.MoveError) error {
	s := pos.Score(rec.Rules)
	res := replayResult{
		Ply:    pos.Ply(),
		ToMove: pos.ToMove().String(),
		Over:   pos.IsOver(),
		Legal:  holeList(pos.Layout(), pos.Legal()),
		Score:  replayScore{Red: s[engine.Red], Black: s[engine.Black]},
	}
	if res.Legal == nil {
		res.Legal = []string{}
	}
	if res.Over {
		winner := "draw"
		if c, ok := s.Winner(); ok {
			winner = c.String()
		}
		res.Winner = &winner
	}
	if illegal != nil {
		// JSON strings are Unicode: bytes that are not UTF-8 become U+FFFD.
		move := strings.ToValidUTF8(illegal.Move, "\uFFFD")
		res.Error = &replayError{Ply: illegal.Ply, Move: move, Reason: reasonCode(illegal)}
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetEscapeHTML(false)
	return enc.Encode(res)
}

func (e *env) replayText(rec *engine.Record, pos *engine.Position, illegal *engine.MoveError) error {
	p := e.newPrinter()
	var info []string
	for _, t := range rec.Tags {
		if t.Name == "Game" {
			continue
		}
		info = append(info, t.Name+": "+oneLine(t.Value))
		for c, name := range [2]string{"Red", "Black"} {
			if t.Name == name && t.Value != "?" {
				p.names[c] = oneLine(t.Value)
			}
		}
	}
	p.printf("%s\n", p.lang.N("cli.replay.record", len(rec.Moves), "First", p.colorName(rec.First), "Rules", p.rulesName(rec.Rules)))
	if len(info) > 0 {
		p.printf("%s\n", strings.Join(info, "  "))
	}
	p.line(p.lang.T("cli.layout_line", "Layout", rec.Layout))
	p.printf("\n")
	p.board(pos, playable(pos))
	p.legend()
	p.lastMoves(pos)
	if illegal != nil {
		p.printf("\n")
		p.line(p.lang.T("cli.replay.illegal", "Move", illegal.Ply, "Written", fmt.Sprintf("%q", illegal.Move), "Reason", reasonCode(illegal),
			"Why", p.explainIllegal(pos, illegal.Move, illegal.Err)))
	}
	p.printf("\n")
	p.score(pos, rec.Rules)
	p.printf("\n")
	p.status(pos, rec.Rules)
	return p.err
}
