package draw

import (
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"slices"
	"time"

	"github.com/kulami/kulami/engine"
)

// Animation defaults: a width that keeps a whole game's GIF well under a
// megabyte (a 56-move game on the square board is 560 KB at
// DefaultAnimationWidth; BenchmarkAnimate reports it), a pause per move
// and a longer one on the final position.
const (
	DefaultAnimationWidth = 480
	DefaultMoveDelay      = 800 * time.Millisecond
	DefaultFinalDelay     = 5 * time.Second
)

// Animation is an animated replay of a game: one frame per move, showing
// the board after it as Render would.
type Animation struct {
	// Record is the game; its moves must be legal.
	Record *engine.Record
	// Options are those of every frame. Width 0 means
	// DefaultAnimationWidth; Rules are the record's. Over and Outcome
	// apply to the last frame only.
	Options Options
	// MoveDelay is how long each frame shows, FinalDelay how long the last
	// one does; 0 means DefaultMoveDelay and DefaultFinalDelay. GIF counts
	// in hundredths of a second.
	MoveDelay, FinalDelay time.Duration
}

// Animate writes a as an animated GIF to w, looping forever. Every frame
// but the first holds only the pixels that changed, the others
// transparent, which keeps the file small. It returns an error wrapping
// ErrOptions for options it cannot draw with or a record without moves,
// the record's first illegal move as an *engine.MoveError, or the error of
// writing to w.
func (r *Renderer) Animate(w io.Writer, a Animation) error {
	defer r.animations.time(time.Now())
	if a.Record == nil || a.Record.Layout == nil || len(a.Record.Moves) == 0 {
		return fmt.Errorf("%w: an animation needs a record with one move at least", ErrOptions)
	}
	opt := a.Options
	if opt.Width == 0 {
		opt.Width = DefaultAnimationWidth
	}
	opt.Rules = a.Record.Rules
	last := opt
	opt.Over, opt.Outcome = false, ""

	// Every frame is laid out as the one that needs most room (the last,
	// as a rule, whose score table every frame shows where the last has
	// it): the board stays in place, there is no empty band under it
	// while it plays, and the table does not jump at the end.
	positions := make([]engine.Position, 0, len(a.Record.Moves))
	p := engine.NewPosition(a.Record.Layout, a.Record.First)
	for i, m := range a.Record.Moves {
		if err := p.PlayMove(m); err != nil {
			return &engine.MoveError{Ply: i + 1, Move: m, Err: err}
		}
		positions = append(positions, p)
	}
	if err := last.check(&p); err != nil {
		return err
	}
	f := r.frameLayout(positions, opt, last)
	opt.frame, last.frame = &f, &f

	frames := make([]*image.Paletted, 0, len(a.Record.Moves))
	for i := range positions {
		o := opt
		if i == len(positions)-1 {
			o = last
		}
		if o.Report != nil {
			o.Report.frame = i + 1
		}
		im, err := r.image(&positions[i], o, &r.rgba, nil) // frames are kept: their pixels are not pooled
		if err != nil {
			return err
		}
		frames = append(frames, im)
	}
	g := encodeFrames(frames, themes[opt.Theme].bg)
	g.Delay = make([]int, len(frames))
	for i := range g.Delay {
		g.Delay[i] = hundredths(a.MoveDelay, DefaultMoveDelay)
	}
	g.Delay[len(frames)-1] = hundredths(a.FinalDelay, DefaultFinalDelay)
	if err := gif.EncodeAll(w, g); err != nil {
		return fmt.Errorf("draw: write GIF: %w", err)
	}
	return nil
}

// frameLayout returns the layout every frame of an animation takes: the
// most room any of positions needs, drawn with opt, the last with last.
func (r *Renderer) frameLayout(positions []engine.Position, opt, last Options) frame {
	var f frame
	for i := range positions {
		o := opt
		if i == len(positions)-1 {
			o = last
		}
		fi := r.frameOf(&positions[i], o)
		f = frame{cardLines: max(f.cardLines, fi.cardLines), footerLines: max(f.footerLines, fi.footerLines), keyRows: max(f.keyRows, fi.keyRows)}
	}
	return f
}

// hundredths returns d, or def if d is 0, in hundredths of a second, at
// least 1.
func hundredths(d, def time.Duration) int {
	if d <= 0 {
		d = def
	}
	return max(1, int(d/(10*time.Millisecond)))
}

// encodeFrames turns frames of one width (the last may be taller: it holds
// the result) into a GIF on a canvas of the tallest. Each frame's palette
// gets one more colour, transparent; a frame with the same palette as the
// one before holds only the pixels that changed, the others transparent,
// and frames with the first one's palette use the GIF's global colour
// table.
func encodeFrames(frames []*image.Paletted, bg color.RGBA) *gif.GIF {
	bounds := frames[0].Rect
	for _, f := range frames {
		bounds = bounds.Union(f.Rect)
	}
	withTransparent := func(p color.Palette) color.Palette { return append(slices.Clip(p), color.RGBA{}) }
	g := &gif.GIF{
		Config:   image.Config{ColorModel: withTransparent(frames[0].Palette), Width: bounds.Dx(), Height: bounds.Dy()},
		Disposal: make([]byte, len(frames)),
	}
	var prev *image.Paletted
	for i, f := range frames {
		cur := image.NewPaletted(bounds, withTransparent(f.Palette))
		back := uint8(f.Palette.Index(bg))
		for j := range cur.Pix {
			cur.Pix[j] = back
		}
		copy(cur.Pix, f.Pix) // the same width: the rows line up
		g.Disposal[i] = gif.DisposalNone
		if prev != nil && slices.Equal(prev.Palette, cur.Palette) {
			g.Image = append(g.Image, delta(prev, cur))
		} else {
			g.Image = append(g.Image, cur)
		}
		prev = cur
	}
	return g
}

// delta returns the part of cur that differs from prev (the same size and
// palette, whose last colour is transparent), in the smallest rectangle
// that holds it, with the pixels that did not change transparent. An
// unchanged frame is one transparent pixel.
func delta(prev, cur *image.Paletted) *image.Paletted {
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
	out := image.NewPaletted(changed, cur.Palette)
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
