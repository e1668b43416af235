package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/review"
)

var reviewDoc = fmt.Sprintf(`Review reads a game record (RECORD.md) from FILE, or from standard input
when FILE is "-" or missing, and has the computer analyse every move: it
prints a table of the moves with red's chance to win after each (a draw
counting half; "*" marks a chance an exact search of the game's end
proved), the move the computer prefers where the one played cost %d
points of win chance or more, then each player's three costliest moves
and the moves that swung the game most.

The analysis searches each position for --playouts random games (by
default %d: 20 to 30 s for a whole game on one core), and --seed makes
it reproducible; --workers searches that many positions at once. --time
also caps the whole analysis, which makes it depend on the machine.

--json prints the analysis as one JSON object on one line, as the bot
stores it. --chart FILE also draws red's chance as a PNG chart with the
biggest swings marked.

A record that cannot be read or holds an illegal move gives exit status 1
and one line on standard error.
`, int(100*review.MinCost), review.DefaultPlayouts)

func runReview(ctx context.Context, e *env, args []string) error {
	fs := newFlags("review")
	asJSON := fs.Bool("json", false, "print the analysis as one JSON object on one line")
	playouts := fs.Int("playouts", review.DefaultPlayouts, "search each position for `N` random games")
	budget := fs.Duration("time", 0, "the `budget` of the whole analysis, such as 30s; 0 for none")
	workers := fs.Int("workers", 1, "search `N` positions at once, one core each")
	var seed seedFlag
	fs.Var(&seed, "seed", "make the analysis reproducible with seed `N` (default 0)")
	chart := fs.String("chart", "", "also draw the win-chance chart as a PNG to `FILE`")
	theme := fs.String("theme", "dark", "the chart's Discord theme: dark or light")
	rest, err := parse(fs, args)
	if err != nil {
		return err
	}
	name, err := recordName("review", rest)
	if err != nil {
		return err
	}
	if *playouts <= 0 {
		return usagef("--playouts must be more than 0, not %d", *playouts)
	}
	if *budget < 0 {
		return usagef("--time must be 0 or more, such as 30s, not %s", *budget)
	}
	if *workers <= 0 {
		return usagef("--workers must be more than 0, not %d", *workers)
	}
	th, err := draw.ParseTheme(*theme)
	if err != nil {
		return usagef("--theme: %v", unwrapOptions(err))
	}
	rec, err := e.loadRecord(ctx, name)
	if err != nil {
		return err
	}
	opt := review.Options{Playouts: *playouts, Time: *budget, Workers: *workers, Seed: seed.value}
	if isTerminal(e.stderr) {
		opt.Progress = func(done, total int) {
			fmt.Fprintf(e.stderr, "\ranalysing: %d of %d positions", done, total)
			if done == total {
				fmt.Fprintln(e.stderr)
			}
		}
	}
	a, err := review.Analyse(ctx, rec, opt)
	if err != nil {
		return fmt.Errorf("%s: %w", displayName(name), err)
	}
	if *chart != "" {
		if err := writeChart(*chart, a, th); err != nil {
			return err
		}
	}
	p := e.newPrinter()
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		p.names[c], _ = rec.Tag(c.Title())
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
		p.printf("\nwrote %s: red's chance to win over the game\n", *chart)
	}
	return p.err
}

// analysis writes the review of rec: the table of moves, each player's
// costliest moves and the biggest swings.
func (p *printer) analysis(rec *engine.Record, a *review.Analysis, budget time.Duration) {
	how := fmt.Sprintf("%d playouts a position", a.Playouts)
	if a.Timed {
		how += fmt.Sprintf(", %s in all", budget)
	}
	p.printf("Review of %d moves, %s rules (%s; * proven by an exact search)\n\n", len(a.Moves), rec.Rules, how)
	if len(a.Moves) == 0 {
		p.printf("There are no moves to review.\n")
		return
	}
	red := a.RedChances()
	p.printf("start          red %s\n", strings.TrimRight(chance(red[0], a.Moves[0].BeforeProven), " "))
	for _, m := range a.Moves {
		line := fmt.Sprintf("%3d. %-5s %-3s red %s", m.Ply, m.Color, m.Cell, chance(m.RedAfter(), m.AfterProven))
		if better, ok := m.Better(); ok {
			line += fmt.Sprintf(" cost %s, better %s", points(m.Cost), better)
		}
		p.printf("%s\n", strings.TrimRight(line, " "))
	}
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		worst := a.Mistakes(c, 3)
		p.printf("\nMistakes of %s:", p.player(c))
		if len(worst) == 0 {
			p.printf(" none that cost %s or more.\n", points(review.MinCost))
			continue
		}
		p.printf("\n")
		for _, m := range worst {
			better, _ := m.Better()
			p.printf("  %d. %s cost %s: %s before, %s after; better %s\n", m.Ply, m.Cell, points(m.Cost),
				verdict(m.Before, m.BeforeProven), verdict(m.After, m.AfterProven), better)
		}
	}
	var swings []string
	for _, m := range a.SwingMarks(3) {
		swings = append(swings, m.Label)
	}
	if len(swings) > 0 {
		p.printf("\nThe biggest swings: %s.\n", strings.Join(swings, ", "))
	}
}

// chance writes a chance as a percentage, with "*" for a proven one.
func chance(v float64, proven bool) string {
	if proven {
		return fmt.Sprintf("%4.0f%%*", 100*v)
	}
	return fmt.Sprintf("%4.0f%% ", 100*v)
}

// verdict writes a chance as a percentage, or a proven one as a win, a
// draw or a loss.
func verdict(v float64, proven bool) string {
	switch {
	case !proven:
		return fmt.Sprintf("%.0f%%", 100*v)
	case v == 1:
		return "a proven win"
	case v == 0:
		return "a proven loss"
	}
	return "a proven draw"
}

// points writes a cost in points of win chance.
func points(cost float64) string {
	if cost == 1.0/100 {
		return "1 point"
	}
	return fmt.Sprintf("%.0f points", 100*cost)
}

// writeChart draws a's chart of red's chance, with the biggest swings
// marked, to the file name.
func writeChart(name string, a *review.Analysis, theme draw.Theme) error {
	c := draw.Chart{Red: a.RedChances(), Theme: theme}
	for _, m := range a.SwingMarks(3) {
		c.Marks = append(c.Marks, draw.ChartMark(m))
	}
	var buf bytes.Buffer
	if err := draw.RenderChart(&buf, c); err != nil {
		return err
	}
	return os.WriteFile(name, buf.Bytes(), 0o644)
}
