package draw

import (
	"image"
	"strings"

	"github.com/fogleman/gg"
	"github.com/kulami/kulami/engine"
	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
)

// state is what the header, the key and the footer say about a position,
// with the faces to say it in.
type state struct {
	p     *engine.Position
	opt   *Options
	t     *Text
	g     *geometry
	fs    *faces
	th    themeColors
	final bool
	score engine.Score
	names [2]string // as the fonts can draw them
	// reason is why the game ended, in as many lines as the footer shows,
	// and reasonFace the face that fits them.
	reason     []string
	reasonFace font.Face
}

// maxReasonLines is how many lines the reason a game ended may take.
const maxReasonLines = 2

func (r *Renderer) newState(p *engine.Position, opt *Options, g *geometry, fs *faces) *state {
	st := &state{p: p, opt: opt, t: opt.Text, g: g, fs: fs, th: themes[opt.Theme],
		final: opt.Over || p.IsOver(), score: p.Score(opt.Rules)}
	if st.t == nil {
		st.t = &English
	}
	fonts := append([]*sfnt.Font{boldFont}, r.fallback...)
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		st.names[c] = st.t.Colors[c]
		if n, ok := printable(opt.Names[c], fonts); ok && n != "" {
			st.names[c] = n
		}
	}
	if !st.final {
		return st
	}
	reason := opt.Reason
	switch {
	case reason != "":
	case p.Ply() >= engine.MaxPly:
		reason = st.t.fill(st.t.AllPlaced, "", engine.MaxPly)
	case p.IsOver():
		reason = st.t.fill(st.t.NoHole, st.names[p.ToMove()], p.Ply())
	}
	if s := st.caption(reason); s != "" {
		st.reasonFace, st.reason = fs.wrapFit(roleReason, s, g.width-2*g.pad, maxReasonLines)
	}
	return st
}

// caption returns a caller's text (the outcome, the reason) as the fonts
// can draw it: the players' names in it as the header shows them, and any
// other letter no font has left out.
func (st *state) caption(s string) string {
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		if n := strings.TrimSpace(st.opt.Names[c]); n != "" && n != st.names[c] {
			s = strings.ReplaceAll(s, n, st.names[c])
		}
	}
	fonts := append([]*sfnt.Font{boldFont}, st.fs.fallback...)
	out, _ := printable(s, fonts)
	return out
}

// wrapFit returns the largest face of role r, down to its smallest size,
// in which s takes at most n lines of width pixels, and those lines; at
// the smallest size the last line is cut short if s is longer still.
func (fs *faces) wrapFit(r role, s string, width, n int) (font.Face, []string) {
	for size := roleSizes[r].size; size > roleSizes[r].min; size-- {
		f := fs.sized(r, size)
		if lines := wrap(f, s, width, n+1); len(lines) <= n {
			return f, lines
		}
	}
	f := fs.sized(r, roleSizes[r].min)
	return f, wrap(f, s, width, n)
}

// card returns the box of colour c's player in the header.
func (g *geometry) card(c engine.Color) image.Rectangle {
	gap := px(12, g.scale)
	w := (g.width - 2*g.pad - gap) / 2
	x := g.pad + int(c)*(w+gap)
	return image.Rect(x, g.pad, x+w, g.pad+px(cardPad+cardLine*float64(g.lines), g.scale))
}

// baseline returns the baseline of line k (from 0) of a player's box.
func (g *geometry) baseline(c engine.Color, k int) int {
	return g.card(c).Min.Y + px(cardPad/2+cardLine*float64(k)+25, g.scale)
}

