package draw

import (
	"encoding/binary"
	"image"
)

// band is a strip of whole rows of an image that is the same in every
// render: the empty board or the header. It starts in full colour and is
// packed, once the theme's palette is known, into runs of palette colours,
// a tenth or less of its size in full colour. A band is immutable once
// packed and safe for concurrent use.
type band struct {
	y0   int         // its first row in the image
	rgba *image.RGBA // before packing; nil after
	rows int
	runs []byte // after packing: pairs of (length-1, palette index)
	q    *quantizer
}

// newBand returns a full-colour band of width×rows pixels for the rows
// from y0 on, its pixels from pool (nil allocates), cleared.
func newBand(width, y0, rows int, pool *pixPool) *band {
	pix := pool.get(4 * width * rows)
	clear(pix)
	return &band{y0: y0, rows: rows, rgba: &image.RGBA{Pix: pix, Stride: 4 * width, Rect: image.Rect(0, y0, width, y0+rows)}}
}

// pack turns the band into runs of q's palette colours, and gives its
// full-colour pixels back to pool.
func (b *band) pack(q *quantizer, pool *pixPool) {
	pix := b.rgba.Pix
	var runs []byte
	prev, n := -1, 0
	for i := 0; i < len(pix); i += 4 {
		ix := int(q.lut[lutIndex(pix[i], pix[i+1], pix[i+2])])
		if ix == prev && n < 256 {
			n++
			continue
		}
		if n > 0 {
			runs = append(runs, byte(n-1), byte(prev))
		}
		prev, n = ix, 1
	}
	if n > 0 {
		runs = append(runs, byte(n-1), byte(prev))
	}
	b.runs = append([]byte(nil), runs...) // no spare capacity
	b.q = q
	pool.put(b.rgba.Pix)
	b.rgba = nil
}

// paint copies the band into dst, which must be as wide and hold its rows.
func (b *band) paint(dst *image.RGBA) {
	off := dst.PixOffset(0, b.y0)
	if b.rgba != nil {
		copy(dst.Pix[off:], b.rgba.Pix)
		return
	}
	pix := dst.Pix[off:]
	i := 0
	words, rows := b.q.words, b.q.rows
	for k := 0; k+1 < len(b.runs); k += 2 {
		n, c := int(b.runs[k])+1, b.runs[k+1]
		if n < 4 {
			for range n {
				binary.LittleEndian.PutUint32(pix[i:], words[c])
				i += 4
			}
			continue
		}
		i += copy(pix[i:i+4*n], rows[c][:4*n])
	}
}

// bytes returns the memory the band holds.
func (b *band) bytes() int {
	n := 64 + len(b.runs)
	if b.rgba != nil {
		n += len(b.rgba.Pix)
	}
	return n
}
