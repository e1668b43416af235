package draw

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"sync"
	"time"

	"github.com/kulami/kulami/engine"
	"golang.org/x/image/font/sfnt"
)

// Renderer draws board images. It keeps what does not change from move to
// move (the empty board of each layout, the pre-drawn marbles, the header)
// for the most recently used layouts, sizes and themes, within a budget of
// memory.
//
// A Renderer is safe for concurrent use.
type Renderer struct {
	cache cache
	bufs  bufferPool
	rgba  pixPool // full-colour images being composed
	pal   pixPool // their quantized copies being encoded
	// raw keeps the cache's images in full colour: for the Renderer that
	// draws the reference images the palettes are made from.
	raw bool

	renders, animations stopwatch // the time Render and Animate took

	fallback   []*sfnt.Font // fonts for letters the Go fonts lack
	pools      sync.Map     // the faces of each scale (float64 → *facePool)
	fontFiles  []string     // their files
	fontsTried []string
	fontErr    error
}

// NewRenderer returns a Renderer set up by c. A font of c.Fonts that
// cannot be read is left out, and Fonts says why.
func NewRenderer(c Config) *Renderer {
	r := &Renderer{cache: newCache(c.CacheBytes)}
	if c.CacheBytes == 0 {
		r.cache = newCache(DefaultCacheBytes)
	}
	paths, must := c.Fonts, true
	if paths == nil {
		paths, must = SystemFonts, false
	}
	r.fontsTried = paths
	r.fallback, r.fontFiles, r.fontErr = loadFonts(paths, must)
	return r
}

// faces returns the pool of the faces of images drawn at scale (their
// width over DefaultWidth), with the Renderer's fallback fonts.
func (r *Renderer) faces(scale float64) *facePool {
	if p, ok := r.pools.Load(scale); ok {
		return p.(*facePool)
	}
	p, _ := r.pools.LoadOrStore(scale, &facePool{scale: scale, fallback: r.fallback})
	return p.(*facePool)
}

// CacheBytes returns the memory the Renderer's cache holds now.
func (r *Renderer) CacheBytes() int {
	_, n := r.cache.Stats()
	return n
}

var defaultRenderer = sync.OnceValue(func() *Renderer { return NewRenderer(Config{}) })

// Render writes a PNG image of position p to w, as opt says, using a
// Renderer shared by the package, with the default Config.
func Render(w io.Writer, p *engine.Position, opt Options) error {
	return defaultRenderer().Render(w, p, opt)
}

