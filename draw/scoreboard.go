package draw

import (
	"image"
	"strings"

	"github.com/fogleman/gg"
	"github.com/kulami/kulami/engine"
	"golang.org/x/image/font"
)

// state is what the header, the key and the footer say about a position,
// laid out in lines, with the faces to say it in.
type state struct {
	p      *engine.Position
	opt    *Options
	t      *Text
	g      *geometry
	fs     *faces
	th     themeColors
	final  bool
	score  engine.Score
	colors [2]string // the colours' names, as the set of marbles shows them
	names  [2]string // as the fonts can draw them
	cards  [2]card
	footer []block // the footer's texts above the score table, in order
}

// card is what a player's box in the header says under the name: the
// points and panels held, and under the rule sets with bonuses the
// points' parts, each wrapped onto as many lines as its box needs.
type card struct{ score, bonus paragraph }

// block is a text of the footer, laid out in lines.
type block struct {
	what  string
	r     role
	muted bool
	p     paragraph
	max   int // the most lines it may take
}

// The most lines a text of the header or the footer may take. The image
// grows to hold them; a text that would need more has its names
// shortened.
const (
	maxCardLines   = 2 // the points and panels, and the points' parts
	maxFooterLines = 3 // the footer's line while the game goes on, the result, the reason
	maxNoteLines   = 2 // a note under the footer's line
)

// nameList returns the players' names as the image shows them.
func (st *state) nameList() []string { return st.names[:] }

func (r *Renderer) newState(p *engine.Position, opt *Options, g *geometry, fs *faces) *state {
	st := &state{p: p, opt: opt, t: opt.Text, g: g, fs: fs, th: themes[opt.Theme],
		final: opt.Over || p.IsOver(), score: p.Score(opt.Rules)}
	if st.t == nil {
		st.t = &English
	}
	st.colors = st.t.ColorNames(opt.Marbles)
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		st.names[c] = st.colors[c]
		if n, ok := fs.printable(opt.Names[c]); ok && n != "" {
			st.names[c] = n
		}
	}
	st.layCards()
	st.layFooter()
	return st
}

// layCards lays out the players' boxes and sets the header's height.
func (st *state) layCards() {
	g := st.g
	lines := cardLines(st.fs, st.t, st.opt.Rules, g)
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		sc := st.score[c]
		st.cards[c] = st.t.card(st.fs, st.opt.Rules, g.cardText(c).Dx(), sc.Total, st.panelsHeld(c), sc)
		lines = max(lines, 1+len(st.cards[c].score.lines)+len(st.cards[c].bonus.lines))
	}
	if st.opt.frame != nil {
		lines = max(lines, st.opt.frame.cardLines)
	}
	g.setCardLines(lines)
}

// card lays out what a player's box says under their name, in lines of
// width pixels: points and panels held, and under the rule sets with
// bonuses the points' parts.
func (t *Text) card(fs *faces, rules engine.Rules, width, points, panels int, sc engine.Breakdown) card {
	f := fs.get(roleScore)
	s := t.fillAB(t.Score, "", 0, t.plural(t.Points, points), t.plural(t.Panels, panels))
	cd := card{score: layText(f, s, nil, width, maxCardLines)}
	if rules.CountsArea() || rules.CountsLines() {
		bonus := t.fill(t.Bonus, "", sc.Panels)
		if rules.CountsArea() {
			bonus += t.fill(t.BonusArea, "", sc.Area)
		}
		if rules.CountsLines() {
			bonus += t.fill(t.BonusLines, "", sc.Lines)
		}
		cd.bonus = layText(f, bonus, nil, width, maxCardLines)
	}
	return cd
}

// cardLines returns how many lines the players' boxes have, whatever the
// position: a line for the name and as many as the widest score takes
// (points of three digits, panels held and each part of the points of
// two, the wider plural form). The boxes, and so the board under them,
// stay in place from move to move.
func cardLines(fs *faces, t *Text, rules engine.Rules, g *geometry) int {
	const wide, part = 888, 88 // as wide as any score: the Go fonts' digits are all alike
	widest := *t
	widest.One = func(int) bool { return false }
	if w := t.fill(t.Points.One, "", 1); textWidth(fs.get(roleScore), w) > textWidth(fs.get(roleScore), t.fill(t.Points.Other, "", 1)) {
		widest.Points.Other = t.Points.One
	}
	if w := t.fill(t.Panels.One, "", 1); textWidth(fs.get(roleScore), w) > textWidth(fs.get(roleScore), t.fill(t.Panels.Other, "", 1)) {
		widest.Panels.Other = t.Panels.One
	}
	cd := widest.card(fs, rules, g.cardText(engine.Red).Dx(), wide, part, engine.Breakdown{Panels: part, Area: part, Lines: part, Total: wide})
	return 1 + len(cd.score.lines) + len(cd.bonus.lines)
}

