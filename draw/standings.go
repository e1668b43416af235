package draw

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"strconv"
	"strings"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
)

// StandingsRow is one line of a tournament's standings.
type StandingsRow struct {
	Rank int
	// Medal is the medal the row's player holds, as the tournament's
	// rules give it: 1 gold, 2 silver, 3 bronze, 0 none. Its disc is
	// drawn behind the rank.
	Medal     int
	Name      string
	Points    string // as the caller writes them: "3½"
	Cut       string // Buchholz Cut-1, as the language writes numbers
	Buchholz  string
	SB        string // Sonneborn–Berger: "4,25" in French
	Withdrawn bool   // drawn muted and struck through
}

// Standings is a tournament's standings as a table: the rank (on a gold,
// silver or bronze disc for a medal), the name, the points and the three
// tie-breaks, on the boards' background, in their fonts (the fallback
// fonts too, for names in other scripts), at sizes that stay readable on
// a phone showing the image 360 pixels wide (the text is 25 pixels or
// more at the default width of 800, as the boards'). Each numeric column
// is as wide as its heading or its widest number, the names take what is
// left and end in an ellipsis if they must; the title wraps onto a
// second line, and the caption too.
type Standings struct {
	Title   string    // the tournament's name
	Caption string    // under the title: "after round 3 of 4"
	Columns [5]string // the headings: player, points, and the three tie-breaks
	Rows    []StandingsRow
	// Width is the width in pixels, from MinWidth to MaxWidth; 0 means
	// DefaultWidth.
	Width int
	Theme Theme
	// Report, if not nil, collects the texts the image lays out.
	Report *Report
}

// MaxStandingsRows is how many rows a standings image shows; a line under
// them counts the others.
const MaxStandingsRows = 32

// medals are the discs of the medals: gold, silver, bronze.
var medals = [3]color.RGBA{rgb(0xf0c03a), rgb(0xc4cad3), rgb(0xcd8a4d)}

// RenderStandings writes s as a PNG image to w, using a Renderer shared
// by the package; see Renderer.RenderStandings.
func RenderStandings(w io.Writer, s Standings) error {
	return defaultRenderer().RenderStandings(w, s)
}

// RenderStandings writes s as a PNG image to w, its names drawn with the
// Renderer's fonts. It returns an error wrapping ErrOptions for a bad
// width or theme, or the error of writing.
func (r *Renderer) RenderStandings(w io.Writer, s Standings) error {
	im, err := r.standings(s)
	if err != nil {
		return err
	}
	if err := png.Encode(w, im); err != nil {
		return fmt.Errorf("draw: write PNG: %w", err)
	}
	return nil
}

// Image draws s with the Renderer shared by the package; see
// RenderStandings.
func (s Standings) Image() (*image.RGBA, error) { return defaultRenderer().standings(s) }

// The standings' type, in pixels at 800 wide.
var standingsTypes = struct {
	title, caption, bold, regular chartType
}{
	title:   chartType{boldFont, 32},
	caption: chartType{regularFont, 25},
	bold:    chartType{boldFont, 26},
	regular: chartType{regularFont, 26},
}

