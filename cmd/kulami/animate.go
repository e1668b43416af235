package main

import (
	"flag"
	"io"

	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
)

// gifDefaults sets render's --out and --size to an animation's defaults
// where the command line left them unset.
func gifDefaults(fs *flag.FlagSet, out *string, size *int) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if !set["out"] {
		*out = "game.gif"
	}
	if !set["size"] {
		*size = draw.DefaultAnimationWidth
	}
}

// writeGIF writes the animated replay of the first n moves of rec, drawn
// with opt, to w.
func writeGIF(w io.Writer, rec *engine.Record, n int, opt draw.Options) error {
	part := *rec
	part.Moves = rec.Moves[:n]
	return draw.NewRenderer(draw.Config{}).Animate(w, draw.Animation{Record: &part, Options: opt})
}
