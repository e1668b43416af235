package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
)

// printer writes boards, scores and messages for people at a terminal. It
// draws marbles and panels in plain characters, so a board reads the same
// without colour; with color set it adds ANSI colours. It keeps the first
// write error (see err) and writes nothing after it.
//
// A printer is not safe for concurrent use.
type printer struct {
	w     io.Writer
	color bool
	lang  i18n.Lang // the language of its words
	names [2]string // players' names by colour, or "" when unknown
	err   error
}

// newPrinter returns a printer writing to e's stdout in e's language.
func (e *env) newPrinter() *printer {
	return &printer{w: e.stdout, color: e.color, lang: e.lang}
}

// line writes s and a new line.
func (p *printer) line(s string) {
	p.printf("%s\n", s)
}

// printf writes unless an earlier write failed.
func (p *printer) printf(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format, args...)
	}
}

// The characters of a board.
const (
	redMarble   = "○"
	blackMarble = "●"
	emptyHole   = "·"
	legalHole   = "+"
)

// ANSI colours, used only when the printer's color is set.
const (
	ansiRed   = "\x1b[1;31m"
	ansiBold  = "\x1b[1m"
	ansiGreen = "\x1b[32m"
	ansiReset = "\x1b[0m"
)

// marble returns the character of colour c's marbles, painted.
func (p *printer) marble(c engine.Color) string {
	if c == engine.Red {
		return p.paint(ansiRed, redMarble)
	}
	return p.paint(ansiBold, blackMarble)
}

// paint wraps s in an ANSI colour when the printer uses colour.
func (p *printer) paint(ansi, s string) string {
	if !p.color {
		return s
	}
	return ansi + s + ansiReset
}

// boxChars[arms] joins the lines leaving a corner of the grid: arms has
// bit 1 for up, 2 for down, 4 for left and 8 for right.
var boxChars = [16]string{" ", "╵", "╷", "│", "╴", "┘", "┐", "┤", "╶", "└", "┌", "├", "─", "┴", "┬", "┼"}

// board draws pos: columns lettered and rows numbered on the edges, a line
// around every panel, ○ and ● for red and black marbles, · for an empty
// hole and + for an empty hole in legal, the last marble in [ ] and the
// one before it in ( ). Gaps are blank.
func (p *printer) board(pos *engine.Position, legal engine.Holes) {
	l := pos.Layout()
	w, h := l.Width(), l.Height()
	panel := func(col, row int) int { // the panel at col, row, or -1
		if col < 0 || row < 0 || col >= w || row >= h {
			return -1
		}
		if i, ok := l.PanelAt(engine.CellAt(col, row)); ok {
			return i
		}
		return -1
	}
	last, prev := pos.Last()
	var b strings.Builder
	letters := func() {
		b.WriteString("   ")
		for col := range w {
			fmt.Fprintf(&b, "  %c", 'A'+col)
			if col < w-1 {
				b.WriteString(" ")
			}
		}
		b.WriteString("\n")
	}
	letters()
	for row := 0; ; row++ {
		// The border above row.
		var line strings.Builder
		line.WriteString("   ")
		for col := 0; col <= w; col++ {
			tl, tr := panel(col-1, row-1), panel(col, row-1)
			bl, br := panel(col-1, row), panel(col, row)
			arms := 0
			for i, differ := range [4]bool{tl != tr, bl != br, tl != bl, tr != br} {
				if differ {
					arms |= 1 << i
				}
			}
			line.WriteString(boxChars[arms])
			if col < w {
				if tr != br {
					line.WriteString("───")
				} else {
					line.WriteString("   ")
				}
			}
		}
		b.WriteString(strings.TrimRight(line.String(), " "))
		b.WriteString("\n")
		if row == h {
			break
		}
		// The holes of row.
		fmt.Fprintf(&b, "%2d ", row+1)
		for col := 0; col <= w; col++ {
			if panel(col-1, row) != panel(col, row) {
				b.WriteString("│")
			} else {
				b.WriteString(" ")
			}
			if col == w {
				break
			}
			hole, ok := l.HoleAt(engine.CellAt(col, row))
			if !ok {
				b.WriteString("   ")
				continue
			}
			open, shut := " ", " "
			switch hole {
			case last:
				open, shut = "[", "]"
			case prev:
				open, shut = "(", ")"
			}
			b.WriteString(open + p.hole(pos, hole, legal) + shut)
		}
		fmt.Fprintf(&b, " %d\n", row+1)
	}
	letters()
	p.printf("%s", b.String())
}

// playable returns the holes a board of pos marks with +: the legal
// holes, except before the first marble, when every hole is legal.
func playable(pos *engine.Position) engine.Holes {
	if last, _ := pos.Last(); last == engine.NoHole {
		return 0
	}
	return pos.Legal()
}

// hole returns the character of hole h.
func (p *printer) hole(pos *engine.Position, h engine.Hole, legal engine.Holes) string {
	if c, ok := pos.At(h); ok {
		return p.marble(c)
	}
	if legal.Has(h) {
		return p.paint(ansiGreen, legalHole)
	}
	return emptyHole
}

// legend explains the characters of a board with marbles.
func (p *printer) legend() {
	p.line(p.lang.T("cli.legend", "Red", p.marble(engine.Red), "Black", p.marble(engine.Black), "Empty", emptyHole, "Legal", p.paint(ansiGreen, legalHole)))
}