// layFooter lays out the footer's texts: while the game goes on, the
// move, who is to play and the rule set; at its end, the result and why
// the game ended; and the note, if any.
func (st *state) layFooter() {
	t := st.t
	if !st.final {
		mover := st.p.ToMove()
		playing := t.Playing
		if st.names[mover] == st.colors[mover] {
			playing = t.PlayingColor
		}
		line := t.fillAB(playing, st.names[mover], st.p.Ply()+1, st.colors[mover], t.Rules[st.opt.Rules])
		st.addBlock("footer", roleFooter, true, line, maxFooterLines)
	} else {
		st.addBlock("result", roleStrong, false, st.result(), maxFooterLines)
		reason := st.opt.Reason
		switch {
		case reason != "":
		case st.p.Ply() >= engine.MaxPly:
			reason = t.fill(t.AllPlaced, "", engine.MaxPly)
		case st.p.IsOver():
			reason = t.fill(t.NoHole, st.names[st.p.ToMove()], st.p.Ply())
		}
		st.addBlock("reason", roleReason, true, st.caption(reason), maxFooterLines)
	}
	st.addBlock("note", roleFooter, false, st.caption(st.opt.Note), maxNoteLines)
}

// addBlock lays out s, if not empty, as a text of the footer.
func (st *state) addBlock(what string, r role, muted bool, s string, lines int) {
	if s == "" {
		return
	}
	p := layText(st.fs.get(r), s, st.nameList(), st.g.width-2*st.g.pad, lines)
	st.footer = append(st.footer, block{what: what, r: r, muted: muted, p: p, max: lines})
}

// footerLines returns how many lines the footer's texts take.
func (st *state) footerLines() int {
	n := 0
	for _, b := range st.footer {
		n += len(b.p.lines)
	}
	return n
}

// caption returns a caller's text (the outcome, the reason, the note) as
// the fonts can draw it: the players' names in it as the header shows
// them, and any other letter no font has left out.
func (st *state) caption(s string) string {
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		if n := strings.TrimSpace(st.opt.Names[c]); n != "" && n != st.names[c] {
			s = strings.ReplaceAll(s, n, st.names[c])
		}
	}
	out, _ := st.fs.printable(s)
	return out
}

// card returns the box of colour c's player in the header.
func (g *geometry) card(c engine.Color) image.Rectangle {
	gap := px(12, g.scale)
	w := (g.width - 2*g.pad - gap) / 2
	x := g.pad + int(c)*(w+gap)
	return image.Rect(x, g.pad, x+w, g.pad+px(cardPad+cardLine*float64(g.lines), g.scale))
}

// cardText returns the room of the text in colour c's box: right of its
// marble.
func (g *geometry) cardText(c engine.Color) image.Rectangle {
	r := g.card(c)
	return image.Rect(r.Min.X+px(16+38+14, g.scale), r.Min.Y, r.Max.X-px(14, g.scale), r.Max.Y)
}

// baseline returns the baseline of line k (from 0) of a player's box.
func (g *geometry) baseline(c engine.Color, k int) int {
	return g.card(c).Min.Y + px(cardPad/2+cardLine*float64(k)+25, g.scale)
}

// drawHeader writes in the players' boxes their names, points and panels
// held, and under the rule sets with bonuses the parts of the points; the
// boxes themselves come from the kit.
func (st *state) drawHeader(w *writer) {
	g := st.g
	lineH := px(cardLine, g.scale)
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		room := g.cardText(c)
		name := st.fs.get(roleName)
		y := g.baseline(c, 0)
		w.name("name", name, st.th.text, st.names[c], spot{x: room.Min.X, y: y, a: alignLeft, box: lineBox(name, room.Min.X, room.Max.X, y, lineH, 1)})
		f := st.fs.get(roleScore)
		cd := st.cards[c]
		y = g.baseline(c, 1)
		w.paragraph("score", f, st.th.muted, cd.score, spot{x: room.Min.X, y: y, lineH: lineH, a: alignLeft,
			box: lineBox(f, room.Min.X, room.Max.X, y, lineH, min(len(cd.score.lines), maxCardLines))})
		if len(cd.bonus.lines) == 0 {
			continue
		}
		y = g.baseline(c, 1+len(cd.score.lines))
		w.paragraph("bonus", f, st.th.muted, cd.bonus, spot{x: room.Min.X, y: y, lineH: lineH, a: alignLeft,
			box: lineBox(f, room.Min.X, room.Max.X, y, lineH, min(len(cd.bonus.lines), maxCardLines))})
	}
}

// panelsHeld returns how many panels colour c holds.
func (st *state) panelsHeld(c engine.Color) int {
	n := 0
	for i := range engine.NumPanels {
		if o, ok := st.p.PanelOwner(i); ok && o == c {
			n++
		}
	}
	return n
}

// highlight returns the colour whose box is outlined: the player to move,
// the winner of a game that ended on the board, or Options.Winner; noCard
// after a draw or when the game ended otherwise without a winner named.
func (st *state) highlight() engine.Color {
	if !st.final {
		return st.p.ToMove()
	}
	if st.opt.Winner != nil {
		return *st.opt.Winner
	}
	if w, ok := st.score.Winner(); ok && st.p.IsOver() {
		return w
	}
	return noCard
}

