package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"

	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
)

func runRender(ctx context.Context, e *env, args []string) error {
	fs := newFlags("render")
	u := func(name string) string { return e.flagUsage("render", name) }
	out := fs.String("out", "board.png", u("out"))
	ply := fs.Int("ply", -1, u("ply"))
	theme := fs.String("theme", "dark", u("theme"))
	marbles := fs.String("marbles", "standard", u("marbles"))
	reason := fs.String("reason", "", u("reason"))
	size := fs.Int("size", draw.DefaultWidth, e.lang.T("cli.render.flag.size", "Min", draw.MinWidth, "Max", draw.MaxWidth))
	animate := fs.Bool("gif", false, u("gif"))
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	if *animate {
		gifDefaults(fs, out, size)
	}
	name, err := e.recordName("render", rest)
	if err != nil {
		return err
	}
	text := e.lang.Draw()
	opt := draw.Options{Width: *size, Reason: *reason, Over: *reason != "", Text: &text}
	if opt.Theme, err = e.parseTheme(*theme); err != nil {
		return err
	}
	if opt.Marbles, err = e.parseMarbles(*marbles); err != nil {
		return err
	}
	if *size < draw.MinWidth || *size > draw.MaxWidth {
		return &usageError{e.lang.T("cli.render.size_range", "Size", strconv.Itoa(*size), "Min", draw.MinWidth, "Max", draw.MaxWidth)}
	}
	if *ply < -1 {
		return &usageError{e.lang.T("cli.render.ply_negative", "Ply", strconv.Itoa(*ply))}
	}
	if *out == "" {
		return &usageError{e.lang.T("cli.render.out_empty")}
	}
	rec, err := e.loadRecord(ctx, name)
	if err != nil {
		return err
	}
	n := len(rec.Moves)
	if *ply > n {
		return errors.New(e.lang.N("cli.render.ply_beyond", n, "Ply", *ply, "File", e.displayName(name)))
	}
	if *ply >= 0 {
		n = *ply
	}
	pos, err := replayTo(rec, n)
	if err != nil {
		return fmt.Errorf("%s: %w; %s", e.displayName(name), e.illegalMove(rec, err), e.lang.T("cli.render.earlier"))
	}
	opt.Rules = rec.Rules
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		opt.Names[c], _ = rec.Tag(c.Title())
	}
	if opt.Over {
		opt.Winner = recordWinner(rec)
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
		return e.fileError(err)
	}
	what := "cli.render.wrote_board"
	if *animate {
		what = "cli.render.wrote_game"
	}
	fmt.Fprintln(e.stdout, e.lang.N(what, len(rec.Moves), "File", *out, "Ply", n))
	return nil
}

// recordWinner is the colour that the result word of rec says won ("1-0":
// red, "0-1": black), or nil.
func recordWinner(rec *engine.Record) *engine.Color {
	var c engine.Color
	switch rec.Result {
	case "1-0":
		c = engine.Red
	case "0-1":
		c = engine.Black
	default:
		return nil
	}
	return &c
}

// replayTo plays the first n moves of rec, which must have that many, and
// returns the position or the first illegal move as a *engine.MoveError.
func replayTo(rec *engine.Record, n int) (engine.Position, error) {
	part := *rec
	part.Moves = rec.Moves[:n]
	return part.Replay()
}
