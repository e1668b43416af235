package draw

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"sort"
	"strconv"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"

	"github.com/kulami/kulami/engine"
)

// ChartTexts are the words a win-chance chart shows. DefaultChartTexts
// gives them in English; a bot sets them in the server's language, with
// the players' names (Chart.Names) in them.
type ChartTexts struct {
	Title     string // above the chart: "alice against bob: chance to win"
	Move      string // under the axis of moves: "Move"
	RedWins   string // at the top of the axis of chances: "alice wins"
	BlackWins string // at its bottom: "bob wins"
	// Percent writes a share (0.25) as a percentage, as the language
	// does: "25%", or "25 %" in French; nil writes "25%".
	Percent func(share float64) string
}

// DefaultChartTexts returns the chart's words in English, naming the
// players by their colours.
func DefaultChartTexts() ChartTexts {
	return ChartTexts{Title: "Red against Black: chance to win", Move: "Move", RedWins: "Red wins", BlackWins: "Black wins"}
}

// ChartMark is a move the chart points out, such as one of the moves
// that swung the game most.
type ChartMark struct {
	Ply   int    // the move, 1 for the first: the mark sits on Red[Ply]
	Label string // written by the mark, such as "23. D4"
}

// Chart is a win-chance chart: red's chance to win over the moves of a
// game, from 0 to 100%, with the 50% line, red's side shaded red and
// black's grey, and some moves marked.
type Chart struct {
	// Red is red's chance, from 0 to 1, before the first move (Red[0])
	// and after each move (Red[i] after move i). It needs two values at
	// least.
	Red   []float64
	Marks []ChartMark
	// Width is the width in pixels, from MinWidth to MaxWidth; 0 means
	// DefaultWidth. The height is half the width, and a line more if the
	// title takes two.
	Width int
	Theme Theme
	// Marbles is the set of marbles whose colours the chart's sides take.
	Marbles Marbles
	// Texts are the chart's words; a zero field takes its English default.
	Texts ChartTexts
	// Names are the players' names, indexed by engine.Color, as Texts
	// hold them: the title wraps onto a second line if it is long, and a
	// name that still does not fit is shortened with an ellipsis.
	Names [2]string
	// Report, if not nil, collects the texts the chart lays out.
	Report *Report
}

// chartPalette is the chart's colours on each theme: the board images'
// background, text and marble colours, of a set of marbles.
type chartPalette struct {
	bg, text, muted, grid   color.Color
	red, redFill, blackFill color.Color
	line                    color.Color
}

func chartColors(t Theme, ms *marbleSet) chartPalette {
	th := themes[t]
	p := chartPalette{
		bg: th.bg, text: th.text, muted: th.muted, grid: alpha(th.muted, 0.25),
		red: ms.ink[t], redFill: alpha(ms.body[engine.Red], 0.55), line: th.text,
	}
	if t == Dark {
		p.blackFill = alpha(ms.rim[engine.Black], 0.30) // a black fill would vanish on the dark background
	} else {
		p.blackFill = alpha(ms.body[engine.Black], 0.35)
	}
	return p
}

// RenderChart writes c as a PNG image to w, using a Renderer shared by
// the package; see Renderer.RenderChart.
func RenderChart(w io.Writer, c Chart) error { return defaultRenderer().RenderChart(w, c) }

// RenderChart writes c as a PNG image to w, its names drawn with the
// Renderer's fonts. It returns an error wrapping ErrOptions for a chart it
// cannot draw (fewer than two values, a value outside 0–1, a mark off the
// chart, a bad width or theme), or the error of writing to w.
func (r *Renderer) RenderChart(w io.Writer, c Chart) error {
	im, err := r.chart(c)
	if err != nil {
		return err
	}
	if err := png.Encode(w, im); err != nil {
		return fmt.Errorf("draw: write PNG: %w", err)
	}
	return nil
}

// Image draws c with the Renderer shared by the package; see RenderChart.
func (c Chart) Image() (*image.RGBA, error) { return defaultRenderer().chart(c) }

