package draw

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"slices"
)

// gifWriter writes an animated GIF to w frame by frame, as the frames are
// drawn, so that an animation holds two frames' pixels however many moves
// it has, not all of them. Each frame's palette gets one more colour,
// transparent; a frame with the same palette as the one before holds only
// the pixels that changed, the others transparent, and frames with the
// first one's palette use the GIF's global colour table. The canvas is the
// first frame's size: a later frame may be shorter (the rest is the
// background), never larger.
//
// Each frame is encoded by image/gif as a GIF of one frame, whose header
// and trailer are left out but for the first frame's header, so the bytes
// are those gif.EncodeAll writes for all the frames at once. A gifWriter is
// not safe for concurrent use.
type gifWriter struct {
	w      io.Writer
	bg     color.RGBA // the background colour, the canvas's outside a short frame
	frames int        // how many frames the GIF has
	done   int        // how many are written
	pool   *pixPool   // the canvases' pixels

	config    image.Config    // the GIF's size and global colour table
	prev, cur *image.Paletted // the canvas after the last frame, and the next
	changed   []byte          // the pixels of the changed part, reused
	block     bytes.Buffer    // one frame encoded, reused
}

// newGIFWriter returns a gifWriter of a GIF of frames frames, on the
// background bg, to w, taking the canvases' pixels from pool (nil
// allocates).
func newGIFWriter(w io.Writer, frames int, bg color.RGBA, pool *pixPool) *gifWriter {
	return &gifWriter{w: w, frames: frames, bg: bg, pool: pool}
}

// frame writes f, to show for delay hundredths of a second, and after the
// last frame the GIF's trailer. f is copied: the caller may reuse its
// pixels.
func (g *gifWriter) frame(f *image.Paletted, delay int) error {
	if g.done == 0 {
		g.config = image.Config{ColorModel: withTransparent(f.Palette), Width: f.Rect.Dx(), Height: f.Rect.Dy()}
	}
	bounds := image.Rect(0, 0, g.config.Width, g.config.Height)
	if !f.Rect.In(bounds) || f.Rect.Min != bounds.Min || f.Rect.Dx() != bounds.Dx() {
		return fmt.Errorf("draw: frame %d is %v, not within the first's %v", g.done+1, f.Rect, bounds)
	}
	if g.cur == nil {
		g.cur = &image.Paletted{Pix: g.pool.get(bounds.Dx() * bounds.Dy()), Stride: bounds.Dx(), Rect: bounds}
	}
	cur := g.cur
	cur.Palette = withTransparent(f.Palette)
	back := uint8(f.Palette.Index(g.bg))
	n := copy(cur.Pix, f.Pix) // the same width: the rows line up
	for j := n; j < len(cur.Pix); j++ {
		cur.Pix[j] = back
	}
	im := cur
	if g.prev != nil && slices.Equal(g.prev.Palette, cur.Palette) {
		im = delta(g.prev, cur, g.changed)
		g.changed = im.Pix
	}
	g.block.Reset()
	one := &gif.GIF{Image: []*image.Paletted{im}, Delay: []int{delay}, Disposal: []byte{gif.DisposalNone}, Config: g.config}
	if err := gif.EncodeAll(&g.block, one); err != nil {
		return fmt.Errorf("draw: write GIF: %w", err)
	}
	b := g.block.Bytes()
	head := gifHeaderLen(b)
	if g.done == 0 {
		if _, err := g.w.Write(b[:head]); err != nil {
			return fmt.Errorf("draw: write GIF: %w", err)
		}
		if g.frames > 1 {
			if _, err := io.WriteString(g.w, loopForever); err != nil {
				return fmt.Errorf("draw: write GIF: %w", err)
			}
		}
	}
	body := b[head : len(b)-1] // without the trailer
	g.done++
	if g.done == g.frames {
		body = b[head:]
	}
	if _, err := g.w.Write(body); err != nil {
		return fmt.Errorf("draw: write GIF: %w", err)
	}
	g.prev, g.cur = g.cur, g.prev
	return nil
}

// release gives the canvases' pixels back to the pool. The gifWriter
// writes no more.
func (g *gifWriter) release() {
	for _, c := range []*image.Paletted{g.prev, g.cur} {
		if c != nil {
			g.pool.put(c.Pix)
		}
	}
	g.prev, g.cur, g.changed = nil, nil, nil
}

// loopForever is the application extension that makes a GIF of more than
// one frame loop forever (NETSCAPE2.0, loop count 0), as gif.EncodeAll
// writes it for a LoopCount of 0.
const loopForever = "\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"

// gifHeaderLen returns the length of the header of the GIF b: the
// signature, the logical screen descriptor and the global colour table.
func gifHeaderLen(b []byte) int {
	const screen = 13 // "GIF89a", size, flags, background, aspect ratio
	if flags := b[10]; flags&0x80 != 0 {
		return screen + 3<<(flags&7+1)
	}
	return screen
}

// withTransparent returns p with one more colour, transparent.
func withTransparent(p color.Palette) color.Palette { return append(slices.Clip(p), color.RGBA{}) }

// delta returns the part of cur that differs from prev (the same size and
// palette, whose last colour is transparent), in the smallest rectangle
// that holds it, with the pixels that did not change transparent, in pix
// if it has room. An unchanged frame is one transparent pixel.
func delta(prev, cur *image.Paletted, pix []byte) *image.Paletted {
	transparent := uint8(len(cur.Palette) - 1)
	b := cur.Rect
	x0, y0, x1, y1 := b.Max.X, b.Max.Y, b.Min.X, b.Min.Y
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if i := cur.PixOffset(x, y); cur.Pix[i] != prev.Pix[i] {
				x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x+1), max(y1, y+1)
			}
		}
	}
	changed := image.Rect(b.Min.X, b.Min.Y, b.Min.X+1, b.Min.Y+1)
	if x1 > x0 {
		changed = image.Rect(x0, y0, x1, y1)
	}
	n := changed.Dx() * changed.Dy()
	if cap(pix) < n {
		pix = make([]byte, n)
	}
	out := &image.Paletted{Pix: pix[:n], Stride: changed.Dx(), Rect: changed, Palette: cur.Palette}
	for y := changed.Min.Y; y < changed.Max.Y; y++ {
		for x := changed.Min.X; x < changed.Max.X; x++ {
			i, o := cur.PixOffset(x, y), out.PixOffset(x, y)
			out.Pix[o] = transparent
			if cur.Pix[i] != prev.Pix[i] {
				out.Pix[o] = cur.Pix[i]
			}
		}
	}
	return out
}
