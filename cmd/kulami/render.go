package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
)

const renderDoc = `Render reads a game record (RECORD.md) from FILE, or from standard input
when FILE is "-" or missing, and draws the board as the bot shows it: a PNG
with both players (the record's Red and Black tags), the score under its
Scoring rules, the last two marbles and the legal holes marked, or at the
end of the game the result and the score breakdown.

It draws the position after the last move, or after --ply N moves (0 is
the empty board). A record that cannot be read, an illegal move before that
position or a --ply beyond the record's moves gives exit status 1 and one
line on standard error.

With --reason TEXT, the image shows the game as ended there, for one that
ended off the board (a resignation, a timeout, an agreed draw), with TEXT
under the result, such as "alice resigned".

With --out -, the PNG goes to standard output; otherwise render writes the
file (replacing it) and says so on standard output.
`

func runRender(ctx context.Context, e *env, args []string) error {
	fs := newFlags("render")
	out := fs.String("out", "board.png", "write the image to `FILE`; - is standard output")
	ply := fs.Int("ply", -1, "draw the position after `N` moves (0 is the empty board); the default is the last")
	theme := fs.String("theme", "dark", "the Discord theme to match: dark or light")
	reason := fs.String("reason", "", "show the game as ended, for this `reason` (\"alice resigned\")")
	size := fs.Int("size", draw.DefaultWidth, fmt.Sprintf("the image's width in `pixels`, %d to %d", draw.MinWidth, draw.MaxWidth))
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 1 {
		return usagef("render reads one record, but got %d arguments: %s", len(rest), strings.Join(rest, " "))
	}
	opt := draw.Options{Width: *size, Reason: *reason, Over: *reason != ""}
	if opt.Theme, err = draw.ParseTheme(*theme); err != nil {
		return usagef("--theme: %v", unwrapOptions(err))
	}
	if *size < draw.MinWidth || *size > draw.MaxWidth {
		return usagef("--size %d is out of range; use %d to %d pixels", *size, draw.MinWidth, draw.MaxWidth)
	}
	if *ply < -1 {
		return usagef("--ply %d: a position is a number of moves, 0 or more", *ply)
	}
	if *out == "" {
		return usagef("--out needs a file name, or - for standard output")
	}
	name := "-"
	if len(rest) == 1 {
		name = rest[0]
	}
	rec, err := e.loadRecord(ctx, name)
	if err != nil {
		return err
	}
	n := len(rec.Moves)
	if *ply > n {
		return fmt.Errorf("--ply %d is beyond the end of %s, which has %d moves; use 0 to %d", *ply, displayName(name), n, n)
	}
	if *ply >= 0 {
		n = *ply
	}
	pos, err := replayTo(rec, n)
	if err != nil {
		return fmt.Errorf("%s: %w; render an earlier position with --ply", displayName(name), err)
	}
	opt.Rules = rec.Rules
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		opt.Names[c], _ = rec.Tag(c.Title())
	}
	var img bytes.Buffer
	if err := draw.Render(&img, &pos, opt); err != nil {
		return err
	}
	if *out == "-" {
		_, err := e.stdout.Write(img.Bytes())
		return err
	}
	if err := os.WriteFile(*out, img.Bytes(), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "wrote %s: the board after %d of %d moves\n", *out, n, len(rec.Moves))
	return nil
}

// replayTo plays the first n moves of rec, which must have that many, and
// returns the position or the first illegal move as a *engine.MoveError.
func replayTo(rec *engine.Record, n int) (engine.Position, error) {
	part := *rec
	part.Moves = rec.Moves[:n]
	return part.Replay()
}

// unwrapOptions drops draw's "bad options" prefix from err's message,
// which the command's own prefix replaces.
func unwrapOptions(err error) string {
	return strings.TrimPrefix(err.Error(), draw.ErrOptions.Error()+": ")
}
