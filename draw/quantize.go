package draw

import (
	"cmp"
	"encoding/binary"
	"image"
	"image/color"
	"math"
	"slices"
)

// quantizer maps the colours of a rendered image to a palette of at most
// 64, so that the PNG holds one byte per pixel and compresses well. Its
// palette is made once per theme from reference images (see palette.go);
// the colours that fill large areas are in it exactly, the rest come from
// a median cut. A lookup table on 5, 6 and 5 bits of red, green and blue
// makes the mapping one memory read per pixel.
//
// A quantizer is immutable once built and safe for concurrent use.
type quantizer struct {
	pal color.Palette
	lut *[1 << 16]uint8 // palette index by lutIndex
	// words are the palette's colours as the little-endian words of
	// opaque RGBA pixels, to paint a packed band.
	words *[256]uint32
	// rows are 256 pixels of each palette colour, to paint a long run
	// with one copy.
	rows [][1024]byte
}

// lutIndex returns the lookup table's slot for a colour.
func lutIndex(r, g, b uint8) uint16 { return uint16(r>>3)<<11 | uint16(g>>2)<<5 | uint16(b>>3) }

// A swatch is one colour of a histogram and how many pixels have it.
type swatch struct {
	c [3]uint8
	n int
}

// Palette sizes: how many colours are kept exactly and how many in all.
const (
	maxExact   = 64
	maxColours = 64
	// exactShare is the smallest share of all pixels (one in exactShare)
	// that a colour must fill to be kept exactly.
	exactShare = 3000
)

// newQuantizer builds the palette for images whose colours are like those
// of refs, which must be opaque.
func newQuantizer(refs ...*image.RGBA) *quantizer {
	counts := map[[3]uint8]int{}
	total := 0
	for _, im := range refs {
		for i := 0; i < len(im.Pix); i += 4 {
			counts[[3]uint8{im.Pix[i], im.Pix[i+1], im.Pix[i+2]}]++
		}
		total += len(im.Pix) / 4
	}
	hist := make([]swatch, 0, len(counts))
	for c, n := range counts {
		hist = append(hist, swatch{c, n})
	}
	// Most pixels first; equal counts in colour order, so that the palette
	// is the same on every run despite the map's random order.
	slices.SortFunc(hist, func(a, b swatch) int {
		if a.n != b.n {
			return b.n - a.n
		}
		return slices.Compare(a.c[:], b.c[:])
	})
	var exact []swatch
	rest := hist
	for len(exact) < maxExact && len(rest) > 0 && rest[0].n*exactShare >= total {
		exact, rest = append(exact, rest[0]), rest[1:]
	}
	q := &quantizer{}
	for _, s := range exact {
		q.pal = append(q.pal, color.RGBA{s.c[0], s.c[1], s.c[2], 0xff})
	}
	for _, c := range medianCut(rest, maxColours-len(exact)) {
		q.pal = append(q.pal, c)
	}
	q.words = new([256]uint32)
	for i, p := range q.pal {
		c := p.(color.RGBA)
		q.words[i] = uint32(c.R) | uint32(c.G)<<8 | uint32(c.B)<<16 | 0xff<<24
	}
	q.rows = make([][1024]byte, len(q.pal))
	for i := range q.rows {
		for j := 0; j < len(q.rows[i]); j += 4 {
			binary.LittleEndian.PutUint32(q.rows[i][j:], q.words[i])
		}
	}
	q.lut = new([1 << 16]uint8)
	for i := range q.lut {
		r, g, b := uint8(i>>11)<<3|4, uint8(i>>5&63)<<2|2, uint8(i&31)<<3|4
		q.lut[i] = q.nearest(r, g, b)
	}
	// A colour kept exactly maps to itself, whatever else shares its slot.
	for i := len(exact) - 1; i >= 0; i-- {
		c := exact[i].c
		q.lut[lutIndex(c[0], c[1], c[2])] = uint8(i)
	}
	return q
}

// nearest returns the index of the palette colour closest to r, g, b,
// weighing green most and blue least, as the eye does.
func (q *quantizer) nearest(r, g, b uint8) uint8 {
	best, bestD := 0, math.MaxInt
	for i, p := range q.pal {
		c := p.(color.RGBA)
		dr, dg, db := int(c.R)-int(r), int(c.G)-int(g), int(c.B)-int(b)
		if d := 3*dr*dr + 4*dg*dg + 2*db*db; d < bestD {
			best, bestD = i, d
		}
	}
	return uint8(best)
}

// medianCut splits the colours of hist into at most n boxes and returns
// each box's mean colour. Each colour weighs the square root of its count,
// so that the many shades of a gradient or of anti-aliased edges get their
// share of the palette even though a few flat colours fill most pixels.
func medianCut(hist []swatch, n int) []color.RGBA {
	type box struct {
		s        []swatch
		ch       int // channel of the widest spread
		spread   int
		priority float64
	}
	weight := func(s swatch) float64 { return math.Sqrt(float64(s.n)) }
	mk := func(s []swatch) box {
		b := box{s: s}
		for ch := range 3 {
			lo, hi := 255, 0
			for _, x := range s {
				lo, hi = min(lo, int(x.c[ch])), max(hi, int(x.c[ch]))
			}
			if hi-lo > b.spread {
				b.ch, b.spread = ch, hi-lo
			}
		}
		w := 0.0
		for _, x := range s {
			w += weight(x)
		}
		b.priority = float64(b.spread) * math.Sqrt(w)
		return b
	}
	if len(hist) == 0 || n <= 0 {
		return nil
	}
	boxes := []box{mk(slices.Clone(hist))}
	for len(boxes) < n {
		i := 0
		for j := range boxes {
			if boxes[j].priority > boxes[i].priority {
				i = j
			}
		}
		b := boxes[i]
		if b.spread == 0 || len(b.s) < 2 {
			break
		}
		slices.SortStableFunc(b.s, func(x, y swatch) int { return cmp.Compare(x.c[b.ch], y.c[b.ch]) })
		half, acc := 0.0, 0.0
		for _, x := range b.s {
			half += weight(x)
		}
		half /= 2
		cut := 1
		for k, x := range b.s[:len(b.s)-1] {
			if acc += weight(x); acc >= half {
				cut = k + 1
				break
			}
		}
		boxes[i] = mk(b.s[:cut])
		boxes = append(boxes, mk(b.s[cut:]))
	}
	out := make([]color.RGBA, len(boxes))
	for i, b := range boxes {
		var sum [3]float64
		w := 0.0
		for _, x := range b.s {
			for ch := range 3 {
				sum[ch] += float64(x.c[ch]) * weight(x)
			}
			w += weight(x)
		}
		out[i] = color.RGBA{uint8(sum[0]/w + 0.5), uint8(sum[1]/w + 0.5), uint8(sum[2]/w + 0.5), 0xff}
	}
	return out
}

// quantize maps the opaque image src onto dst, which must have q's palette
// and the same bounds. A pixel like the one before it, as most are, costs
// no lookup.
func (q *quantizer) quantize(dst *image.Paletted, src *image.RGBA) {
	out := dst.Pix
	pix := src.Pix[:4*len(out)]
	last, ix := uint32(1<<31), uint8(0) // no opaque pixel is last
	for i := range out {
		v := binary.LittleEndian.Uint32(pix[4*i:]) | 0xff<<24
		if v != last {
			last = v
			ix = q.lut[uint16(v>>3&31)<<11|uint16(v>>10&63)<<5|uint16(v>>19&31)]
		}
		out[i] = ix
	}
}
