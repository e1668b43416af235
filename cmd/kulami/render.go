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

var renderDoc = fmt.Sprintf(`Render reads a game record (RECORD.md) from FILE, or from standard input
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

With --gif, render writes an animated GIF of the game instead: one frame
per move up to that position, a longer pause on the last, looping; it is
%d pixels wide unless --size says otherwise, and --out defaults to
game.gif.

With --out -, the image goes to standard output; otherwise render writes
the file (replacing it) and says so on standard output.
`, draw.DefaultAnimationWidth)

func runRender(ctx context.Context, e *env, args []string) error {
	fs := newFlags("render")
	out := fs.String("out", "board.png", "write the image to `FILE`; - is standard output")
	ply := fs.Int("ply", -1, "draw the position after `N` moves (0 is the empty board); the default is the last")
	theme := fs.String("theme", "dark", "the Discord theme to match: dark or light")
	reason := fs.String("reason", "", "show the game as ended, for this `reason` (\"alice resigned\")")
	size := fs.Int("size", draw.DefaultWidth, fmt.Sprintf("the image's width in `pixels`, %d to %d", draw.MinWidth, draw.MaxWidth))
	animate := fs.Bool("gif", false, "write an animated GIF of the game up to the position instead")
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *animate {
		gifDefaults(fs, out, size)
	}
	name, err := recordName("render", rest)
	if err != nil {
		return err
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
	if *animate {
		err = writeGIF(&img, rec, n, opt)
	} else {
		err = draw.Render(&img, &pos, opt)
	}
	if err != nil {
		return err
	}
	if *out == "-" {
		_, err := e.stdout.Write(img.Bytes())
		return err
	}
	if err := os.WriteFile(*out, img.Bytes(), 0o644); err != nil {
		return err
	}
	what := "the board"
	if *animate {
		what = "the game"
	}
	fmt.Fprintf(e.stdout, "wrote %s: %s after %d of %d moves\n", *out, what, n, len(rec.Moves))
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
