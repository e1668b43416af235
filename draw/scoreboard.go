package draw

import (
	"fmt"
	"image"

	"github.com/fogleman/gg"
	"github.com/kulami/kulami/engine"
)

// state is what the header and footer say about a position.
type state struct {
	p     *engine.Position
	opt   *Options
	final bool
	score engine.Score
}

// panelsHeld returns how many panels colour c holds.
func (s *state) panelsHeld(c engine.Color) int {
	n := 0
	for i := range engine.NumPanels {
		if o, ok := s.p.PanelOwner(i); ok && o == c {
			n++
		}
	}
	return n
}

// footerHeight returns the height of the footer below the board: one line
// while the game goes on; the result and the score breakdown at its end.
func (g *geometry) footerHeight(final bool) int {
	if final {
		return px(196, g.scale)
	}
	return px(64, g.scale)
}

// card returns the box of colour c's player in the header.
func (g *geometry) card(c engine.Color) image.Rectangle {
	gap := px(12, g.scale)
	w := (g.width - 2*g.pad - gap) / 2
	x := g.pad + int(c)*(w+gap)
	return image.Rect(x, g.pad, x+w, g.pad+g.header-px(10, g.scale))
}

// headerHeight is the height of the strip the header's boxes lie in.
func (g *geometry) headerHeight() int { return g.pad + g.header }

// drawCards draws the players' boxes with their marbles on dst, the box
// of colour hi outlined in the accent colour unless hi is noCard.
func (b *board) drawCards(dst *image.RGBA, hi engine.Color) {
	g := &b.geo
	dc := gg.NewContextForRGBA(dst)
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		r := g.card(c)
		x, y, w, h := float64(r.Min.X), float64(r.Min.Y), float64(r.Dx()), float64(r.Dy())
		rad := g.f(10)
		if c == hi {
			dc.SetColor(themes[b.theme].hi)
			dc.DrawRoundedRectangle(x, y, w, h, rad)
			dc.Fill()
		}
		in := g.f(3)
		dc.SetColor(themes[b.theme].card)
		dc.DrawRoundedRectangle(x+in, y+in, w-2*in, h-2*in, rad-in)
		dc.Fill()
		m := g.f(19)
		dc.Push()
		dc.Translate(x+g.f(16), y+h/2-m)
		drawMarble(dc, m, m, c)
		dc.Pop()
	}
}

// noCard stands for no player's box being outlined.
const noCard = engine.Color(2)

// drawHeader writes in the players' boxes their names, points and panels
// held, and whose turn it is or who won; the boxes themselves come from
// the board.
func (b *board) drawHeader(dst *image.RGBA, fs *faces, st *state) {
	g := &b.geo
	th := themes[b.theme]
	winner, decided := st.score.Winner()
	onBoard := st.p.IsOver() // else the result is Outcome's to tell
	hi := st.highlight()
	if hi != noCard {
		copy(dst.Pix, b.headers[hi].Pix)
	}
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		r := g.card(c)
		tx := r.Min.X + px(16+38+14, g.scale)
		right := r.Max.X - px(14, g.scale)
		tag := ""
		switch {
		case !st.final && st.p.ToMove() == c:
			tag = "to move"
		case onBoard && decided && winner == c:
			tag = "winner"
		case onBoard && !decided:
			tag = "draw"
		}
		tagW := 0
		mid := (r.Min.Y + r.Max.Y) / 2
		line2 := mid + px(30, g.scale)
		if tag != "" {
			tagW = text(dst, fs.small, th.text, tag, right, line2, alignRight) + px(10, g.scale)
		}
		name := fit(fs.name, printable(st.opt.name(c)), right-tx)
		text(dst, fs.name, th.text, name, tx, mid-px(4, g.scale), alignLeft)
		points := fmt.Sprintf("%d points · %d panels", st.score[c].Total, st.panelsHeld(c))
		if st.final {
			points = fmt.Sprintf("%d points", st.score[c].Total)
		}
		text(dst, fs.small, th.muted, fit(fs.small, points, right-tx-tagW), tx, line2, alignLeft)
	}
}

