package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/kulami/kulami/engine"
)

const replayDoc = `Replay reads a game record (RECORD.md) from FILE, or from standard input
when FILE is "-" or missing, plays its moves from the empty board and shows
the board, the last two marbles, the score under the record's Scoring
rules and the result, or whose turn it is and the legal holes.

Replay stops at the first illegal move and shows the position before it,
with the move's number, the move as written and the rule it breaks. That
is a finding about the game, not a failure: the exit status is 0. A record
that cannot be read (a malformed tag, a bad layout, an unclosed comment)
or a file that cannot be opened gives exit status 1 and one line on
standard error, and nothing on standard output.

With --json, replay prints one JSON object on one line:

  {"ply":N,"to_move":"red"|"black","over":bool,"legal":["A1",...],
   "score":{"red":{"panels":n,"area":n,"lines":n,"total":n},"black":{...}},
   "winner":"red"|"black"|"draw"|null,
   "error":null|{"ply":k,"move":"X","reason":"<code>"}}

ply counts the marbles placed; legal lists the holes row by row from the
top left and is [] when the game is over; winner is null until the game is
over; error is the first illegal move (its 1-based number, the token as
written, the reason code of RULES.md). JSON strings are Unicode, so bytes
of a token that are not UTF-8 are written as U+FFFD.
`

func runReplay(ctx context.Context, e *env, args []string) error {
	fs := newFlags("replay")
	asJSON := fs.Bool("json", false, "print one JSON object on one line instead of the board")
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	name, err := recordName("replay", rest)
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
		return fmt.Errorf("%s: %w", displayName(name), err)
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
	p.printf("Record: %d moves, %s moved first, %s rules.\n", len(rec.Moves), rec.First.Title(), rec.Rules)
	if len(info) > 0 {
		p.printf("%s\n", strings.Join(info, "  "))
	}
	p.printf("Layout: %s\n\n", rec.Layout)
	p.board(pos, playable(pos))
	p.legend()
	p.lastMoves(pos)
	if illegal != nil {
		p.printf("\nMove %d (%q) is illegal (%s): %s.\nThe board shows the position before it; the moves after it were not played.\n",
			illegal.Ply, illegal.Move, reasonCode(illegal), explainIllegal(pos, illegal.Move, illegal.Err))
	}
	p.printf("\n")
	p.score(pos, rec.Rules)
	p.printf("\n")
	p.status(pos, rec.Rules)
	return p.err
}
