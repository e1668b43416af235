package draw

import (
	"fmt"
	"io"
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
// transparent, which keeps the file small. Each frame is written to w as
// soon as it is drawn: an animation holds two frames' pixels (the one
// before, to tell what changed), however long the game, so a long replay
// costs no more memory than a short one. It returns an error wrapping
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

	gw := newGIFWriter(w, len(positions), themes[opt.Theme].bg, &r.pal)
	defer gw.release()
	for i := range positions {
		o, delay := opt, hundredths(a.MoveDelay, DefaultMoveDelay)
		if i == len(positions)-1 {
			o, delay = last, hundredths(a.FinalDelay, DefaultFinalDelay)
		}
		if o.Report != nil {
			o.Report.frame = i + 1
		}
		im, err := r.image(&positions[i], o, &r.rgba, &r.pal)
		if err != nil {
			return err
		}
		err = gw.frame(im, delay)
		r.pal.put(im.Pix)
		if err != nil {
			return err
		}
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
