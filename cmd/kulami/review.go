package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/review"
)

func runReview(ctx context.Context, e *env, args []string) error {
	fs := newFlags("review")
	u := func(name string) string { return e.flagUsage("review", name) }
	asJSON := fs.Bool("json", false, u("json"))
	playouts := fs.Int("playouts", review.DefaultPlayouts, u("playouts"))
	budget := fs.Duration("time", 0, u("time"))
	workers := fs.Int("workers", 1, u("workers"))
	var seed seedFlag
	fs.Var(&seed, "seed", u("seed"))
	chart := fs.String("chart", "", u("chart"))
	theme := fs.String("theme", "dark", u("theme"))
	marbles := fs.String("marbles", "standard", u("marbles"))
	rest, err := e.parse(fs, args)
	if err != nil {
		return err
	}
	name, err := e.recordName("review", rest)
	if err != nil {
		return err
	}
	if *playouts <= 0 {
		return &usageError{e.lang.T("cli.positive", "Flag", "--playouts", "Value", strconv.Itoa(*playouts))}
	}
	if *budget < 0 {
		return &usageError{e.lang.T("cli.review.time_negative", "Time", budget.String())}
	}
	if *workers <= 0 {
		return &usageError{e.lang.T("cli.positive", "Flag", "--workers", "Value", strconv.Itoa(*workers))}
	}
	th, err := e.parseTheme(*theme)
	if err != nil {
		return err
	}
	ms, err := e.parseMarbles(*marbles)
	if err != nil {
		return err
	}
	rec, err := e.loadRecord(ctx, name)
	if err != nil {
		return err
	}
	opt := review.Options{Playouts: *playouts, Time: *budget, Workers: *workers, Seed: seed.value}
	if isTerminal(e.stderr) {
		opt.Progress = func(done, total int) {
			fmt.Fprintf(e.stderr, "\r%s", e.lang.T("cli.review.progress", "Done", done, "Total", total))
			if done == total {
				fmt.Fprintln(e.stderr)
			}
		}
	}
	a, err := review.Analyse(ctx, rec, opt)
	if err != nil {
		return fmt.Errorf("%s: %w", e.displayName(name), e.illegalMove(rec, err))
	}
	p := e.newPrinter()
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		p.names[c], _ = rec.Tag(c.Title())
	}
	if *chart != "" {
		if err := writeChart(*chart, a, th, ms, e.lang, [2]string{engine.Red: p.player(engine.Red), engine.Black: p.player(engine.Black)}); err != nil {
			return e.fileError(err)
		}
	}
	if *asJSON {
		b, err := json.Marshal(a)
		if err != nil {
			return err
		}
		p.printf("%s\n", b)
		return p.err
	}
	p.analysis(rec, a, *budget)
	if *chart != "" {
		p.printf("\n")
		p.line(p.lang.T("cli.review.wrote_chart", "File", *chart))
	}
	return p.err
}

// analysis writes the review of rec: the table of moves, each player's
// costliest moves and the biggest swings.
func (p *printer) analysis(rec *engine.Record, a *review.Analysis, budget time.Duration) {
	how := p.lang.N("cli.review.playouts", a.Playouts)
	if a.Timed {
		how = p.lang.N("cli.review.playouts_timed", a.Playouts, "Time", budget.String())
	}
	p.printf("%s\n\n", p.lang.N("cli.review.title", len(a.Moves), "Rules", p.rulesName(rec.Rules), "How", how))
	if len(a.Moves) == 0 {
		p.line(p.lang.T("cli.review.no_moves"))
		return
	}
	red := a.RedChances()
	// The table names the colours in lower case, as the columns of a table.
	redName := strings.ToLower(p.colorName(engine.Red))
	col := [2]string{padRight(redName, 5), padRight(strings.ToLower(p.colorName(engine.Black)), 5)}
	start := p.lang.T("cli.review.start")
	p.printf("%s %s %s\n", padRight(start, 14), redName, strings.TrimRight(p.chance(red[0], a.Moves[0].BeforeProven), " "))
	for _, m := range a.Moves {
		line := fmt.Sprintf("%3d. %s %-3s %s %s", m.Ply, col[m.Color], m.Cell, redName, p.chance(m.RedAfter(), m.AfterProven))
		if better, ok := m.Better(); ok {
			line += " " + p.lang.T("cli.review.cost_better", "Cost", p.lang.Percent(m.Cost), "Better", better)
		}
		p.printf("%s\n", strings.TrimRight(line, " "))
	}
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		worst := a.Mistakes(c, 3)
		p.printf("\n")
		if len(worst) == 0 {
			p.line(p.lang.T("cli.review.no_mistakes", "Player", p.player(c), "Cost", p.lang.Percent(review.MinCost)))
			continue
		}
		p.line(p.lang.T("cli.review.mistakes", "Player", p.player(c)))
		for _, m := range worst {
			better, _ := m.Better()
			p.printf("  %s\n", p.lang.T("cli.review.mistake", "Move", m.Ply, "Hole", m.Cell, "Cost", p.lang.Percent(m.Cost),
				"Before", p.verdict(m.Before, m.BeforeProven), "After", p.verdict(m.After, m.AfterProven), "Better", better))
		}
	}
	var swings []string
	for _, m := range a.SwingMarks(3) {
		swings = append(swings, m.Label)
	}
	if len(swings) > 0 {
		p.printf("\n")
		p.line(p.lang.T("cli.review.swings", "Swings", strings.Join(swings, ", ")))
	}
}

// chance writes a chance as a percentage, with "*" for a proven one.
func (p *printer) chance(v float64, proven bool) string {
	s := padLeft(p.lang.Percent(v), 5)
	if proven {
		return s + "*"
	}
	return s + " "
}

// verdict writes a chance as a percentage, or a proven one as a win, a
// draw or a loss.
func (p *printer) verdict(v float64, proven bool) string {
	if proven {
		return p.proven(v)
	}
	return p.lang.Percent(v)
}

// writeChart draws a's chart of red's chance, with the biggest swings
// marked and the players (names, by colour) named, to the file name, for
// theme and in the colours of marbles.
func writeChart(name string, a *review.Analysis, theme draw.Theme, marbles draw.Marbles, l i18n.Lang, names [2]string) error {
	c := draw.Chart{Red: a.RedChances(), Theme: theme, Marbles: marbles, Names: names,
		Texts: l.Chart(names[engine.Red], names[engine.Black])}
	for _, m := range a.SwingMarks(3) {
		c.Marks = append(c.Marks, draw.ChartMark(m))
	}
	var buf bytes.Buffer
	if err := draw.RenderChart(&buf, c); err != nil {
		return err
	}
	return os.WriteFile(name, buf.Bytes(), 0o644)
}
