package draw

import (
	"fmt"
	"image"
	"image/color"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// Laid is a text an image laid out: what it said, the lines it was drawn
// in and the room it had. A Report lists them, so that a test can check
// that no text of an image was cut (Lost) or went out of its room
// (Overflows), whatever its language and names.
type Laid struct {
	// What names the text: "name", "score", "footer", "note", "result",
	// "reason", "key", "column", "title", …
	What string
	// Text is the text to show, with every name in it as Shortened says.
	Text string
	// Lines are the lines drawn.
	Lines []string
	// Shortened are the names in Text shortened with an ellipsis to fit:
	// the only text an image may cut.
	Shortened []Shortened
	// Box is the room the text had; Ink the room its lines take: each
	// line's width, and the face's ascent above the baseline and descent
	// below it.
	Box, Ink image.Rectangle
	// Frame is the frame of an animation the text is in, from 1; 0 in a
	// still image.
	Frame int
}

// Shortened is a name shortened with an ellipsis to fit its room.
type Shortened struct{ Name, Shown string }

// Overflows reports whether a line of l goes out of its room.
func (l Laid) Overflows() bool { return !l.Ink.Empty() && !l.Ink.In(l.Box) }

// Lost reports whether the lines of l leave out some of its text: a word
// dropped or cut. A separator "·" left out where a line breaks is not
// lost.
func (l Laid) Lost() bool {
	return !slices.Equal(words(l.Text), words(strings.Join(l.Lines, " ")))
}

// words returns the words of s, separators "·" left out.
func words(s string) []string {
	return slices.DeleteFunc(strings.Fields(s), func(w string) bool { return w == "·" })
}

// Report collects the texts an image lays out (Options.Report,
// Chart.Report, Standings.Report), in the order it draws them. A Report
// is not safe for concurrent use: give each image its own.
type Report struct {
	Texts []Laid
	frame int // the frame being drawn
}

// add records l if r is not nil.
func (r *Report) add(l Laid) {
	if r != nil {
		l.Frame = r.frame
		r.Texts = append(r.Texts, l)
	}
}

// Problems returns what is wrong with the texts of r, one sentence each:
// a text out of its room, a text cut (but for a name shortened with an
// ellipsis), a shortened name that is not the start of the name and an
// ellipsis, and two texts of one image whose inks come within gap pixels
// of each other side by side, or overlap. None for an image whose every
// text is whole and in place.
func (r *Report) Problems(gap int) []string {
	var out []string
	for i, l := range r.Texts {
		if l.Overflows() {
			out = append(out, fmt.Sprintf("%s %q: its lines %v go out of its room %v", l.What, l.Lines, l.Ink, l.Box))
		}
		if l.Lost() {
			out = append(out, fmt.Sprintf("%s %q is cut: %q", l.What, l.Text, l.Lines))
		}
		for _, s := range l.Shortened {
			if !strings.HasSuffix(s.Shown, "…") || !strings.HasPrefix(s.Name, strings.TrimSpace(strings.TrimSuffix(s.Shown, "…"))) {
				out = append(out, fmt.Sprintf("%s: the name %q is shown as %q, not its start and an ellipsis", l.What, s.Name, s.Shown))
			}
		}
		for _, m := range r.Texts[i+1:] {
			if m.Frame != l.Frame || l.Ink.Empty() || m.Ink.Empty() {
				continue
			}
			a, b := l.Ink, m.Ink
			side := max(a.Min.X-b.Max.X, b.Min.X-a.Max.X) // the space between them side by side
			if !rowsOverlap(a, b) || side >= gap {
				continue
			}
			out = append(out, fmt.Sprintf("%s %q %v and %s %q %v touch", l.What, l.Lines, l.Ink, m.What, m.Lines, m.Ink))
		}
	}
	return out
}

// rowsOverlap reports whether a and b share rows of pixels.
func rowsOverlap(a, b image.Rectangle) bool { return a.Min.Y < b.Max.Y && b.Min.Y < a.Max.Y }

// token is a piece of a text being laid out: a word or a name. A name is
// never broken across lines, but may be shortened with an ellipsis; full
// is its whole form. space says whether a space comes before the token:
// lines break only there.
type token struct {
	s, full string
	name    bool
	space   bool
}

// tokenize splits s, which printable made, into words at its spaces and
// the names of names it holds, each a token of its own (a name glued to
// punctuation, as in "alice:", is a name token and a word token without
// a space between).
func tokenize(s string, names []string) []token {
	ns := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == "" })
	slices.SortStableFunc(ns, func(a, b string) int { return len(b) - len(a) }) // the longest first
	var toks []token
	space := false
	word := -1 // the index of the word being read in toks, or -1
	for i := 0; i < len(s); {
		if s[i] == ' ' {
			space, word = true, -1
			i++
			continue
		}
		if n := nameAt(s, i, ns); n != "" {
			toks = append(toks, token{s: n, full: n, name: true, space: space && len(toks) > 0})
			space, word = false, -1
			i += len(n)
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if word < 0 {
			toks = append(toks, token{space: space && len(toks) > 0})
			word, space = len(toks)-1, false
		}
		toks[word].s += string(r)
		i += size
	}
	return toks
}