// standings draws s.
func (r *Renderer) standings(s Standings) (*image.RGBA, error) {
	if int(s.Theme) >= len(themeNames) {
		return nil, fmt.Errorf("%w: unknown %v; use Dark or Light", ErrOptions, s.Theme)
	}
	o := Options{Width: s.Width}
	width, err := o.width()
	if err != nil {
		return nil, err
	}
	k := float64(width) / DefaultWidth
	pool := r.faces(k)
	fs := pool.get()
	defer pool.put(fs)
	face := func(t chartType) font.Face { return fs.face(t.font, t.size) }
	title, caption := face(standingsTypes.title), face(standingsTypes.caption)
	bold, regular := face(standingsTypes.bold), face(standingsTypes.regular)
	say := func(t string) string { p, _ := fs.printable(t); return p }

	rows := s.Rows[:min(len(s.Rows), MaxStandingsRows)]
	more := len(s.Rows) - len(rows)
	names := make([]string, len(rows))
	for i, r := range rows {
		names[i] = say(r.Name)
	}
	margin := px(24, k)
	titleH, captionH := px(40, k), px(32, k)
	titleP := layTitle(title, say(s.Title), width-2*margin)
	captionP := layText(caption, say(s.Caption), nil, width-2*margin, 2)
	extra := titleH*(len(titleP.lines)-1) + captionH*(len(captionP.lines)-1)
	rowH := 46 * k
	top := 128*k + float64(extra)
	height := int(top + rowH*float64(len(rows)) + 24*k)
	if more > 0 {
		height += int(rowH)
	}
	th := themes[s.Theme]
	dst := image.NewRGBA(image.Rect(0, 0, width, height))
	dc := gg.NewContextForRGBA(dst)
	dc.SetColor(th.bg)
	dc.Clear()
	w := &writer{dst: dst, rep: s.Report}

	y := px(46, k)
	w.paragraph("title", title, th.text, titleP, spot{x: margin, y: y, lineH: titleH, a: alignLeft, box: lineBox(title, margin, width-margin, y, titleH, 2)})
	y += titleH*(len(titleP.lines)-1) + px(38, k)
	w.paragraph("caption", caption, th.muted, captionP, spot{x: margin, y: y, lineH: captionH, a: alignLeft, box: lineBox(caption, margin, width-margin, y, captionH, 2)})

	// The columns: the rank, the name (what is left), and four numbers
	// right-aligned, each as wide as its heading or its widest number and
	// a gap.
	rankX, nameX := px(48, k), px(92, k)
	gap := px(24, k)
	right, left := make([]int, 4), make([]int, 4)
	edge := width - margin
	for i := 3; i >= 0; i-- {
		need := textWidth(caption, say(s.Columns[i+1]))
		f := regular
		if i == 0 {
			f = bold
		}
		for _, r := range rows {
			need = max(need, textWidth(f, say([]string{r.Points, r.Cut, r.Buchholz, r.SB}[i])))
		}
		right[i], left[i] = edge, edge-max(need, px(40, k))
		edge = left[i] - gap
	}
	headY := int(top - 12*k)
	rowRoom := int(rowH)
	w.line("column", caption, th.muted, say(s.Columns[0]), nil, spot{x: nameX, y: headY, a: alignLeft, box: lineBox(caption, nameX, edge, headY, 0, 1)})
	for i := range 4 {
		w.line("column", caption, th.muted, say(s.Columns[i+1]), nil, spot{x: right[i], y: headY, a: alignRight, box: lineBox(caption, left[i], right[i], headY, 0, 1)})
	}
	dc.SetColor(alpha(th.muted, 0.4))
	dc.SetLineWidth(max(1, 2*k))
	dc.DrawLine(24*k, top, float64(width)-24*k, top)
	dc.Stroke()

	for i, r := range rows {
		y := top + rowH*float64(i)
		mid := y + rowH/2
		base := int(mid) + capHeight(regular)/2
		if i%2 == 1 {
			dc.SetColor(th.card)
			dc.DrawRectangle(16*k, y, float64(width)-32*k, rowH)
			dc.Fill()
		}
		text := th.text
		if r.Withdrawn {
			text = th.muted
		}
		rankColor := th.muted
		if r.Medal >= 1 && r.Medal <= 3 {
			dc.SetColor(medals[r.Medal-1])
			dc.DrawCircle(float64(rankX), mid, 17*k)
			dc.Fill()
			rankColor = rgb(0x1f2024)
		}
		w.line("rank", bold, rankColor, strconv.Itoa(r.Rank), nil, spot{x: rankX, y: base, a: alignCenter,
			box: lineBox(bold, px(16, k), nameX-px(4, k), base, rowRoom, 1)})
		nameRoom := lineBox(regular, nameX, edge, base, rowRoom, 1)
		w.name("name", regular, text, names[i], spot{x: nameX, y: base, a: alignLeft, box: nameRoom})
		if r.Withdrawn {
			shown := ellipsize(regular, names[i], nameRoom.Dx())
			dc.SetColor(text)
			dc.SetLineWidth(max(1, 2*k))
			dc.DrawLine(float64(nameX), mid, float64(nameX+textWidth(regular, shown)), mid)
			dc.Stroke()
		}
		for j, v := range []string{r.Points, r.Cut, r.Buchholz, r.SB} {
			f := regular
			if j == 0 {
				f = bold
			}
			w.line("number", f, text, say(v), nil, spot{x: right[j], y: base, a: alignRight, box: lineBox(f, left[j], right[j], base, rowRoom, 1)})
		}
	}
	if more > 0 {
		base := int(top+rowH*(float64(len(rows))+0.5)) + capHeight(caption)/2
		w.line("more", caption, th.muted, "+"+strconv.Itoa(more)+" …", nil, spot{x: nameX, y: base, a: alignLeft, box: lineBox(caption, nameX, width-margin, base, 0, 1)})
	}
	return dst, nil
}

// layTitle lays out a tournament's name in face f on at most two lines
// of width pixels: a name longer still keeps its first line, and its
// second ends in an ellipsis.
func layTitle(f font.Face, s string, width int) paragraph {
	p := layText(f, s, nil, width, 2)
	if len(p.lines) <= 2 {
		return p
	}
	rest := strings.Join(p.lines[1:], " ")
	shown := ellipsize(f, rest, width)
	return paragraph{lines: []string{p.lines[0], shown}, text: p.lines[0] + " " + shown,
		short: []Shortened{{Name: rest, Shown: shown}}, fits: true}
}