// drawHeader writes in the players' boxes their names, points and panels
// held, and under the rule sets with bonuses the parts of the points; the
// boxes themselves come from the kit.
func (st *state) drawHeader(dst *image.RGBA) {
	g, t := st.g, st.t
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		r := g.card(c)
		tx := r.Min.X + px(16+38+14, g.scale)
		w := r.Max.X - px(14, g.scale) - tx
		name := st.fs.get(roleName)
		text(dst, name, st.th.text, ellipsize(name, st.names[c], w), tx, g.baseline(c, 0), alignLeft)
		sc := st.score[c]
		line := t.fillAB(t.Score, "", 0, t.plural(t.Points, sc.Total), t.plural(t.Panels, st.panelsHeld(c)))
		f, s := st.fs.fit(roleScore, line, w)
		text(dst, f, st.th.muted, s, tx, g.baseline(c, 1), alignLeft)
		if g.lines < 3 {
			continue
		}
		bonus := t.fill(t.Bonus, "", sc.Panels)
		if st.opt.Rules.CountsArea() {
			bonus += t.fill(t.BonusArea, "", sc.Area)
		}
		if st.opt.Rules.CountsLines() {
			bonus += t.fill(t.BonusLines, "", sc.Lines)
		}
		f, s = st.fs.fit(roleScore, bonus, w)
		text(dst, f, st.th.muted, s, tx, g.baseline(c, 2), alignLeft)
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

// drawFooter writes, while the game goes on, the move number, who is to
// play and the rule set; at its end, the result line, why the game ended
// and the score table.
func (st *state) drawFooter(dst *image.RGBA) {
	g, t := st.g, st.t
	y := g.footerY + px(footerLine-8, g.scale)
	width := g.width - 2*g.pad
	if !st.final {
		mover := st.p.ToMove()
		playing := t.Playing
		if st.names[mover] == t.Colors[mover] {
			playing = t.PlayingColor
		}
		line := t.fillAB(playing, st.names[mover], st.p.Ply()+1, t.Colors[mover], t.Rules[st.opt.Rules])
		f, s := st.fs.fit(roleFooter, line, width)
		text(dst, f, st.th.muted, s, g.width/2, y, alignCenter)
		if st.opt.frame != nil { // where the last frame's table will be
			st.drawTable(dst, y+px(footerLine*float64(st.opt.frame.reasonLines)+42, g.scale))
		}
		return
	}
	f, s := st.fs.fit(roleStrong, st.result(), width)
	text(dst, f, st.th.text, s, g.width/2, y, alignCenter)
	for _, line := range st.reason {
		y += px(footerLine, g.scale)
		text(dst, st.reasonFace, st.th.muted, line, g.width/2, y, alignCenter)
	}
	st.drawTable(dst, y+px(42, g.scale))
}

// drawTable writes the score table with its column heads at baseline y: a
// column per part of the score the rule set counts, a row per player.
func (st *state) drawTable(dst *image.RGBA, y int) {
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
	// Each column is as wide as its head needs, 100 px at least: the
	// names take what is left ("Baldosas" and "Plättchen" are not cut).
	gap := px(12, g.scale)
	right, width := make([]int, len(cols)), make([]int, len(cols)) // each column's right edge and width
	edge := g.width - g.pad - px(16, g.scale)
	for i := len(cols) - 1; i >= 0; i-- {
		right[i], width[i] = edge, max(px(100, g.scale), font.MeasureString(small, cols[i]).Ceil()+gap)
		edge -= width[i]
	}
	nameX := g.pad + px(16+36, g.scale)
	for i, c := range cols {
		f, s := st.fs.fit(roleScore, c, width[i]-px(8, g.scale))
		text(dst, f, st.th.muted, s, right[i], y, alignRight)
	}
	dc := gg.NewContextForRGBA(dst)
	for k, c := range []engine.Color{engine.Red, engine.Black} {
		row := y + px(38*float64(k+1), g.scale)
		r := g.f(13)
		st.opt.Marbles.set().drawMarble(dc, float64(g.pad)+g.f(16)+r, float64(row)-g.f(9), r, c)
		text(dst, small, st.th.text, ellipsize(small, st.names[c], edge-nameX), nameX, row, alignLeft)
		for i, v := range vals {
			face := small
			if i == len(vals)-1 {
				face = strong
			}
			text(dst, face, st.th.text, t.number(v(st.score[c])), right[i], row, alignRight)
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
