package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
)

func runPlay(ctx context.Context, e *env, args []string) error {
	flags := newFlags("play")
	u := func(name string) string { return e.flagUsage("play", name) }
	layoutSpec := flags.String("layout", kindSquare, u("layout"))
	var seed seedFlag
	flags.Var(&seed, "seed", u("seed"))
	rulesName := flags.String("rules", engine.Basic.String(), u("rules"))
	firstName := flags.String("first", "red", u("first"))
	path := flags.String("record", "", u("record"))
	var names [2]string
	flags.StringVar(&names[engine.Red], "red", "", u("red"))
	flags.StringVar(&names[engine.Black], "black", "", u("black"))
	aiLevel := flags.String("ai", "", u("ai"))
	aiFirst := flags.Bool("ai-first", false, u("ai-first"))
	rest, err := e.parse(flags, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return &usageError{e.lang.T("cli.only_flags", "Command", "play", "Arg", fmt.Sprintf("%q", rest[0]))}
	}
	rules, err := e.parseRules("--rules", *rulesName)
	if err != nil {
		return err
	}
	first, err := engine.ParseColor(*firstName)
	if err != nil {
		return &usageError{e.lang.T("cli.bad_color", "Flag", "--first", "Value", fmt.Sprintf("%q", *firstName))}
	}
	l, note, err := e.chooseLayout(*layoutSpec, seed, "kulami play --layout "+*layoutSpec)
	if err != nil {
		return err
	}
	var computer ai.Player
	aiColor := first.Other()
	if *aiLevel != "" {
		level, err := e.parseLevel("--ai", *aiLevel)
		if err != nil {
			return err
		}
		computer = level
		if *aiFirst {
			aiColor = first
		}
		names[aiColor] = e.lang.T("cli.computer_name", "Level", e.levelName(level))
	} else if *aiFirst {
		return &usageError{e.lang.T("cli.play.ai_first_alone")}
	}
	if *path != "" {
		if err := e.checkNewFile(*path); err != nil {
			return err
		}
	}
	g := &game{
		e:       e,
		p:       e.newPrinter(),
		rec:     engine.NewRecord(l, first, rules),
		pos:     engine.NewPosition(l, first),
		path:    *path,
		echo:    !isTerminal(e.stdin),
		ai:      computer,
		aiColor: aiColor,
	}
	g.rec.SetTag("Game", "Kulami")
	for c, n := range names {
		n = oneLine(n)
		g.p.names[c] = n
		if n == "" {
			n = "?"
		}
		g.rec.SetTag(engine.Color(c).Title(), n)
	}
	g.rec.SetTag("Date", e.now().Format("2006.01.02"))
	g.rec.SetTag("Result", "*")
	return g.run(ctx, note)
}

// checkNewFile makes sure that a record can be written to path at the
// end of the game: its folder exists and the file does not.
func (e *env) checkNewFile(path string) error {
	_, err := os.Lstat(path)
	switch {
	case err == nil:
		return &usageError{e.lang.T("cli.play.record_exists", "File", path)}
	case !errors.Is(err, fs.ErrNotExist):
		return &usageError{"--record: " + e.fileError(err).Error()}
	}
	if _, err := os.Stat(filepath.Dir(path)); err != nil {
		return &usageError{"--record " + path + ": " + e.fileError(err).Error()}
	}
	return nil
}

// game is a game in progress at the terminal. It is not safe for
// concurrent use.
type game struct {
	e       *env
	p       *printer
	rec     *engine.Record // the moves so far, canonical
	pos     engine.Position
	path    string       // where to write the record, or ""
	echo    bool         // repeat each input line after the prompt (input is not typed)
	ai      ai.Player    // the computer opponent, or nil for two people
	aiColor engine.Color // the computer's colour
}

// playCommand is a word a player may type instead of a move: its English
// name, or its name in the game's language (cli.play.word.NAME), which
// the help lists.
type playCommand struct {
	name, help string
	// do carries out the command and reports whether the game stops.
	do func() bool
}

func (g *game) commands() []playCommand {
	l := g.p.lang
	quit := l.T("cli.play.help.quit")
	if g.path != "" {
		quit = l.T("cli.play.help.quit_record", "File", g.path)
	}
	return []playCommand{
		{"legal", l.T("cli.play.help.legal"), func() bool { g.p.printf("%s\n", g.p.legalSentence(&g.pos)); return false }},
		{"score", l.T("cli.play.help.score"), func() bool { g.p.score(&g.pos, g.rec.Rules); return false }},
		{"undo", l.T("cli.play.help.undo"), g.undo},
		{"board", l.T("cli.play.help.board"), func() bool { g.show(); return false }},
		{"record", l.T("cli.play.help.record"), func() bool { g.p.printf("%s", g.rec); return false }},
		{"rules", l.T("cli.play.help.rules"), func() bool { g.p.printf("%s", g.p.rulesText(g.rec.Rules)); return false }},
		{"help", l.T("cli.play.help.help"), g.help},
		{"quit", quit, func() bool { g.stop(l.T("cli.play.you_quit")); return true }},
	}
}