// highlight returns the colour whose box is outlined: the player to move,
// or the winner of a game that ended on the board; noCard after a draw or
// when the game ended otherwise (Options.Over), as the board does not say
// who won then.
func (s *state) highlight() engine.Color {
	if !s.final {
		return s.p.ToMove()
	}
	if w, ok := s.score.Winner(); ok && s.p.IsOver() {
		return w
	}
	return noCard
}

// drawFooter writes, while the game goes on, the move number, who is to
// play and the rule set; at its end, the result line and the breakdown.
func (b *board) drawFooter(dst *image.RGBA, fs *faces, st *state) {
	g := &b.geo
	th := themes[b.theme]
	y := g.footerY + px(14, g.scale)
	width := g.width - 2*g.pad
	if !st.final {
		mover := st.p.ToMove()
		line := fmt.Sprintf("Move %d · %s (%s) to play · %s scoring", st.p.Ply()+1, printable(st.opt.name(mover)), mover, st.opt.Rules)
		text(dst, fs.small, th.muted, fit(fs.small, line, width), g.width/2, y+px(28, g.scale), alignCenter)
		return
	}
	text(dst, fs.strong, th.text, fit(fs.strong, st.result(), width), g.width/2, y+px(30, g.scale), alignCenter)

	// The breakdown: a column per part of the score the rule set counts.
	cols := []string{"Panels"}
	vals := []func(engine.Breakdown) int{func(x engine.Breakdown) int { return x.Panels }}
	if st.opt.Rules.CountsArea() {
		cols = append(cols, "Area")
		vals = append(vals, func(x engine.Breakdown) int { return x.Area })
	}
	if st.opt.Rules.CountsLines() {
		cols = append(cols, "Lines")
		vals = append(vals, func(x engine.Breakdown) int { return x.Lines })
	}
	cols = append(cols, "Total")
	vals = append(vals, func(x engine.Breakdown) int { return x.Total })

	colW := px(96, g.scale)
	numRight := g.width - g.pad - px(16, g.scale)
	firstNum := numRight - colW*(len(cols)-1)
	nameX := g.pad + px(16, g.scale) + px(36, g.scale)
	row := y + px(72, g.scale)
	for i, c := range cols {
		text(dst, fs.small, th.muted, c, firstNum+i*colW, row, alignRight)
	}
	dc := gg.NewContextForRGBA(dst)
	for k, c := range []engine.Color{engine.Red, engine.Black} {
		row := y + px(116+float64(k)*42, g.scale)
		r := g.f(13)
		cx, cy := float64(g.pad)+g.f(16)+r, float64(row)-g.f(8)
		dc.Push()
		dc.Translate(cx-r, cy-r)
		drawMarble(dc, r, r, c)
		dc.Pop()
		name := fit(fs.small, printable(st.opt.name(c)), firstNum-colW-nameX)
		text(dst, fs.small, th.text, name, nameX, row, alignLeft)
		for i, v := range vals {
			face := fs.small
			if i == len(vals)-1 {
				face = fs.strong
			}
			text(dst, face, th.text, fmt.Sprint(v(st.score[c])), firstNum+i*colW, row, alignRight)
		}
	}
}

// result returns the line that says how the game ended.
func (s *state) result() string {
	if s.opt.Outcome != "" {
		return printable(s.opt.Outcome)
	}
	red, black := s.score[engine.Red].Total, s.score[engine.Black].Total
	w, decided := s.score.Winner()
	switch {
	case !s.p.IsOver():
		return fmt.Sprintf("Game over · %s %d, %s %d", printable(s.opt.name(engine.Red)), red, printable(s.opt.name(engine.Black)), black)
	case !decided:
		return fmt.Sprintf("Draw, %d–%d", red, black)
	}
	return fmt.Sprintf("%s wins %d–%d", printable(s.opt.name(w)), s.score[w].Total, s.score[w.Other()].Total)
}
