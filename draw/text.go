package draw

import (
	"image"
	"image/color"
	"slices"
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

// A role is what a text is for; each has its font and size.
type role int

const (
	roleName   role = iota // players' names in the header
	roleScore              // points and panels in the header, the score table
	roleLabel              // coordinates on the frame
	roleStrong             // the result line and the totals
	roleFooter             // the footer's line while the game goes on
	roleReason             // why the game ended, under the result
	roleKey                // the key under the board
	numRoles
)

// roleSizes are the roles' fonts and sizes in pixels at 800 pixels wide:
// 24.5 pixels or more, so that every text is 11 pixels or more when a
// phone shows the image 360 pixels wide. No text shrinks to fit: it wraps
// onto more lines, or, a name, ends in an ellipsis.
var roleSizes = [numRoles]struct {
	font *sfnt.Font
	size float64
}{
	roleName:   {boldFont, 28},
	roleScore:  {regularFont, 25},
	roleLabel:  {boldFont, 25},
	roleStrong: {boldFont, 26},
	roleFooter: {regularFont, 25},
	roleReason: {regularFont, 25},
	roleKey:    {regularFont, 25},
}

// faces makes and keeps the type faces of one image size: a face keeps a
// glyph buffer, so a faces is not safe for concurrent use; take one from a
// facePool.
type faces struct {
	scale    float64
	fallback []*sfnt.Font
	made     map[faceKey]font.Face
}

type faceKey struct {
	font *sfnt.Font
	size float64
}

// get returns the face of role r.
func (fs *faces) get(r role) font.Face { return fs.face(roleSizes[r].font, roleSizes[r].size) }

// face returns font f at size pixels (at 800 wide), with the fallback
// fonts for the letters f lacks.
func (fs *faces) face(f *sfnt.Font, size float64) font.Face {
	k := faceKey{f, size}
	if fc, ok := fs.made[k]; ok {
		return fc
	}
	opt := &opentype.FaceOptions{Size: size * fs.scale, DPI: 72, Hinting: font.HintingNone}
	face := func(f *sfnt.Font) font.Face {
		fc, err := opentype.NewFace(f, opt)
		if err != nil {
			panic("draw: font: " + err.Error())
		}
		return fc
	}
	m := &multiFace{main: face(f), fonts: []*sfnt.Font{f}, which: map[rune]int{}, glyphs: map[glyphKey]glyph{}}
	for _, fb := range fs.fallback {
		m.faces = append(m.faces, face(fb))
		m.fonts = append(m.fonts, fb)
	}
	fs.made[k] = m
	return m
}

// printable returns s as the faces can draw it (see the function
// printable), and whether every letter of s is in one of their fonts.
func (fs *faces) printable(s string) (string, bool) {
	return printable(s, append([]*sfnt.Font{boldFont}, fs.fallback...))
}

// facePool hands out the faces of one scale to concurrent renders. It is
// safe for concurrent use.
type facePool struct {
	scale    float64
	fallback []*sfnt.Font
	pool     sync.Pool
}

func (p *facePool) get() *faces {
	if f, ok := p.pool.Get().(*faces); ok {
		return f
	}
	return &faces{scale: p.scale, fallback: p.fallback, made: map[faceKey]font.Face{}}
}

func (p *facePool) put(f *faces) { p.pool.Put(f) }

// multiFace draws each letter in the first of its fonts that has it: the
// Go font, then the fallbacks.
type multiFace struct {
	main  font.Face
	faces []font.Face // the fallbacks' faces
	fonts []*sfnt.Font
	which map[rune]int // 0 for main, i+1 for faces[i]
	buf   sfnt.Buffer
	// glyphs keeps the glyphs drawn, by letter and sub-pixel position: a
	// board's texts come back at the same places render after render.
	glyphs map[glyphKey]glyph
}

// maxGlyphs bounds the glyphs a face keeps.
const maxGlyphs = 2048

type glyphKey struct {
	r    rune
	x, y fixed.Int26_6 // the fractions of a pixel of the dot
}

// glyph is a drawn letter: its mask's place from the dot's whole pixel.
type glyph struct {
	dr      image.Rectangle
	mask    *image.Alpha
	advance fixed.Int26_6
	ok      bool
}

func (m *multiFace) face(r rune) font.Face {
	i, ok := m.which[r]
	if !ok {
		for k, f := range m.fonts {
			if g, err := f.GlyphIndex(&m.buf, r); err == nil && g != 0 {
				i = k
				break
			}
		}
		m.which[r] = i
	}
	if i == 0 {
		return m.main
	}
	return m.faces[i-1]
}

func (m *multiFace) Close() error { return nil }
func (m *multiFace) Glyph(dot fixed.Point26_6, r rune) (image.Rectangle, image.Image, image.Point, fixed.Int26_6, bool) {
	k := glyphKey{r, dot.X & 63, dot.Y & 63}
	whole := image.Pt(dot.X.Floor(), dot.Y.Floor())
	g, ok := m.glyphs[k]
	if !ok {
		dr, mask, mp, adv, ok := m.face(r).Glyph(fixed.Point26_6{X: k.x, Y: k.y}, r)
		g = glyph{dr: dr, advance: adv, ok: ok}
		if ok && mask != nil && !dr.Empty() {
			a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
			for y := range dr.Dy() {
				for x := range dr.Dx() {
					_, _, _, v := mask.At(mp.X+x, mp.Y+y).RGBA()
					a.Pix[a.PixOffset(x, y)] = uint8(v >> 8)
				}
			}
			g.mask = a
		}
		if len(m.glyphs) >= maxGlyphs {
			clear(m.glyphs) // names in large scripts: start over
		}
		m.glyphs[k] = g
	}
	if g.mask == nil {
		return image.Rectangle{}, nil, image.Point{}, g.advance, g.ok
	}
	return g.dr.Add(whole), g.mask, image.Point{}, g.advance, g.ok
}
func (m *multiFace) GlyphBounds(r rune) (fixed.Rectangle26_6, fixed.Int26_6, bool) {
	return m.face(r).GlyphBounds(r)
}
func (m *multiFace) GlyphAdvance(r rune) (fixed.Int26_6, bool) { return m.face(r).GlyphAdvance(r) }
func (m *multiFace) Kern(r0, r1 rune) fixed.Int26_6 {
	if f := m.face(r0); f == m.face(r1) {
		return f.Kern(r0, r1)
	}
	return 0
}
func (m *multiFace) Metrics() font.Metrics { return m.main.Metrics() }

// printable returns s as fonts can draw it on one line, and false if
// some letter or digit of s is in none of them, which it leaves out: the
// caller of a name then shows something else, never a box. Other
// characters the fonts lack (emoji, symbols) and invisible ones (controls,
// joiners, direction marks, variation selectors) are left out, runs of
// spaces become one (a no-break space if the run had a no-break or a
// narrow no-break space, as French puts before « : » and « % », so that
// no line breaks there), and runs of right-to-left letters (Hebrew,
// Arabic) are reversed, as the image is drawn left to right.
func printable(s string, fonts []*sfnt.Font) (string, bool) {
	var out, rtl []rune
	var buf sfnt.Buffer
	space, all := false, true
	gap := ' ' // the space to put in: a no-break one if the run had one
	flush := func() {
		slices.Reverse(rtl)
		out, rtl = append(out, rtl...), rtl[:0]
	}
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			if !space {
				gap = ' '
			}
			if r == '\u00a0' || r == '\u202f' || r == '\u2007' {
				gap = '\u00a0' // French « : », « 25 % »: never a line break
			}
			space = len(out)+len(rtl) > 0
			continue
		case unicode.In(r, unicode.Cc, unicode.Cf, unicode.Co, unicode.Cs, unicode.Variation_Selector) || r == unicode.ReplacementChar:
			continue
		}
		if !hasGlyph(fonts, &buf, r) {
			if unicode.IsLetter(r) || unicode.IsNumber(r) {
				all = false
			}
			continue
		}
		isRTL := unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana)
		if space {
			if isRTL && len(rtl) > 0 {
				rtl = append(rtl, gap)
			} else {
				flush()
				out = append(out, gap)
			}
			space = false
		}
		if isRTL {
			rtl = append(rtl, r)
			continue
		}
		flush()
		out = append(out, r)
	}
	flush()
	return string(out), all
}

// hasGlyph reports whether one of fonts has a glyph for r.
func hasGlyph(fonts []*sfnt.Font, buf *sfnt.Buffer, r rune) bool {
	for _, f := range fonts {
		if i, err := f.GlyphIndex(buf, r); err == nil && i != 0 {
			return true
		}
	}
	return false
}

// ellipsize returns s cut short with an ellipsis so that it is at most
// width pixels wide in face f; s must be printable.
func ellipsize(f font.Face, s string, width int) string {
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

// textWidth returns how wide s is in face f, in whole pixels.
func textWidth(f font.Face, s string) int { return font.MeasureString(f, s).Ceil() }

// capHeight returns the height of a capital letter in face f, to centre
// text vertically.
func capHeight(f font.Face) int {
	b, _, _ := f.GlyphBounds('H')
	return (-b.Min.Y).Round()
}