// chart draws c.
func (r *Renderer) chart(c Chart) (*image.RGBA, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	width := DefaultWidth
	if c.Width != 0 {
		width = c.Width
	}
	s := float64(width) / DefaultWidth
	pool := r.faces(s)
	fs := pool.get()
	defer pool.put(fs)
	col := chartColors(c.Theme, c.Marbles.set())
	tx := c.texts()
	face := func(t chartType) font.Face { return fs.face(t.font, t.size) }
	var names []string
	for _, n := range c.Names {
		if p, ok := fs.printable(n); ok && p != "" {
			names = append(names, p)
		}
	}
	say := func(t string) string { p, _ := fs.printable(t); return p }

	// The title, on one line or two, and the plot's corners under it,
	// leaving room for the labels of the axes and the marks' words.
	// Marks whose words do not fit side by side stack them in rows,
	// which lower the plot's top.
	title := face(chartTypes.title)
	titleH := px(36, s)
	titleP := layText(title, say(tx.Title), names, width-px(40, s), 2)
	extra := titleH * (min(len(titleP.lines), 2) - 1)
	height := width/2 + extra
	dst := image.NewRGBA(image.Rect(0, 0, width, height))
	dc := gg.NewContextForRGBA(dst)
	wr := &writer{dst: dst, rep: c.Report}
	left, right := 88*s, float64(width)-26*s
	n := len(c.Red) - 1
	x := func(ply int) float64 { return left + (right-left)*float64(ply)/float64(n) }
	mark := face(chartTypes.mark)
	// The words of the marks keep right of the plot's left edge, clear of
	// the chances written left of it ("100%" at the top).
	labels, rows := placeMarkLabels(c.Marks, x, func(t string) float64 { return float64(font.MeasureString(mark, say(t))) / 64 }, left, float64(width)-8*s, s)
	top, bottom := 102*s+float64(extra)+float64(max(rows-1, 0))*markRow*s, float64(height)-70*s
	y := func(v float64) float64 { return bottom - (bottom-top)*v }

	dc.SetColor(col.bg)
	dc.Clear()
	ty := px(40, s)
	wr.paragraph("title", title, col.text, titleP, spot{x: px(20, s), y: ty, lineH: titleH, a: alignLeft,
		box: lineBox(title, px(20, s), width-px(20, s), ty, titleH, 2)})

	// The grid: 0, 25, 50, 75 and 100%, and a line every tenth move.
	axis := face(chartTypes.axis)
	half := capHeight(axis) / 2
	dc.SetLineWidth(max(1, 1.5*s))
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		dc.SetColor(col.grid)
		dc.DrawLine(left, y(v), right, y(v))
		dc.Stroke()
		yy := int(math.Round(y(v))) + half
		wr.line("percent", axis, col.muted, tx.Percent(v), nil, spot{x: int(left - 10*s), y: yy, a: alignRight,
			box: lineBox(axis, 0, int(left-6*s), yy, 0, 1)})
	}
	step := max(1, (n+5)/6/5*5) // about six labels, every fifth or tenth move
	room := int((right - left) * float64(step) / float64(n))
	for ply := 0; ply <= n; ply += step {
		dc.SetColor(col.grid)
		dc.DrawLine(x(ply), top, x(ply), bottom)
		dc.Stroke()
		if ply == 0 {
			continue // "0" would crowd "0%" in the corner
		}
		xx, yy := int(math.Round(x(ply))), int(bottom+29*s)
		wr.line("move number", axis, col.muted, strconv.Itoa(ply), nil, spot{x: xx, y: yy, a: alignCenter,
			box: lineBox(axis, xx-room/2, xx+room/2, yy, 0, 1)})
	}
	yy := int(bottom + 60*s)
	wr.line("axis", axis, col.muted, say(tx.Move), nil, spot{x: int(right), y: yy, a: alignRight, box: lineBox(axis, int(left), int(right)+1, yy, 0, 1)})

	// Red's side above the 50% line, black's below: the area between the
	// line and the curve, clipped to each half.
	area := func(fill color.Color, clipTop, clipBottom float64) {
		dc.DrawRectangle(left, clipTop, right-left, clipBottom-clipTop)
		dc.Clip()
		dc.MoveTo(x(0), y(0.5))
		for i, v := range c.Red {
			dc.LineTo(x(i), y(v))
		}
		dc.LineTo(x(n), y(0.5))
		dc.ClosePath()
		dc.SetColor(fill)
		dc.Fill()
		dc.ResetClip() // not Pop: gg's Pop keeps the clip
	}
	area(col.redFill, top, y(0.5))
	area(col.blackFill, y(0.5), bottom)

	dc.SetColor(col.muted)
	dc.SetLineWidth(max(1, 2*s))
	dc.SetDash(8*s, 6*s)
	dc.DrawLine(left, y(0.5), right, y(0.5))
	dc.Stroke()
	dc.SetDash()

	dc.SetColor(col.line)
	dc.SetLineWidth(max(1.5, 3*s))
	dc.SetLineJoin(gg.LineJoinRound)
	for i, v := range c.Red {
		dc.LineTo(x(i), y(v))
	}
	dc.Stroke()

	// Who wins at the top and at the bottom of the plot.
	side := face(chartTypes.side)
	x0, x1 := int(left+8*s), int(right-8*s)
	yy = int(top + 26*s)
	wr.line("side", side, col.red, say(tx.RedWins), names, spot{x: x0, y: yy, a: alignLeft, box: lineBox(side, x0, x1, yy, 0, 1)})
	yy = int(bottom - 10*s)
	wr.line("side", side, col.muted, say(tx.BlackWins), names, spot{x: x0, y: yy, a: alignLeft, box: lineBox(side, x0, x1, yy, 0, 1)})

	// The marks: a dashed accent line through the plot and a dot on the
	// curve, with their words above the plot as placeMarkLabels placed
	// them, tied to its line when a word had to move off it.
	for i, m := range c.Marks {
		px, py := x(m.Ply), y(c.Red[m.Ply])
		dc.SetColor(alpha(themes[c.Theme].hi, 0.7))
		dc.SetLineWidth(max(1, 1.5*s))
		dc.SetDash(4*s, 4*s)
		dc.DrawLine(px, top-6*s, px, bottom)
		dc.Stroke()
		dc.SetDash()
		dc.SetColor(accentEdge)
		dc.DrawCircle(px, py, 8*s)
		dc.Fill()
		dc.SetColor(accent)
		dc.DrawCircle(px, py, 5.5*s)
		dc.Fill()

		l := labels[i]
		base := int(top - 14*s - float64(l.row)*markRow*s)
		wr.line("mark", mark, themes[c.Theme].hi, say(m.Label), nil, spot{x: int(l.x), y: base, a: alignLeft, // the accent, darker on the light theme
			box: lineBox(mark, 0, width, base, 0, 1)})
		if l.row == 0 && (l.x > px || l.x+l.w < px) {
			dc.SetColor(themes[c.Theme].hi)
			dc.DrawLine(math.Min(math.Max(px, l.x), l.x+l.w), top-10*s, px, top-6*s)
			dc.Stroke()
		}
	}
	return dst, nil
}

