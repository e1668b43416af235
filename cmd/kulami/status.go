package main

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kulami/kulami/engine"
)

// player names colour c for people: "Red", or "Red (alice)" when the
// printer knows the name.
func (p *printer) player(c engine.Color) string {
	if n := p.names[c]; n != "" {
		return p.colorName(c) + " (" + n + ")"
	}
	return p.colorName(c)
}

// colorName is the name of colour c in the printer's language: "Red".
func (p *printer) colorName(c engine.Color) string {
	return p.lang.T("color." + c.String())
}

// rulesName is the name of rule set r in the printer's language: "basic".
func (p *printer) rulesName(r engine.Rules) string {
	return p.lang.T("rules." + r.String())
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
func (p *printer) rulesSummary(r engine.Rules) string {
	return p.lang.T("cli.rules_summary." + r.String())
}

// score writes the score breakdown of pos under rules, one row per colour
// and one column per part the rule set counts.
func (p *printer) score(pos *engine.Position, rules engine.Rules) {
	s := pos.Score(rules)
	type column struct {
		name  string
		value func(engine.Breakdown) int
	}
	cols := []column{{p.lang.T("cli.col_panels"), func(b engine.Breakdown) int { return b.Panels }}}
	if rules.CountsArea() {
		cols = append(cols, column{p.lang.T("cli.col_area"), func(b engine.Breakdown) int { return b.Area }})
	}
	if rules.CountsLines() {
		cols = append(cols, column{p.lang.T("cli.col_lines"), func(b engine.Breakdown) int { return b.Lines }})
	}
	cols = append(cols, column{p.lang.T("cli.col_total"), func(b engine.Breakdown) int { return b.Total }})

	p.line(p.lang.T("cli.score_title", "Rules", p.rulesName(rules), "Summary", p.rulesSummary(rules)))
	names := [2]string{p.colorName(engine.Red), p.colorName(engine.Black)}
	nameWidth := max(utf8.RuneCountInString(names[0]), utf8.RuneCountInString(names[1]))
	p.printf("%s", strings.Repeat(" ", nameWidth+4))
	for _, c := range cols {
		p.printf("  %s", padLeft(c.name, 6))
	}
	p.printf("\n")
	for _, c := range [2]engine.Color{engine.Red, engine.Black} {
		p.printf("  %s %s", padRight(names[c], nameWidth), p.marble(c))
		for _, col := range cols {
			p.printf("  %s", padLeft(strconv.Itoa(col.value(s[c])), max(6, utf8.RuneCountInString(col.name))))
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
	if prev == engine.NoHole {
		p.line(p.lang.T("cli.last_marble", "Player", p.player(c), "Hole", l.Cell(last)))
		return
	}
	b, _ := pos.At(prev)
	p.line(p.lang.T("cli.last_marbles", "Player", p.player(c), "Hole", l.Cell(last), "Before", p.player(b), "BeforeHole", l.Cell(prev)))
}

// status writes how the game stands: at the end why it ended and who won,
// before it whose turn it is and where they may play.
func (p *printer) status(pos *engine.Position, rules engine.Rules) {
	if pos.IsOver() {
		p.line(p.lang.T("cli.game_over", "Reason", p.endReason(pos)))
		p.printf("%s\n", p.result(pos.Score(rules)))
		return
	}
	p.line(p.lang.T("cli.to_move", "Player", p.player(pos.ToMove()), "Marble", pos.Ply()+1, "Marbles", engine.MaxPly))
	p.printf("%s\n", p.legalSentence(pos))
}

// endReason says why a finished game ended.
func (p *printer) endReason(pos *engine.Position) string {
	if pos.Ply() == engine.MaxPly {
		return p.lang.T("cli.end_all_placed", "Marbles", engine.MaxPly)
	}
	return p.lang.T("cli.end_no_hole", "Player", p.player(pos.ToMove()), "Marbles", p.marbles(pos.Ply()))
}

// marbles returns "1 marble" or "n marbles".
func (p *printer) marbles(n int) string {
	return p.lang.N("cli.marbles", n)
}

// result says who won with what score: "Red wins, 35 to 29."
func (p *printer) result(s engine.Score) string {
	w, ok := s.Winner()
	if !ok {
		return p.lang.T("cli.result_draw", "Red", s[engine.Red].Total, "Black", s[engine.Black].Total)
	}
	return p.lang.T("cli.result_win", "Player", p.player(w), "Points", s[w].Total, "Against", s[w.Other()].Total)
}

// legalSentence says where the player to move may play.
func (p *printer) legalSentence(pos *engine.Position) string {
	if last, _ := pos.Last(); last == engine.NoHole {
		return p.lang.T("cli.legal_first")
	}
	return p.lang.T("cli.legal", "Holes", strings.Join(holeList(pos.Layout(), pos.Legal()), " "))
}

// explainIllegal says in plain words which rule the move breaks in pos,
// given err from Position.PlayMove.
func (p *printer) explainIllegal(pos *engine.Position, move string, err error) string {
	l := pos.Layout()
	cols := fmt.Sprintf("A–%c", 'A'+l.Width()-1)
	rows := fmt.Sprintf("1–%d", l.Height())
	if errors.Is(err, engine.ErrGameOver) {
		return p.lang.T("cli.illegal.game_over")
	}
	c, perr := engine.ParseCell(move)
	if perr != nil {
		return p.lang.T("cli.illegal.syntax", "Move", fmt.Sprintf("%q", move), "Columns", cols, "Rows", rows)
	}
	last, prev := pos.Last()
	switch {
	case errors.Is(err, engine.ErrOffBoard):
		if c.Col() < l.Width() && c.Row() < l.Height() {
			return p.lang.T("cli.illegal.gap", "Hole", c)
		}
		return p.lang.T("cli.illegal.off_board", "Hole", c, "Columns", cols, "Rows", rows)
	case errors.Is(err, engine.ErrOccupied):
		h, _ := l.HoleAt(c)
		owner, _ := pos.At(h)
		return p.lang.T("cli.illegal.occupied_"+owner.String(), "Hole", c)
	case errors.Is(err, engine.ErrNotInLine):
		lc := l.Cell(last)
		return p.lang.T("cli.illegal.not_in_line", "Hole", c, "Last", lc, "Row", lc.Row()+1, "Column", string(rune('A'+lc.Col())))
	case errors.Is(err, engine.ErrSamePanel):
		return p.lang.T("cli.illegal.same_panel", "Hole", c, "Last", l.Cell(last))
	case errors.Is(err, engine.ErrPreviousPanel):
		return p.lang.T("cli.illegal.previous_panel", "Hole", c, "Before", l.Cell(prev))
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

// padLeft pads s with spaces on the left to width characters.
func padLeft(s string, width int) string {
	return strings.Repeat(" ", max(0, width-utf8.RuneCountInString(s))) + s
}

// padRight pads s with spaces on the right to width characters.
func padRight(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-utf8.RuneCountInString(s)))
}
