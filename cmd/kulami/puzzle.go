package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/puzzle"
)

// runPuzzle is "kulami puzzle": with generate or list it makes or prints
// puzzles, otherwise the player solves one.
func runPuzzle(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "generate":
			return runPuzzleGenerate(ctx, e, args[1:])
		case "list":
			return runPuzzleList(e, args[1:])
		}
	}
	return runPuzzleSolve(ctx, e, args)
}

func runPuzzleGenerate(ctx context.Context, e *env, args []string) error {
	fs := newFlags("puzzle")
	u := func(name string) string { return e.flagUsage("puzzle", name) }
	seed := fs.Uint64("seed", 1, u("seed"))
	count := fs.Int("count", 100, u("count"))
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), u("workers"))
	out := fs.String("o", "-", u("o"))
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	for flag, v := range map[string]int{"--count": *count, "--workers": *workers} {
		if v <= 0 {
			return &usageError{e.lang.T("cli.positive", "Flag", flag, "Value", strconv.Itoa(v))}
		}
	}
	begin := e.now()
	progress := func(p puzzle.Progress) {
		perMinute := float64(p.Puzzles) / max(e.now().Sub(begin).Minutes(), 1e-9)
		fmt.Fprintf(e.stderr, "%s\n", e.lang.T("cli.puzzle.progress", "Games", p.Games, "Puzzles", p.Puzzles,
			"Count", *count, "Rate", strconv.FormatFloat(perMinute, 'f', 1, 64)))
	}
	var ps []puzzle.Puzzle
	if len(rest) > 0 {
		ps, err = e.puzzlesOfRecords(ctx, rest, *count, progress)
	} else {
		ps, err = puzzle.Generator{}.Run(ctx, *seed, *count, *workers, progress)
	}
	if err != nil {
		return err
	}
	w := e.stdout
	if *out != "-" {
		f, err := os.Create(*out)
		if err != nil {
			return e.fileError(err)
		}
		defer f.Close()
		w = f
	}
	if err := puzzle.Write(w, ps); err != nil {
		return e.fileError(err)
	}
	if f, ok := w.(*os.File); ok && *out != "-" {
		return e.fileError(f.Close())
	}
	return nil
}

// puzzlesOfRecords returns the puzzles of the games in the record files
// names, up to count, without repeats, their source "game FILE".
func (e *env) puzzlesOfRecords(ctx context.Context, names []string, count int, progress func(puzzle.Progress)) ([]puzzle.Puzzle, error) {
	var ps []puzzle.Puzzle
	seen := map[string]bool{}
	for i, name := range names {
		rec, err := e.loadRecord(ctx, name)
		if err != nil {
			return nil, err
		}
		found, err := puzzle.Generator{}.Record(ctx, rec, "game "+filepath.Base(name))
		if err != nil {
			return nil, err
		}
		for _, p := range found {
			if !seen[p.ID] && len(ps) < count {
				seen[p.ID] = true
				ps = append(ps, p)
			}
		}
		progress(puzzle.Progress{Games: i + 1, Puzzles: len(ps)})
	}
	return ps, nil
}

// puzzleSet adds the --file flag to fs, parses args, which must hold
// flags only, and reads the puzzles of the file, or the shipped set.
func (e *env) puzzleSet(fs *flag.FlagSet, args []string) ([]puzzle.Puzzle, error) {
	path := fs.String("file", "", e.flagUsage("puzzle", "file"))
	rest, err := e.parse(fs, args)
	if err != nil {
		return nil, err
	}
	if len(rest) > 0 {
		return nil, &usageError{e.lang.T("cli.puzzle.extra", "Arg", fmt.Sprintf("%q", rest[0]))}
	}
	if *path == "" {
		return puzzle.Shipped()
	}
	f, err := os.Open(*path)
	if err != nil {
		return nil, e.fileError(err)
	}
	defer f.Close()
	ps, err := puzzle.Read(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", *path, err)
	}
	return ps, nil
}

