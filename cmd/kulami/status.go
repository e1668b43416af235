package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/kulami/kulami/engine"
)

// player names colour c for people: "Red", or "Red (alice)" when the
// printer knows the name.
func (p *printer) player(c engine.Color) string {
	if n := p.names[c]; n != "" {
		return c.Title() + " (" + n + ")"
	}
	return c.Title()
}

// holeList returns the coordinates of the holes in mask, in hole order:
// row by row from the top left.
func holeList(l *engine.Layout, s engine.Holes) []string {
	var out []string
	for _, c := range s.Cells(l) {
		out = append(out, c.String())
	}
	return out
}

// rulesSummary says in a few words what rule set r scores.
func rulesSummary(r engine.Rules) string {
	switch r {
	case engine.Area:
		return "panels and the area bonus"
	case engine.Lines:
		return "panels and the lines bonus"
	case engine.Full:
		return "panels, the area bonus and the lines bonus"
	}
	return "panels only"
}

// score writes the score breakdown of pos under rules, one row per colour
// and one column per part the rule set counts.
func (p *printer) score(pos *engine.Position, rules engine.Rules) {
	s := pos.Score(rules)
	type column struct {
		name  string
		value func(engine.Breakdown) int
	}
	cols := []column{{"panels", func(b engine.Breakdown) int { return b.Panels }}}
	if rules.CountsArea() {
		cols = append(cols, column{"area", func(b engine.Breakdown) int { return b.Area }})
	}
	if rules.CountsLines() {
		cols = append(cols, column{"lines", func(b engine.Breakdown) int { return b.Lines }})
	}
	cols = append(cols, column{"total", func(b engine.Breakdown) int { return b.Total }})

	p.printf("Score (%s rules: %s)\n", rules, rulesSummary(rules))
	p.printf("%-9s", "")
	for _, c := range cols {
		p.printf("  %6s", c.name)
	}
	p.printf("\n")
	for _, c := range [2]engine.Color{engine.Red, engine.Black} {
		p.printf("  %-5s %s", c.Title(), p.marble(c))
		for _, col := range cols {
			p.printf("  %6d", col.value(s[c]))
		}
		p.printf("\n")
	}
}

// lastMoves writes which marbles the [ ] and ( ) of the board mark.
func (p *printer) lastMoves(pos *engine.Position) {
	l := pos.Layout()
	last, prev := pos.Last()
	if last == engine.NoHole {
		return
	}
	c, _ := pos.At(last)
	p.printf("Last marble: %s at %s", p.player(c), l.Cell(last))
	if prev != engine.NoHole {
		c, _ := pos.At(prev)
		p.printf("; the one before: %s at %s", p.player(c), l.Cell(prev))
	}
	p.printf(".\n")
}

// status writes how the game stands: at the end why it ended and who won,
// before it whose turn it is and where they may play.
func (p *printer) status(pos *engine.Position, rules engine.Rules) {
	if pos.IsOver() {
		p.printf("Game over: %s\n", p.endReason(pos))
		p.printf("%s\n", p.result(pos.Score(rules)))
		return
	}
	p.printf("%s to move (marble %d of %d).\n", p.player(pos.ToMove()), pos.Ply()+1, engine.MaxPly)
	p.printf("%s\n", legalSentence(pos))
}

// endReason says why a finished game ended.
func (p *printer) endReason(pos *engine.Position) string {
	if pos.Ply() == engine.MaxPly {
		return fmt.Sprintf("all %d marbles are placed.", engine.MaxPly)
	}
	return fmt.Sprintf("%s has no legal hole, so the game ends after %s.", p.player(pos.ToMove()), marbles(pos.Ply()))
}

// marbles returns "1 marble" or "n marbles".
func marbles(n int) string {
	if n == 1 {
		return "1 marble"
	}
	return fmt.Sprintf("%d marbles", n)
}

// result says who won with what score: "Red wins, 35 to 29."
func (p *printer) result(s engine.Score) string {
	w, ok := s.Winner()
	if !ok {
		return fmt.Sprintf("Draw, %d to %d.", s[engine.Red].Total, s[engine.Black].Total)
	}
	return fmt.Sprintf("%s wins, %d to %d.", p.player(w), s[w].Total, s[w.Other()].Total)
}

// legalSentence says where the player to move may play.
func legalSentence(pos *engine.Position) string {
	if last, _ := pos.Last(); last == engine.NoHole {
		return "The first marble may go in any hole."
	}
	return "Legal holes: " + strings.Join(holeList(pos.Layout(), pos.Legal()), " ") + "."
}

// explainIllegal says in plain words which rule the move breaks in pos,
// given err from Position.PlayMove.
func explainIllegal(pos *engine.Position, move string, err error) string {
	l := pos.Layout()
	cols := fmt.Sprintf("A–%c", 'A'+l.Width()-1)
	rows := fmt.Sprintf("1–%d", l.Height())
	if errors.Is(err, engine.ErrGameOver) {
		return "the game is over: no more marbles can be placed"
	}
	c, perr := engine.ParseCell(move)
	if perr != nil {
		return fmt.Sprintf("%q is not a hole: write a column letter %s and a row number %s, like D4", move, cols, rows)
	}
	last, prev := pos.Last()
	switch {
	case errors.Is(err, engine.ErrOffBoard):
		if c.Col() < l.Width() && c.Row() < l.Height() {
			return fmt.Sprintf("there is no hole at %s: no panel covers that square", c)
		}
		return fmt.Sprintf("there is no hole at %s: the board has columns %s and rows %s", c, cols, rows)
	case errors.Is(err, engine.ErrOccupied):
		h, _ := l.HoleAt(c)
		owner, _ := pos.At(h)
		return fmt.Sprintf("%s already holds a %s marble; each hole takes one marble", c, owner)
	case errors.Is(err, engine.ErrNotInLine):
		lc := l.Cell(last)
		return fmt.Sprintf("%s is not in line with the last marble at %s: play in row %d or column %c", c, lc, lc.Row()+1, 'A'+lc.Col())
	case errors.Is(err, engine.ErrSamePanel):
		return fmt.Sprintf("%s is on the same panel as the last marble at %s: play on another panel", c, l.Cell(last))
	case errors.Is(err, engine.ErrPreviousPanel):
		return fmt.Sprintf("%s is on the same panel as the marble before the last, at %s: that panel is closed for this move", c, l.Cell(prev))
	}
	return err.Error()
}

// reasonCode returns the reason code of RULES.md that err carries, or ""
// if it carries none.
func reasonCode(err error) string {
	var re *engine.RuleError
	if errors.As(err, &re) {
		return re.Code
	}
	return ""
}
