package draw

import (
	"fmt"
	"image"
	"image/png"
	"io"
	"sync"

	"github.com/kulami/kulami/engine"
)

// DefaultCacheSize is how many boards (a layout at one width and theme)
// the package-level Render keeps. A board at 800 pixels holds about 5 MB
// of pixels (the empty board, two masks, two header strips).
const DefaultCacheSize = 16

// Renderer draws board images. It keeps what does not change from move to
// move (the empty board, the pre-drawn marbles) for the most recently used
// layouts, sizes and themes, at most a fixed number of them.
//
// A Renderer is safe for concurrent use.
type Renderer struct {
	boards *boardCache
	bufs   bufferPool
	rgba   pixPool // full-colour images being composed
	pal    pixPool // their quantized copies being encoded
}

// NewRenderer returns a Renderer that keeps at most cacheSize boards (at
// least one).
func NewRenderer(cacheSize int) *Renderer {
	return &Renderer{boards: newBoardCache(cacheSize)}
}

var defaultRenderer = NewRenderer(DefaultCacheSize)

// Render writes a PNG image of position p to w, as opt says, using a
// Renderer shared by the package.
func Render(w io.Writer, p *engine.Position, opt Options) error {
	return defaultRenderer.Render(w, p, opt)
}

// Render writes a PNG image of position p to w, as opt says. It returns an
// error wrapping ErrOptions for options it cannot draw with (see Options),
// or the error of writing to w.
func (r *Renderer) Render(w io.Writer, p *engine.Position, opt Options) error {
	im, err := r.image(p, opt, &r.rgba, &r.pal)
	if err != nil {
		return err
	}
	defer r.pal.put(im.Pix)
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &r.bufs}
	if err := enc.Encode(w, im); err != nil {
		return fmt.Errorf("draw: write PNG: %w", err)
	}
	return nil
}

// Image returns the image Render would encode: at most 256 colours, one
// byte per pixel. It returns an error wrapping ErrOptions for options it
// cannot draw with.
func (r *Renderer) Image(p *engine.Position, opt Options) (*image.Paletted, error) {
	return r.image(p, opt, nil, nil)
}

// image composes p with pixels from the pool rgba and quantizes it into
// pixels from the pool pal; nil pools allocate.
func (r *Renderer) image(p *engine.Position, opt Options, rgba, pal *pixPool) (*image.Paletted, error) {
	full, err := r.compose(p, opt, rgba)
	if err != nil {
		return nil, err
	}
	defer rgba.put(full.Pix)
	q := quantizers[opt.Theme]()
	b := full.Bounds()
	im := &image.Paletted{Pix: pal.get(b.Dx() * b.Dy()), Stride: b.Dx(), Rect: b, Palette: q.pal}
	q.quantize(im, full)
	return im, nil
}

// compose draws p in full colour, with pixels from pool (nil allocates).
func (r *Renderer) compose(p *engine.Position, opt Options, pool *pixPool) (*image.RGBA, error) {
	if err := opt.check(p); err != nil {
		return nil, err
	}
	width, _ := opt.width()
	b := r.boards.get(p.Layout(), width, opt.Theme)
	st := &state{p: p, opt: &opt, final: opt.Over || p.IsOver(), score: p.Score(opt.Rules)}

	bounds := image.Rect(0, 0, width, b.geo.footerY+b.geo.footerHeight(st.final))
	dst := &image.RGBA{Pix: pool.get(4 * bounds.Dx() * bounds.Dy()), Stride: 4 * bounds.Dx(), Rect: bounds}
	n := copy(dst.Pix, b.base.Pix)
	bg := themes[opt.Theme].bg
	for i := n; i < len(dst.Pix); i += 4 {
		dst.Pix[i], dst.Pix[i+1], dst.Pix[i+2], dst.Pix[i+3] = bg.R, bg.G, bg.B, 0xff
	}

	l := p.Layout()
	last, prev := p.Last()
	if st.final {
		b.tintOwners(dst, p)
		if opt.Rules.CountsLines() {
			b.drawLines(dst, p)
		}
	} else {
		for _, h := range []engine.Hole{last, prev} {
			if h != engine.NoHole {
				i := l.PanelOf(h)
				b.shadePanel(dst, i, blockedShade, b.tiles)
				b.shadePanel(dst, i, blockedHatch, b.hatch)
			}
		}
		if !opt.HideLegal {
			for h := range p.Legal().All() {
				b.put(dst, l.Cell(h), b.sprites.legal)
			}
		}
	}
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		for h := range p.Stones(c).All() {
			b.put(dst, l.Cell(h), b.sprites.marble[c])
		}
	}
	if st.final && opt.Rules.CountsArea() {
		b.drawGroups(dst, p)
	}
	if prev != engine.NoHole {
		b.put(dst, l.Cell(prev), b.sprites.prev)
	}
	if last != engine.NoHole {
		b.put(dst, l.Cell(last), b.sprites.last)
	}

	fs := b.faces.get()
	defer b.faces.put(fs)
	b.drawHeader(dst, fs, st)
	b.drawFooter(dst, fs, st)
	return dst, nil
}

// bufferPool lets the PNG encoder reuse its buffers between images. It is
// safe for concurrent use.
type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() *png.EncoderBuffer {
	if e, ok := b.p.Get().(*png.EncoderBuffer); ok {
		return e
	}
	return nil
}

func (b *bufferPool) Put(e *png.EncoderBuffer) { b.p.Put(e) }

// pixPool keeps pixel buffers for reuse. A nil *pixPool allocates and
// drops. A pixPool is safe for concurrent use.
type pixPool struct{ p sync.Pool }

// get returns a buffer of n bytes with arbitrary contents.
func (p *pixPool) get(n int) []byte {
	if p != nil {
		if b, ok := p.p.Get().(*[]byte); ok && cap(*b) >= n {
			return (*b)[:n]
		}
	}
	return make([]byte, n)
}

// put gives b back for reuse.
func (p *pixPool) put(b []byte) {
	if p != nil {
		p.p.Put(&b)
	}
}