func runPuzzleList(e *env, args []string) error {
	fs := newFlags("puzzle")
	asJSON := fs.Bool("json", false, e.flagUsage("puzzle", "json"))
	ps, err := e.puzzleSet(fs, args)
	if err != nil {
		return err
	}
	p := e.newPrinter()
	for i := range ps {
		if *asJSON {
			b, err := json.Marshal(ps[i].ToJSON())
			if err != nil {
				return err
			}
			p.printf("%s\n", b)
			continue
		}
		themes := make([]string, len(ps[i].Themes))
		for j, t := range ps[i].Themes {
			themes[j] = string(t)
		}
		p.printf("%s  %4d  %-4s  %-5s  %s  %s\n", ps[i].ID, ps[i].Rating, ps[i].Goal, ps[i].Record.Rules,
			ps[i].SolutionText(), strings.Join(themes, ","))
	}
	return p.err
}

func runPuzzleSolve(ctx context.Context, e *env, args []string) error {
	fs := newFlags("puzzle")
	id := fs.String("id", "", e.lang.T("cli.puzzle.flag.puzzle_id")) // "id" is a reserved key in the message files
	ps, err := e.puzzleSet(fs, args)
	if err != nil {
		return err
	}
	if len(ps) == 0 {
		return errors.New(e.lang.T("cli.puzzle.none"))
	}
	pz := &ps[int(uint64(e.now().UnixNano())%uint64(len(ps)))]
	if *id != "" {
		pz = nil
		for i := range ps {
			if ps[i].ID == *id {
				pz = &ps[i]
			}
		}
		if pz == nil {
			return &usageError{e.lang.T("cli.puzzle.unknown_id", "ID", fmt.Sprintf("%q", *id))}
		}
	}
	return e.solvePuzzle(ctx, pz)
}

// solvePuzzle asks the player for the moves of pz on stdin and answers
// each as the bot does: right, with the defence, or wrong, with the
// refutation and the solution.
func (e *env) solvePuzzle(ctx context.Context, pz *puzzle.Puzzle) error {
	a, err := pz.Start()
	if err != nil {
		return err
	}
	p := e.newPrinter()
	pos := a.Position()
	p.line(p.lang.N("cli.puzzle.intro", pz.Moves(), "ID", pz.ID, "Rating", pz.Rating, "Rules", p.rulesName(pz.Record.Rules),
		"Color", p.colorName(pos.ToMove()), "Goal", p.lang.T("cli.puzzle.goal."+string(pz.Goal))))
	lines, done := readLines(e.stdin)
	defer close(done)
	for !a.Over() {
		pos = a.Position()
		p.board(&pos, pos.Legal())
		p.printf("%s ", p.lang.T("cli.puzzle.prompt"))
		var in lineRead
		select {
		case in = <-lines:
		case <-ctx.Done():
			return ctx.Err()
		}
		if in.err != nil {
			p.line("")
			p.line(p.lang.T("cli.puzzle.gave_up", "Solution", pz.SolutionText()))
			return p.err
		}
		move := strings.TrimSpace(in.line)
		if move == "" {
			continue
		}
		c, err := engine.ParseCell(move)
		if err == nil {
			err = pos.Check(c)
		}
		if err != nil {
			p.line(p.lang.T("cli.play.not_allowed", "Why", p.explainIllegal(&pos, move, err)))
			p.printf("%s\n", p.legalSentence(&pos))
			continue
		}
		ans, err := a.Play(c)
		if err != nil {
			return err
		}
		switch {
		case ans.Solved:
			p.line(p.lang.T("cli.puzzle.solved", "ID", pz.ID))
		case ans.Right:
			p.line(p.lang.T("cli.puzzle.right", "Reply", ans.Defence))
		case ans.HasRefutation:
			p.line(p.lang.T("cli.puzzle.wrong", "Move", c, "Reply", ans.Refutation, "Solution", pz.SolutionText()))
		default:
			p.line(p.lang.T("cli.puzzle.wrong_end", "Move", c, "Solution", pz.SolutionText()))
		}
	}
	return p.err
}