// word is how the player types command c in the game's language.
func (g *game) word(c playCommand) string {
	return g.p.lang.T("cli.play.word." + c.name)
}

func (g *game) help() bool {
	g.p.line(g.p.lang.T("cli.play.help_intro"))
	cmds := g.commands()
	width := 7 // a column as wide as "record" and one more

	for _, c := range cmds {
		width = max(width, utf8.RuneCountInString(g.word(c)))
	}
	for _, c := range cmds {
		g.p.printf("  %s %s\n", padRight(g.word(c), width), c.help)
	}
	return false
}

// run plays the game on the lines of stdin until it ends, the players
// quit, the input ends or ctx is cancelled; then it writes the record.
func (g *game) run(ctx context.Context, note string) error {
	l := g.p.lang
	if g.ai != nil {
		g.p.line(g.p.lang.T("cli.play.intro_ai", "Player", g.p.player(g.aiColor.Other()), "Marble", g.p.marble(g.aiColor.Other()), "Computer", g.p.player(g.aiColor), "ComputerMarble", g.p.marble(g.aiColor)))
	} else {
		g.p.line(g.p.lang.T("cli.play.intro", "Red", g.p.marble(engine.Red), "Black", g.p.marble(engine.Black)))
	}
	g.p.line(g.p.lang.T("cli.play.intro_help", "Rules", l.T("cli.play.word.rules"), "Help", l.T("cli.play.word.help")))
	g.p.line(g.p.lang.T("cli.layout_line", "Layout", g.rec.Layout))
	if note != "" {
		g.p.printf("%s\n", note)
	}
	g.p.line(g.p.lang.T("cli.play.rules_line", "Rules", g.p.rulesName(g.rec.Rules), "Summary", g.p.rulesSummary(g.rec.Rules)))
	g.p.printf("\n")
	g.show()

	lines, done := readLines(g.e.stdin)
	defer close(done)
	for {
		if g.ai != nil && g.pos.ToMove() == g.aiColor {
			g.p.line(g.p.lang.T("cli.play.thinking", "Player", g.p.player(g.aiColor)))
			m, err := g.ai.Move(ctx, g.pos, g.rec.Rules)
			if err != nil { // only a cancelled ctx: the game is on
				g.stop(l.T("cli.play.interrupted"))
				return errors.Join(g.finish(), err)
			}
			g.p.line(g.p.lang.T("cli.play.computer_plays", "Player", g.p.player(g.aiColor), "Hole", m.Cell, "Chance", g.p.chanceText(m)))
			if g.handle(m.Cell.String()) {
				return g.finish()
			}
			continue
		}
		g.p.printf("%s %s> ", g.p.player(g.pos.ToMove()), g.p.marble(g.pos.ToMove()))
		if g.p.err != nil { // stdout is gone; keep the game all the same
			return g.finish()
		}
		var in lineRead
		select {
		case <-ctx.Done():
			g.p.printf("\n")
			g.stop(l.T("cli.play.interrupted"))
			if err := g.finish(); err != nil {
				return err
			}
			return ctx.Err()
		case in = <-lines:
		}
		if in.err != nil {
			g.p.printf("\n")
			g.stop(l.T("cli.play.input_ended"))
			if err := g.finish(); err != nil {
				return err
			}
			if errors.Is(in.err, io.EOF) {
				return nil
			}
			return fmt.Errorf("%s: %w", l.T("cli.read_stdin"), in.err)
		}
		if g.echo {
			g.p.printf("%s\n", oneLine(in.line))
		}
		if g.handle(strings.TrimSpace(in.line)) {
			return g.finish()
		}
	}
}

// lineRead is one line of input, or the error that ended the input.
type lineRead struct {
	line string
	err  error // io.EOF at the end of the input
}

// readLines reads r line by line in its own goroutine, so that waiting
// for input does not keep a signal from stopping the game. After the
// last line it sends the error that ended r; it stops when done is
// closed.
func readLines(r io.Reader) (<-chan lineRead, chan<- struct{}) {
	lines := make(chan lineRead)
	done := make(chan struct{})
	go func() {
		br := bufio.NewReader(r)
		for {
			s, err := br.ReadString('\n')
			in := lineRead{line: strings.TrimRight(s, "\r\n")}
			if err != nil && s == "" {
				in.err = err
			}
			select {
			case lines <- in:
			case <-done:
				return
			}
			if in.err != nil {
				return
			}
		}
	}()
	return lines, done
}