// nameAt returns the name of names (longest first) that s holds at byte
// i, not inside a longer word, or "".
func nameAt(s string, i int, names []string) string {
	for _, n := range names {
		if !strings.HasPrefix(s[i:], n) {
			continue
		}
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		after, _ := utf8.DecodeRuneInString(s[i+len(n):])
		if i > 0 && isWordRune(before) && isWordRune(firstRune(n)) || i+len(n) < len(s) && isWordRune(after) && isWordRune(lastRune(n)) {
			continue
		}
		return n
	}
	return ""
}

func isWordRune(r rune) bool  { return unicode.IsLetter(r) || unicode.IsDigit(r) }
func firstRune(s string) rune { r, _ := utf8.DecodeRuneInString(s); return r }
func lastRune(s string) rune  { r, _ := utf8.DecodeLastRuneInString(s); return r }

// unit is a run of tokens without a space between them: what a line
// holds whole.
type unit []token

func (u unit) String() string {
	var b strings.Builder
	for _, t := range u {
		b.WriteString(t.s)
	}
	return b.String()
}

// units groups toks into units.
func units(toks []token) []unit {
	var us []unit
	for i, t := range toks {
		if i == 0 || t.space {
			us = append(us, nil)
		}
		us[len(us)-1] = append(us[len(us)-1], t)
	}
	return us
}

// A separator ends no line: "+" and a dash go to the start of the next
// one, and "·" is left out where a line breaks.
func isSeparator(u unit) bool {
	s := u.String()
	return s == "·" || s == "+" || s == "—" || s == "–"
}

// paragraph is a text laid out in lines.
type paragraph struct {
	lines []string
	text  string // the text with its names as shown
	short []Shortened
	fits  bool // every line fits the width, and there are no more lines than allowed
}

// layText lays s out in face f in lines of at most width pixels, at most
// max of them, breaking at spaces. A name of names in s is never broken:
// where a line cannot hold it, or the lines are too many, the names are
// shortened with an ellipsis, the longest first, as little as that takes.
// If even names of a few letters do not make it fit, the paragraph says
// so (fits is false) and keeps every word: the caller's room is too small,
// which a Report shows.
func layText(f font.Face, s string, names []string, width, max int) paragraph {
	toks := tokenize(s, names)
	limit := fixed.I(width)
	least := font.MeasureString(f, "MM…")
	for {
		shortenNames(f, toks, limit, fixed.I(width))
		p := breakLines(f, units(toks), fixed.I(width), max)
		if p.fits || limit <= least || !hasName(toks) {
			return p
		}
		limit = max64(least, limit*3/4)
	}
}

func max64(a, b fixed.Int26_6) fixed.Int26_6 {
	if a > b {
		return a
	}
	return b
}

func hasName(toks []token) bool {
	return slices.ContainsFunc(toks, func(t token) bool { return t.name })
}

// shortenNames sets each name token of toks to its full form shortened to
// at most limit pixels, and to what leaves its unit at most width wide.
func shortenNames(f font.Face, toks []token, limit, width fixed.Int26_6) {
	for start := 0; start < len(toks); {
		end := start + 1
		for end < len(toks) && !toks[end].space {
			end++
		}
		rest := fixed.Int26_6(0) // the unit's words beside its names
		for _, t := range toks[start:end] {
			if !t.name {
				rest += font.MeasureString(f, t.s)
			}
		}
		for i := start; i < end; i++ {
			if toks[i].name {
				toks[i].s = ellipsize(f, toks[i].full, min(limit, width-rest).Floor())
			}
		}
		start = end
	}
}