// footerTop returns the baseline of the footer's first line.
func (g *geometry) footerTop() int { return g.footerY + px(footerLine-8, g.scale) }

// tableLines returns after how many lines of the footer's texts its
// score table comes: those of st, or of the animation's last frame if
// more.
func (st *state) tableLines() int {
	n := st.footerLines()
	if st.opt.frame != nil {
		n = max(n, st.opt.frame.footerLines)
	}
	return max(n, 1)
}

// drawFooter writes the footer's texts, one under the other, centred,
// and at the end of the game (or in an animation's frame, where the last
// frame will have it) the score table.
func (st *state) drawFooter(w *writer) {
	g := st.g
	lineH := px(footerLine, g.scale)
	y := g.footerTop()
	for _, b := range st.footer {
		c := st.th.text
		if b.muted {
			c = st.th.muted
		}
		f := st.fs.get(b.r)
		w.paragraph(b.what, f, c, b.p, spot{x: g.width / 2, y: y, lineH: lineH, a: alignCenter,
			box: lineBox(f, g.pad, g.width-g.pad, y, lineH, min(len(b.p.lines), b.max))})
		y += lineH * len(b.p.lines)
	}
	if st.final || st.opt.frame != nil {
		st.drawTable(w, g.footerTop()+px(footerLine*float64(st.tableLines()-1)+42, g.scale))
	}
}

// tableGap is the least space between two columns of the score table, at
// 800 pixels wide.
const tableGap = 30

// drawTable writes the score table with its column heads at baseline y: a
// column per part of the score the rule set counts, a row per player.
func (st *state) drawTable(w *writer, y int) {
	g, t := st.g, st.t
	cols := []string{t.ColPanels}
	vals := []func(engine.Breakdown) int{func(x engine.Breakdown) int { return x.Panels }}
	if st.opt.Rules.CountsArea() {
		cols = append(cols, t.ColArea)
		vals = append(vals, func(x engine.Breakdown) int { return x.Area })
	}
	if st.opt.Rules.CountsLines() {
		cols = append(cols, t.ColLines)
		vals = append(vals, func(x engine.Breakdown) int { return x.Lines })
	}
	cols = append(cols, t.ColTotal)
	vals = append(vals, func(x engine.Breakdown) int { return x.Total })

	small, strong := st.fs.get(roleScore), st.fs.get(roleStrong)
	// Each column is as wide as its head or its widest number needs and
	// tableGap more, 100 pixels at least; the names take what is left.
	gap := px(tableGap, g.scale)
	rowH := px(38, g.scale)
	right, left := make([]int, len(cols)), make([]int, len(cols)) // each column's right edge, and where its text may start
	edge := g.width - g.pad - px(16, g.scale)
	for i := len(cols) - 1; i >= 0; i-- {
		need := textWidth(small, cols[i])
		for _, c := range []engine.Color{engine.Red, engine.Black} {
			need = max(need, textWidth(strong, t.number(vals[i](st.score[c]))))
		}
		right[i], left[i] = edge, edge-max(px(100, g.scale)-gap, need)
		edge = left[i] - gap
	}
	nameX := g.pad + px(16+36, g.scale)
	for i, c := range cols {
		w.line("column", small, st.th.muted, c, nil, spot{x: right[i], y: y, a: alignRight, box: lineBox(small, left[i], right[i], y, rowH, 1)})
	}
	dc := gg.NewContextForRGBA(w.dst)
	for k, c := range []engine.Color{engine.Red, engine.Black} {
		row := y + rowH*(k+1)
		r := g.f(13)
		st.opt.Marbles.set().drawMarble(dc, float64(g.pad)+g.f(16)+r, float64(row)-g.f(9), r, c)
		w.name("name", small, st.th.text, st.names[c], spot{x: nameX, y: row, a: alignLeft, box: lineBox(small, nameX, edge, row, rowH, 1)})
		for i, v := range vals {
			face := font.Face(small)
			if i == len(vals)-1 {
				face = strong
			}
			w.line("number", face, st.th.text, t.number(v(st.score[c])), nil, spot{x: right[i], y: row, a: alignRight, box: lineBox(face, left[i], right[i], row, rowH, 1)})
		}
	}
}

// result returns the line that says how the game ended.
func (st *state) result() string {
	t := st.t
	if s := st.caption(st.opt.Outcome); s != "" {
		return s
	}
	if !st.p.IsOver() {
		if st.opt.Winner != nil {
			return t.fillAB(t.Won, st.names[*st.opt.Winner], 0, "", "")
		}
		return t.GameOver
	}
	w, decided := st.score.Winner()
	if !decided {
		return t.fillAB(t.DrawScore, "", 0, t.number(st.score[engine.Red].Total), t.number(st.score[engine.Black].Total))
	}
	return t.fillAB(t.Wins, st.names[w], 0, t.number(st.score[w].Total), t.number(st.score[w.Other()].Total))
}
