package draw

import (
	"image"
	"image/color"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// The embedded Go fonts (BSD licence, see golang.org/x/image/font/gofont):
// Latin, Greek and Cyrillic, with no dependence on the system's fonts.
var (
	regularFont = mustFont(goregular.TTF)
	boldFont    = mustFont(gobold.TTF)
)

func mustFont(ttf []byte) *sfnt.Font {
	f, err := sfnt.Parse(ttf)
	if err != nil {
		panic("draw: embedded font: " + err.Error())
	}
	return f
}

// faces are the type faces of one image size. A faces is not safe for
// concurrent use (a face keeps a glyph buffer): take one from a facePool.
type faces struct {
	name   font.Face // players' names
	small  font.Face // scores and the footer
	label  font.Face // coordinates
	strong font.Face // the footer's result line
}

func newFaces(s float64) *faces {
	face := func(f *sfnt.Font, size float64) font.Face {
		fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size * s, DPI: 72, Hinting: font.HintingNone})
		if err != nil {
			panic("draw: embedded font: " + err.Error())
		}
		return fc
	}
	return &faces{
		name:   face(boldFont, 27),
		small:  face(regularFont, 23),
		label:  face(boldFont, 20),
		strong: face(boldFont, 23),
	}
}

// facePool hands out the faces of one scale to concurrent renders. It is
// safe for concurrent use.
type facePool struct {
	scale float64
	pool  sync.Pool
}

func (p *facePool) get() *faces {
	if f, ok := p.pool.Get().(*faces); ok {
		return f
	}
	return newFaces(p.scale)
}

func (p *facePool) put(f *faces) { p.pool.Put(f) }

// box stands in for a letter the fonts lack.
const box = '□'

// printable returns s as the fonts can draw it on one line: letters and
// digits the fonts lack become a box, other characters they lack (emoji,
// symbols) and invisible ones (controls, joiners, direction marks,
// variation selectors) are left out, and runs of spaces become one.
func printable(s string) string {
	var b strings.Builder
	var buf sfnt.Buffer
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs, unicode.Variation_Selector) || r == unicode.ReplacementChar:
			continue
		}
		if i, err := boldFont.GlyphIndex(&buf, r); err != nil || i == 0 {
			if !unicode.IsLetter(r) && !unicode.IsNumber(r) {
				continue
			}
			r = box
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// fit returns s cut short with an ellipsis so that it is at most width
// pixels wide in face f; s must be printable.
func fit(f font.Face, s string, width int) string {
	w := fixed.I(width)
	if font.MeasureString(f, s) <= w {
		return s
	}
	runes := []rune(s)
	for n := len(runes) - 1; n > 0; n-- {
		t := strings.TrimRight(string(runes[:n]), " ") + "…"
		if font.MeasureString(f, t) <= w {
			return t
		}
	}
	return "…"
}

// anchor says where a text's position lies: at its left end, centre or
// right end, on the baseline.
type anchor int

const (
	alignLeft anchor = iota
	alignCenter
	alignRight
)

// text draws s in face f and colour c on dst with its baseline at y and its
// anchor at x, and returns its width.
func text(dst *image.RGBA, f font.Face, c color.Color, s string, x, y int, a anchor) int {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: f}
	w := d.MeasureString(s)
	dot := fixed.I(x)
	switch a {
	case alignCenter:
		dot -= w / 2
	case alignRight:
		dot -= w
	}
	d.Dot = fixed.Point26_6{X: dot, Y: fixed.I(y)}
	d.DrawString(s)
	return w.Ceil()
}

// capHeight returns the height of a capital letter in face f, to centre
// text vertically.
func capHeight(f font.Face) int {
	b, _, _ := f.GlyphBounds('H')
	return (-b.Min.Y).Round()
}