// breakLines fills lines with units greedily. Where a line must break
// and a separator ("·", "+", a dash) stands in its last two thirds, it
// breaks there instead, keeping the parts the separators join whole.
func breakLines(f font.Face, us []unit, width fixed.Int26_6, max int) paragraph {
	var p paragraph
	p.fits = true
	var line []int // the units of the line being filled
	join := func(ix []int) string {
		parts := make([]string, len(ix))
		for k, i := range ix {
			parts[k] = us[i].String()
		}
		return strings.Join(parts, " ")
	}
	flush := func() {
		if len(line) > 0 {
			p.lines = append(p.lines, join(line))
			line = nil
		}
	}
	for i := 0; i < len(us); i++ {
		if len(line) == 0 && us[i].String() == "·" && len(p.lines) > 0 {
			continue // no line starts with a separator dot
		}
		if len(line) == 0 || font.MeasureString(f, join(append(slices.Clone(line), i))) <= width {
			line = append(line, i)
			continue
		}
		// Unit i starts a new line, or the units from the last
		// separator do; a dot at the break is left out.
		cut := len(line)
		for k := len(line) - 1; k > 0 && !isSeparator(us[i]); k-- {
			if isSeparator(us[line[k]]) {
				if font.MeasureString(f, join(line[:k])) >= width/3 {
					cut = k
				}
				break
			}
		}
		next := i
		if cut < len(line) {
			next = line[cut]
		}
		line = line[:cut]
		flush()
		i = next - 1
	}
	flush()
	for _, l := range p.lines {
		if font.MeasureString(f, l) > width {
			p.fits = false
		}
	}
	if len(p.lines) > max {
		p.fits = false
	}
	var all []string
	for _, u := range us {
		all = append(all, u.String())
		for _, t := range u {
			if t.name && t.s != t.full {
				p.short = append(p.short, Shortened{Name: t.full, Shown: t.s})
			}
		}
	}
	p.text = strings.Join(all, " ")
	return p
}

// writer draws texts on an image and records them in a Report.
type writer struct {
	dst *image.RGBA
	rep *Report
}

// spot is where a text goes: its anchor's x, the baseline of its first
// line, the distance between baselines, and its room.
type spot struct {
	x, y, lineH int
	a           anchor
	box         image.Rectangle
}

// paragraph draws p in face f and colour c at s and records it as what.
func (w *writer) paragraph(what string, f font.Face, c color.Color, p paragraph, s spot) {
	ink := image.Rectangle{}
	m := f.Metrics()
	for i, l := range p.lines {
		y := s.y + i*s.lineH
		x0 := s.x
		wd := textWidth(f, l)
		switch s.a {
		case alignCenter:
			x0 -= (font.MeasureString(f, l) / 2).Ceil()
		case alignRight:
			x0 -= wd
		}
		text(w.dst, f, c, l, s.x, y, s.a)
		ink = ink.Union(image.Rect(x0, y-m.Ascent.Ceil(), x0+wd, y+m.Descent.Ceil()))
	}
	w.rep.add(Laid{What: what, Text: p.text, Lines: p.lines, Shortened: p.short, Box: s.box, Ink: ink})
}

// line draws the one-line text s, which holds the names of names, in
// face f at spot sp: a name too wide is shortened with an ellipsis.
func (w *writer) line(what string, f font.Face, c color.Color, s string, names []string, sp spot) {
	w.paragraph(what, f, c, layText(f, s, names, sp.box.Dx(), 1), sp)
}

// name draws a name in face f at spot sp, shortened with an ellipsis if
// it is too wide for its room.
func (w *writer) name(what string, f font.Face, c color.Color, name string, sp spot) {
	w.line(what, f, c, name, []string{name}, sp)
}

// lineBox returns the room of n lines of face f lineH apart, the first
// with its baseline at y, between x0 and x1: from the first line's ascent
// to the last one's descent.
func lineBox(f font.Face, x0, x1, y, lineH, n int) image.Rectangle {
	m := f.Metrics()
	return image.Rect(x0, y-m.Ascent.Ceil(), x1, y+(n-1)*lineH+m.Descent.Ceil())
}