// Render writes a PNG image of position p to w, as opt says. It returns an
// error wrapping ErrOptions for options it cannot draw with (see Options),
// or the error of writing to w.
func (r *Renderer) Render(w io.Writer, p *engine.Position, opt Options) error {
	defer r.renders.time(time.Now())
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

// image composes p with pixels from the pool rgba and quantizes it into
// pixels from the pool pal; nil pools allocate. The result is what Render
// encodes: at most 256 colours, one byte per pixel.
func (r *Renderer) image(p *engine.Position, opt Options, rgba, pal *pixPool) (*image.Paletted, error) {
	full, err := r.compose(p, opt, rgba)
	if err != nil {
		return nil, err
	}
	defer rgba.put(full.Pix)
	q := quantizers[opt.Theme][opt.Marbles]()
	b := full.Bounds()
	im := &image.Paletted{Pix: pal.get(b.Dx() * b.Dy()), Stride: b.Dx(), Rect: b, Palette: q.pal}
	q.quantize(im, full)
	return im, nil
}

// kit returns the kit of images with geometry g in theme t with marbles
// m.
func (r *Renderer) kit(g *geometry, t Theme, m Marbles) *kit {
	k := cacheKey{width: g.width, theme: t, marbles: m, cell: g.cell, lines: g.lines}
	return r.cache.get(k, func() sized {
		kt := newKit(g, t, m, r.faces(g.scale))
		if !r.raw {
			kt.pack(quantizers[t][m]())
		}
		return kt
	}).(*kit)
}

// board returns the empty board of layout l with geometry g in theme t,
// packed into the palette of t with marbles m.
func (r *Renderer) board(l *engine.Layout, g *geometry, t Theme, m Marbles, kt *kit) *board {
	k := cacheKey{layout: l.String(), width: g.width, theme: t, marbles: m, lines: g.lines}
	return r.cache.get(k, func() sized {
		if r.raw {
			return newBoard(l, g, kt, nil)
		}
		b := newBoard(l, g, kt, &r.rgba)
		b.band.pack(quantizers[t][m](), &r.rgba)
		return b
	}).(*board)
}

// frameOf returns how the image of p with opt, a frame of an animation,
// is laid out.
func (r *Renderer) frameOf(p *engine.Position, opt Options) frame {
	width, _ := opt.width()
	g := newGeometry(p.Layout(), width, opt.Rules)
	fs := r.faces(g.scale).get()
	defer r.faces(g.scale).put(fs)
	st := r.newState(p, &opt, &g, fs)
	kt := r.kit(&g, opt.Theme, opt.Marbles)
	return frame{cardLines: g.lines, footerLines: st.footerLines(), keyRows: len(st.keyRows(&kt.icons))}
}

// compose draws p in full colour, with pixels from pool (nil allocates).
func (r *Renderer) compose(p *engine.Position, opt Options, pool *pixPool) (*image.RGBA, error) {
	if err := opt.check(p); err != nil {
		return nil, err
	}
	width, _ := opt.width()
	l := p.Layout()
	g := newGeometry(l, width, opt.Rules)
	fs := r.faces(g.scale).get()
	defer r.faces(g.scale).put(fs)
	st := r.newState(p, &opt, &g, fs) // sets the header's height
	kt := r.kit(&g, opt.Theme, opt.Marbles)
	b := r.board(l, &g, opt.Theme, opt.Marbles, kt)
	keyRows := st.keyRows(&kt.icons)
	rows, lines := max(len(keyRows), 1), st.footerLines()
	if opt.frame != nil {
		rows, lines = max(rows, opt.frame.keyRows), st.tableLines()
	}
	g.setKeyRows(rows)
	footer := g.footerHeight(lines, st.final || opt.frame != nil)
	bounds := image.Rect(0, 0, width, g.footerY+footer)
	dst := &image.RGBA{Pix: pool.get(4 * bounds.Dx() * bounds.Dy()), Stride: 4 * bounds.Dx(), Rect: bounds}
	kt.headers[st.highlight()].paint(dst)
	b.band.paint(dst)
	fillRows(dst, g.keyY, themes[opt.Theme].bg)

	last, prev := p.Last()
	var bars [2][]segment
	if st.final {
		tintOwners(dst, &g, p, kt.marbles)
		if opt.Rules.CountsLines() {
			bars = lineBars(&g, p)
			drawLines(dst, &g, bars, kt.marbles)
		}
	} else {
		hatch := &stripes{origin: g.frame.Min, step: float64(g.cell) / 3, width: float64(g.cell) / 3 * 0.3}
		for _, h := range []engine.Hole{last, prev} {
			if h != engine.NoHole {
				i := l.PanelOf(h)
				shadePanel(dst, &g, l, i, blockedShade, nil)
				shadePanel(dst, &g, l, i, blockedHatch, hatch)
			}
		}
		if !opt.HideLegal {
			for h := range p.Legal().All() {
				put(dst, &g, l.Cell(h), kt.sprites.legal)
			}
		}
	}
	for _, c := range []engine.Color{engine.Red, engine.Black} {
		for h := range p.Stones(c).All() {
			put(dst, &g, l.Cell(h), kt.sprites.marble[c])
		}
	}
	if st.final && opt.Rules.CountsArea() {
		drawGroups(dst, &g, p, append(bars[engine.Red], bars[engine.Black]...), kt.marbles)
	}
	if prev != engine.NoHole {
		put(dst, &g, l.Cell(prev), kt.sprites.prev)
	}
	if last != engine.NoHole {
		put(dst, &g, l.Cell(last), kt.sprites.last)
	}

	w := &writer{dst: dst, rep: opt.Report}
	reportLabels(opt.Report, &g, fs)
	st.drawHeader(w)
	st.drawKey(w, keyRows)
	st.drawFooter(w)
	return dst, nil
}

// fillRows paints the rows of dst from y0 down in the opaque colour c.
func fillRows(dst *image.RGBA, y0 int, c color.RGBA) {
	v := uint32(c.R) | uint32(c.G)<<8 | uint32(c.B)<<16 | 0xff<<24
	pix := dst.Pix[dst.PixOffset(0, y0):]
	for i := 0; i+4 <= len(pix); i += 4 {
		binary.LittleEndian.PutUint32(pix[i:], v)
	}
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

// get returns a buffer of n bytes with arbitrary contents. A new one has
// room to spare, as images differ in height with their layout.
func (p *pixPool) get(n int) []byte {
	if p == nil {
		return make([]byte, n)
	}
	if b, ok := p.p.Get().(*[]byte); ok && cap(*b) >= n {
		return (*b)[:n]
	}
	return make([]byte, n, n+n/4)
}

// put gives b back for reuse.
func (p *pixPool) put(b []byte) {
	if p != nil {
		p.p.Put(&b)
	}
}