// handle carries out one line of input and reports whether the game
// stops.
func (g *game) handle(line string) bool {
	if line == "" {
		return false
	}
	word := strings.ToLower(line)
	if word == "exit" {
		word = "quit"
	}
	for _, c := range g.commands() {
		if word == c.name || word == strings.ToLower(g.word(c)) {
			return c.do()
		}
	}
	if err := g.pos.PlayMove(line); err != nil {
		why := g.p.explainIllegal(&g.pos, line, err)
		if errors.Is(err, engine.ErrSyntax) {
			g.p.line(g.p.lang.T("cli.play.not_allowed_syntax", "Why", why, "Help", g.p.lang.T("cli.play.word.help")))
		} else {
			g.p.line(g.p.lang.T("cli.play.not_allowed", "Why", why))
		}
		g.p.printf("%s\n", g.p.legalSentence(&g.pos))
		return false
	}
	last, _ := g.pos.Last()
	g.rec.Moves = append(g.rec.Moves, g.pos.Layout().Cell(last).String())
	g.p.printf("\n")
	g.show()
	return g.pos.IsOver()
}

// undo takes back the last marble; against the computer, the player's
// last marble and the computer's reply.
func (g *game) undo() bool {
	n := len(g.rec.Moves)
	if g.ai != nil && n > 0 && g.pos.ToMove() != g.aiColor {
		if n < 2 {
			g.p.line(g.p.lang.T("cli.play.nothing_of_yours"))
			return false
		}
		g.p.line(g.p.lang.T("cli.play.took_back_reply", "Hole", g.rec.Moves[n-1]))
		g.rec.Moves = g.rec.Moves[:n-1]
		n--
	}
	if n == 0 {
		g.p.line(g.p.lang.T("cli.play.nothing_to_undo"))
		return false
	}
	taken := g.rec.Moves[n-1]
	g.rec.Moves = g.rec.Moves[:n-1]
	pos, err := g.rec.Replay()
	if err != nil { // the moves were legal when they were played
		panic("kulami: replaying the moves of this game: " + err.Error())
	}
	g.pos = pos
	g.p.line(g.p.lang.T("cli.play.took_back", "Player", g.p.player(g.pos.ToMove()), "Hole", taken))
	g.p.printf("\n")
	g.show()
	return false
}

// stop says that the game stops before its end, and why, and gives the
// score so far.
func (g *game) stop(why string) {
	g.p.line(g.p.lang.T("cli.play.stops", "Why", why, "Marbles", g.p.marbles(g.pos.Ply())))
	g.p.printf("\n")
	g.p.score(&g.pos, g.rec.Rules)
}

// show draws the board and says how the game stands.
func (g *game) show() {
	g.p.board(&g.pos, playable(&g.pos))
	g.p.legend()
	g.p.lastMoves(&g.pos)
	if g.pos.IsOver() {
		g.p.printf("\n")
		g.p.score(&g.pos, g.rec.Rules)
		g.p.printf("\n")
	}
	g.p.status(&g.pos, g.rec.Rules)
}

// finish sets the Result tag and writes the record, if asked to. If the
// record cannot be written it is printed, so the game is not lost.
func (g *game) finish() error {
	if g.pos.IsOver() {
		s := g.pos.Score(g.rec.Rules)
		w, ok := s.Winner()
		result := fmt.Sprintf("Draw %d-%d", s[engine.Red].Total, s[engine.Black].Total)
		if ok {
			result = fmt.Sprintf("%s %d-%d", w.Title(), s[w].Total, s[w.Other()].Total)
		}
		g.rec.SetTag("Result", result)
	}
	if g.path == "" {
		return g.p.err
	}
	err := writeNewFile(g.path, g.rec.String())
	if err != nil {
		g.p.line(g.p.lang.T("cli.play.record_failed"))
		g.p.printf("\n%s\n", g.rec)
		return fmt.Errorf("%s: %w", g.p.lang.T("cli.play.write_record"), g.e.fileError(err))
	}
	g.p.line(g.p.lang.T("cli.play.record_written", "File", g.path))
	return g.p.err
}

// writeNewFile writes text to a file that must not exist yet.
func writeNewFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// rulesText explains the rules in plain words for someone who has never
// played, with the scoring of rule set r.
func (p *printer) rulesText(r engine.Rules) string {
	var b strings.Builder
	b.WriteString(p.lang.T("cli.rules.play", "Red", redMarble, "Black", blackMarble, "Empty", emptyHole,
		"Marbles", engine.MarblesPerPlayer, "Panels", engine.NumPanels, "Legal", legalHole, "All", engine.MaxPly))
	b.WriteString("\n\n" + p.lang.T("cli.rules.score", "Rules", p.rulesName(r)) + "\n")
	if r.CountsArea() {
		b.WriteString(p.lang.T("cli.rules.area") + "\n")
	}
	if r.CountsLines() {
		b.WriteString(p.lang.T("cli.rules.lines") + "\n")
	}
	b.WriteString(p.lang.T("cli.rules.total") + "\n")
	return b.String()
}