// chartType is the font and size of one kind of the chart's texts, in
// pixels at 800 pixels wide.
type chartType struct {
	font *sfnt.Font
	size float64
}

// chartTypes are the chart's texts: 24.5 pixels or more at 800 wide, so
// that each is 11 pixels or more when a phone shows the chart 360 pixels
// wide, as the board images' texts (roleSizes).
var chartTypes = struct {
	title chartType // the title, naming the player
	axis  chartType // the chances, the moves and the word "Move"
	mark  chartType // the marked moves' words
	side  chartType // "Red wins" and "Black wins" in the plot's corners
}{
	title: chartType{boldFont, 30},
	axis:  chartType{regularFont, 25},
	mark:  chartType{boldFont, 25},
	side:  chartType{boldFont, 25},
}

// markRow is the height of a row of the marks' words, at scale 1.
const markRow = 30

// markLabel is where the words of a mark go: from x, w wide, in row row
// above the plot (0 nearest it).
type markLabel struct {
	x, w float64
	row  int
}

// placeMarkLabels places the words of marks above the plot, whose mark
// with ply p is at x(p), between lo and hi, in an image drawn at scale s:
// each centred on its mark where it can, between lo and hi, moved right of
// the words before it in its row, and in the first row where that leaves
// it before hi, so that no two overlap, however close the marks (the last
// three moves of a game, at the right edge, too). It returns the places,
// in the order of marks, and the number of rows.
func placeMarkLabels(marks []ChartMark, x func(int) float64, measure func(string) float64, lo, hi, s float64) ([]markLabel, int) {
	order := make([]int, len(marks))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return marks[order[a]].Ply < marks[order[b]].Ply })
	labels := make([]markLabel, len(marks))
	var ends []float64 // per row, the right end of its last words plus a gap
	gap := 18 * s
	for _, i := range order {
		w := measure(marks[i].Label)
		lx := max(min(x(marks[i].Ply)-w/2, hi-w), lo)
		row := 0
		for ; row < len(ends); row++ {
			if at := max(lx, ends[row]); at+w <= hi {
				lx = at
				break
			}
		}
		if row == len(ends) {
			ends = append(ends, 0)
		}
		labels[i] = markLabel{x: lx, w: w, row: row}
		ends[row] = lx + w + gap
	}
	return labels, len(ends)
}

// texts returns c.Texts with the English default for every empty field.
func (c *Chart) texts() ChartTexts {
	t, d := c.Texts, DefaultChartTexts()
	for _, f := range []struct {
		v *string
		d string
	}{{&t.Title, d.Title}, {&t.Move, d.Move}, {&t.RedWins, d.RedWins}, {&t.BlackWins, d.BlackWins}} {
		if *f.v == "" {
			*f.v = f.d
		}
	}
	if t.Percent == nil {
		t.Percent = func(v float64) string { return strconv.Itoa(int(math.Round(100*v))) + "%" }
	}
	return t
}

// check returns an error if c cannot be drawn.
func (c *Chart) check() error {
	if len(c.Red) < 2 {
		return fmt.Errorf("%w: a chart needs red's chance before and after one move at least, not %d values", ErrOptions, len(c.Red))
	}
	for i, v := range c.Red {
		if !(v >= 0 && v <= 1) {
			return fmt.Errorf("%w: red's chance after move %d is %v, not between 0 and 1", ErrOptions, i, v)
		}
	}
	for _, m := range c.Marks {
		if m.Ply < 0 || m.Ply >= len(c.Red) {
			return fmt.Errorf("%w: a mark on move %d is off the chart of %d moves", ErrOptions, m.Ply, len(c.Red)-1)
		}
	}
	if int(c.Theme) >= len(themeNames) {
		return fmt.Errorf("%w: unknown %v; use Dark or Light", ErrOptions, c.Theme)
	}
	if int(c.Marbles) >= len(marblesNames) {
		return fmt.Errorf("%w: unknown %v; use Standard or ColourBlind", ErrOptions, c.Marbles)
	}
	o := Options{Width: c.Width}
	_, err := o.width()
	return err
}
