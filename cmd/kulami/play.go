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

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
)

const playDoc = `Play is a game of Kulami for two people at one terminal. The board is
drawn after every move; the prompt says whose turn it is, and the board
marks with + the holes that may be played. Type a hole such as D4 to place
a marble there, or one of the commands help, rules, legal, score, undo,
board, record and quit. An illegal move is explained and refused.

Play reads one line at a time from standard input, so a game can be
scripted by piping moves into it; the end of the input stops the game as
quit does. With --record FILE the game record (RECORD.md) is written to
FILE when the game ends or is stopped; FILE must not exist yet.

With --ai LEVEL (easy, medium or hard) you play against the computer, which
plays the colour that moves second, or the first with --ai-first; undo then
takes back your last marble and the computer's reply.
`

func runPlay(ctx context.Context, e *env, args []string) error {
	flags := newFlags("play")
	layoutSpec := flags.String("layout", kindSquare, "the board: square, random (panels shuffled on the 8×8 square),\nirregular (within 10×10, with gaps) or a layout `string`")
	var seed seedFlag
	flags.Var(&seed, "seed", "the `seed` of a random or irregular layout, a whole number")
	rulesName := flags.String("rules", engine.Basic.String(), "how to `score`: basic (panels), area (panels and area bonus),\nlines (panels and lines bonus) or full (both bonuses)")
	firstName := flags.String("first", "red", "the `colour` that places the first marble: red or black")
	path := flags.String("record", "", "write the game record to `FILE` when the game ends or is stopped")
	var names [2]string
	flags.StringVar(&names[engine.Red], "red", "", "the red player's `name`, for the prompt and the record")
	flags.StringVar(&names[engine.Black], "black", "", "the black player's `name`, for the prompt and the record")
	aiLevel := flags.String("ai", "", "play against the computer at `level` easy, medium or hard")
	aiFirst := flags.Bool("ai-first", false, "with --ai, the computer places the first marble")
	rest, err := parse(flags, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("play takes only flags, but got %q", rest[0])
	}
	rules, err := engine.ParseRules(*rulesName)
	if err != nil {
		return usagef("--rules: %v", err)
	}
	first, err := engine.ParseColor(*firstName)
	if err != nil {
		return usagef("--first: %v", err)
	}
	l, note, err := e.chooseLayout(*layoutSpec, seed, "kulami play --layout "+*layoutSpec)
	if err != nil {
		return err
	}
	var computer ai.Player
	aiColor := first.Other()
	if *aiLevel != "" {
		level, err := ai.ParseLevel(*aiLevel)
		if err != nil {
			return usagef("--ai: %v", err)
		}
		computer = level
		if *aiFirst {
			aiColor = first
		}
		names[aiColor] = "computer, " + level.String()
	} else if *aiFirst {
		return usagef("--ai-first needs --ai LEVEL, the computer to play against")
	}
	if *path != "" {
		if err := checkNewFile(*path); err != nil {
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
func checkNewFile(path string) error {
	_, err := os.Lstat(path)
	switch {
	case err == nil:
		return usagef("--record %s: the file already exists; give a new name or remove it", path)
	case !errors.Is(err, fs.ErrNotExist):
		return usagef("--record: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(path)); err != nil {
		return usagef("--record %s: %v", path, err)
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

// playCommand is a word a player may type instead of a move.
type playCommand struct {
	name, help string
	// do carries out the command and reports whether the game stops.
	do func() bool
}

func (g *game) commands() []playCommand {
	quit := "stop the game"
	if g.path != "" {
		quit += " and write the record to " + g.path
	}
	return []playCommand{
		{"legal", "list the holes you may play", func() bool { g.p.printf("%s\n", legalSentence(&g.pos)); return false }},
		{"score", "show the score so far", func() bool { g.p.score(&g.pos, g.rec.Rules); return false }},
		{"undo", "take back the last marble", g.undo},
		{"board", "draw the board again", func() bool { g.show(); return false }},
		{"record", "print the game record so far", func() bool { g.p.printf("%s", g.rec); return false }},
		{"rules", "explain the rules", func() bool { g.p.printf("%s", rulesText(g.rec.Rules)); return false }},
		{"help", "show this list", g.help},
		{"quit", quit, func() bool { g.stop("You quit"); return true }},
	}
}

func (g *game) help() bool {
	g.p.printf("Type a hole, such as D4, to place a marble there. Or type one of these:\n")
	for _, c := range g.commands() {
		g.p.printf("  %-7s %s\n", c.name, c.help)
	}
	return false
}

// run plays the game on the lines of stdin until it ends, the players
// quit, the input ends or ctx is cancelled; then it writes the record.
func (g *game) run(ctx context.Context, note string) error {
	if g.ai != nil {
		g.p.printf("Kulami against the computer: %s plays %s, %s plays %s.\n", g.p.player(g.aiColor.Other()), g.p.marble(g.aiColor.Other()), g.p.player(g.aiColor), g.p.marble(g.aiColor))
	} else {
		g.p.printf("Kulami for two players at one terminal: Red plays %s, Black plays %s.\n", g.p.marble(engine.Red), g.p.marble(engine.Black))
	}
	g.p.printf("Type a hole such as D4 to place a marble, \"rules\" to learn the rules, \"help\" for the commands.\n")
	g.p.printf("Layout: %s\n", g.rec.Layout)
	if note != "" {
		g.p.printf("%s\n", note)
	}
	g.p.printf("Rules: %s (%s).\n\n", g.rec.Rules, rulesSummary(g.rec.Rules))
	g.show()

	lines, done := readLines(g.e.stdin)
	defer close(done)
	for {
		if g.ai != nil && g.pos.ToMove() == g.aiColor {
			g.p.printf("%s is thinking...\n", g.p.player(g.aiColor))
			m, err := g.ai.Move(ctx, g.pos, g.rec.Rules)
			if err != nil { // only a cancelled ctx: the game is on
				g.stop("Interrupted")
				return errors.Join(g.finish(), err)
			}
			g.p.printf("%s plays %s: %s.\n", g.p.player(g.aiColor), m.Cell, chanceText(m))
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
			g.stop("Interrupted")
			if err := g.finish(); err != nil {
				return err
			}
			return ctx.Err()
		case in = <-lines:
		}
		if in.err != nil {
			g.p.printf("\n")
			g.stop("The input has ended")
			if err := g.finish(); err != nil {
				return err
			}
			if errors.Is(in.err, io.EOF) {
				return nil
			}
			return fmt.Errorf("read standard input: %w", in.err)
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
		if word == c.name {
			return c.do()
		}
	}
	if err := g.pos.PlayMove(line); err != nil {
		g.p.printf("Not allowed: %s", explainIllegal(&g.pos, line, err))
		if errors.Is(err, engine.ErrSyntax) {
			g.p.printf(", or type help for the commands")
		}
		g.p.printf(".\n%s\n", legalSentence(&g.pos))
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
			g.p.printf("There is no marble of yours to take back.\n")
			return false
		}
		g.p.printf("Took back the computer's reply at %s.\n", g.rec.Moves[n-1])
		g.rec.Moves = g.rec.Moves[:n-1]
		n--
	}
	if n == 0 {
		g.p.printf("There is no marble to take back.\n")
		return false
	}
	taken := g.rec.Moves[n-1]
	g.rec.Moves = g.rec.Moves[:n-1]
	pos, err := g.rec.Replay()
	if err != nil { // the moves were legal when they were played
		panic("kulami: replaying the moves of this game: " + err.Error())
	}
	g.pos = pos
	g.p.printf("Took back the marble %s placed at %s.\n\n", g.p.player(g.pos.ToMove()), taken)
	g.show()
	return false
}

// stop says that the game stops before its end, and why, and gives the
// score so far.
func (g *game) stop(why string) {
	g.p.printf("%s: the game stops after %s.\n\n", why, marbles(g.pos.Ply()))
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
		g.p.printf("The record could not be written; here it is:\n\n%s\n", g.rec)
		return fmt.Errorf("write the record: %w", err)
	}
	g.p.printf("Record written to %s.\n", g.path)
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
func rulesText(r engine.Rules) string {
	var b strings.Builder
	fmt.Fprintf(&b, `How to play
  Two players, Red (%s) and Black (%s), take turns placing one marble in an
  empty hole (%s on the board). Each has %d marbles. The board is made of
  %d panels, outlined by lines.
  - The first marble may go in any hole.
  - Every later marble must go in the same row or the same column as the
    marble just placed, at any distance (gaps and marbles in between do not
    matter),
  - but not on the panel of the marble just placed,
  - and not on the panel of the marble placed before that.
  The board marks the holes that may be played with %s.
  The game ends when all %d marbles are placed, or when the player to move
  has no hole to play.

Scoring (%s rules)
  Each panel belongs to the player with more marbles on it and scores as
  many points as it has holes, filled or not. A panel with as many red as
  black marbles, or none, scores for nobody.
`, redMarble, blackMarble, emptyHole, engine.MarblesPerPlayer, engine.NumPanels, legalHole, engine.MaxPly, r)
	if r.CountsArea() {
		b.WriteString(`  Area bonus: take each player's largest group of marbles that touch side
  to side (not corner to corner); the player with the larger group scores
  the difference of the two sizes.
`)
	}
	if r.CountsLines() {
		b.WriteString(`  Lines bonus: every straight line of 5 or more of one player's marbles
  next to each other (across, down or diagonal) scores its length; the
  player with more line points scores the difference.
`)
	}
	b.WriteString("  The higher total wins; equal totals are a draw.\n")
	return b.String()
}
