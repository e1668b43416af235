package draw

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"strconv"

	"github.com/fogleman/gg"
)

// StandingsRow is one line of a tournament's standings.
type StandingsRow struct {
	Rank      int
	Name      string
	Points    string // as the caller writes them: "3½"
	Cut       string // Buchholz Cut-1
	Buchholz  string
	SB        string // Sonneborn–Berger
	Withdrawn bool   // drawn muted and struck through
}

// Standings is a tournament's standings as a table: the rank (the first
// three on gold, silver and bronze discs), the name, the points and the
// three tie-breaks, on the boards' background, in their fonts, at sizes
// that stay readable on a phone showing the image 360 pixels wide (the
// text is 24 pixels or more at the default width of 800, as the boards').
type Standings struct {
	Title   string    // the tournament's name
	Caption string    // under the title: "after round 3 of 4"
	Columns [5]string // the headings: player, points, and the three tie-breaks
	Rows    []StandingsRow
	// Width is the width in pixels, from MinWidth to MaxWidth; 0 means
	// DefaultWidth.
	Width int
	Theme Theme
}

// MaxStandingsRows is how many rows a standings image shows; a line under
// them counts the others.
const MaxStandingsRows = 32

// medals are the discs of the first three ranks: gold, silver, bronze.
var medals = [3]color.RGBA{rgb(0xf0c03a), rgb(0xc4cad3), rgb(0xcd8a4d)}

// RenderStandings writes s as a PNG image to w. It returns an error
// wrapping ErrOptions for a bad width or theme, or the error of writing.
func RenderStandings(w io.Writer, s Standings) error {
	im, err := s.Image()
	if err != nil {
		return err
	}
	if err := png.Encode(w, im); err != nil {
		return fmt.Errorf("draw: write PNG: %w", err)
	}
	return nil
}

// Image draws s; see RenderStandings.
func (s Standings) Image() (*image.RGBA, error) {
	if int(s.Theme) >= len(themeNames) {
		return nil, fmt.Errorf("%w: unknown %v; use Dark or Light", ErrOptions, s.Theme)
	}
	o := Options{Width: s.Width}
	width, err := o.width()
	if err != nil {
		return nil, err
	}
	k := float64(width) / DefaultWidth
	rows := s.Rows[:min(len(s.Rows), MaxStandingsRows)]
	more := len(s.Rows) - len(rows)
	rowH := 46 * k
	top := 128 * k
	height := int(top + rowH*float64(len(rows)) + 24*k)
	if more > 0 {
		height += int(rowH)
	}
	th := themes[s.Theme]
	dc := gg.NewContext(width, height)
	dc.SetColor(th.bg)
	dc.Clear()
	title, caption := chartFace(boldFont, 32*k), chartFace(regularFont, 24*k)
	bold, regular := chartFace(boldFont, 26*k), chartFace(regularFont, 26*k)

	dc.SetFontFace(title)
	dc.SetColor(th.text)
	dc.DrawString(ellipsize(title, chartText(s.Title), width-int(48*k)), 24*k, 46*k)
	dc.SetFontFace(caption)
	dc.SetColor(th.muted)
	dc.DrawString(ellipsize(caption, chartText(s.Caption), width-int(48*k)), 24*k, 84*k)

	// The columns: the rank, the name (what is left), and four numbers
	// right-aligned.
	rankX, nameX := 48*k, 92*k
	numX := []float64{float64(width) - 356*k, float64(width) - 248*k, float64(width) - 150*k, float64(width) - 24*k}
	nameW := int(numX[0] - 70*k - nameX)
	dc.SetFontFace(caption)
	dc.SetColor(th.muted)
	dc.DrawString(chartText(s.Columns[0]), nameX, top-12*k)
	for i, x := range numX {
		dc.DrawStringAnchored(chartText(s.Columns[i+1]), x, top-12*k, 1, 0)
	}
	dc.SetColor(alpha(th.muted, 0.4))
	dc.SetLineWidth(max(1, 2*k))
	dc.DrawLine(24*k, top, float64(width)-24*k, top)
	dc.Stroke()

	for i, r := range rows {
		y := top + rowH*float64(i)
		mid := y + rowH/2
		if i%2 == 1 {
			dc.SetColor(th.card)
			dc.DrawRectangle(16*k, y, float64(width)-32*k, rowH)
			dc.Fill()
		}
		text := th.text
		if r.Withdrawn {
			text = th.muted
		}
		if r.Rank >= 1 && r.Rank <= 3 {
			dc.SetColor(medals[r.Rank-1])
			dc.DrawCircle(rankX, mid, 17*k)
			dc.Fill()
			dc.SetColor(rgb(0x1f2024))
		} else {
			dc.SetColor(th.muted)
		}
		dc.SetFontFace(bold)
		dc.DrawStringAnchored(strconv.Itoa(r.Rank), rankX, mid, 0.5, 0.35)
		dc.SetColor(text)
		dc.SetFontFace(regular)
		name := ellipsize(regular, chartText(r.Name), nameW)
		dc.DrawStringAnchored(name, nameX, mid, 0, 0.35)
		if r.Withdrawn {
			w, _ := dc.MeasureString(name)
			dc.SetLineWidth(max(1, 2*k))
			dc.DrawLine(nameX, mid, nameX+w, mid)
			dc.Stroke()
		}
		dc.SetFontFace(bold)
		dc.DrawStringAnchored(chartText(r.Points), numX[0], mid, 1, 0.35)
		dc.SetFontFace(regular)
		for j, v := range []string{r.Cut, r.Buchholz, r.SB} {
			dc.DrawStringAnchored(chartText(v), numX[j+1], mid, 1, 0.35)
		}
	}
	if more > 0 {
		dc.SetFontFace(caption)
		dc.SetColor(th.muted)
		dc.DrawStringAnchored("+"+strconv.Itoa(more)+" …", nameX, top+rowH*(float64(len(rows))+0.5), 0, 0.35)
	}
	return dc.Image().(*image.RGBA), nil
}
