package draw

import (
	"image"
	"sync"

	"github.com/kulami/kulami/draw/internal/sample"
	"github.com/kulami/kulami/engine"
)

// quantizers returns each theme's quantizer, built on first use from
// reference images of that theme (about 0.2 s, once per process). They are
// set in init, as the reference images are drawn by the code that uses
// them.
var quantizers [2]func() *quantizer

func init() {
	quantizers = [...]func() *quantizer{
		Dark:  sync.OnceValue(func() *quantizer { return referenceQuantizer(Dark) }),
		Light: sync.OnceValue(func() *quantizer { return referenceQuantizer(Light) }),
	}
}

// referenceQuantizer builds a theme's palette from full-colour images of
// every kind of thing an image shows: a game under way with its marks on
// the square and on an irregular layout, and ended games with tinted
// panels, outlined groups, scoring lines and the breakdown.
func referenceQuantizer(t Theme) *quantizer {
	r := NewRenderer(Config{Fonts: []string{}})
	r.raw = true
	names := [2]string{"Alice", "bob_the_builder"}
	var refs []*image.RGBA
	add := func(p engine.Position, opt Options) {
		opt.Theme, opt.Names = t, names
		im, err := r.compose(&p, opt, nil)
		if err != nil {
			panic("draw: reference image: " + err.Error())
		}
		refs = append(refs, im)
	}
	add(sample.Game(engine.Square(), 1, 30), Options{Rules: engine.Full})
	add(sample.Game(engine.RandomIrregular(2), 3, 17), Options{Rules: engine.Area, Width: 400})
	add(sample.GameWithLines(), Options{Rules: engine.Full})
	add(sample.Game(engine.Square(), 4, 25), Options{Rules: engine.Basic, Over: true, Outcome: "bob_the_builder wins — Alice resigned"})
	return newQuantizer(refs...)
}
