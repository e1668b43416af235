package draw

import (
	"image"
	"sync"

	"github.com/kulami/kulami/draw/internal/sample"
	"github.com/kulami/kulami/engine"
)

// quantizers returns the quantizer of each theme and set of marbles,
// built on first use from reference images drawn with them (about 0.2 s,
// once per process and pair). They are set in init, as the reference
// images are drawn by the code that uses them.
var quantizers [len(themeNames)][len(marblesNames)]func() *quantizer

func init() {
	for t := range quantizers {
		for m := range quantizers[t] {
			quantizers[t][m] = sync.OnceValue(func() *quantizer { return referenceQuantizer(Theme(t), Marbles(m)) })
		}
	}
}

// referenceQuantizer builds the palette of a theme and set of marbles from full-colour images of
// every kind of thing an image shows: a game under way with its marks on
// the square and on an irregular layout, and ended games with tinted
// panels, outlined groups, scoring lines and the breakdown.
func referenceQuantizer(t Theme, m Marbles) *quantizer {
	r := NewRenderer(Config{Fonts: []string{}})
	r.raw = true
	names := [2]string{"Alice", "bob_the_builder"}
	var refs []*image.RGBA
	add := func(p engine.Position, opt Options) {
		opt.Theme, opt.Marbles, opt.Names = t, m, names
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
