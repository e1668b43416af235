package draw

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/kulami/kulami/draw/drawtest"
	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// goldenCases are the images kept in testdata/: look at them after a
// change to the drawing, then run go test ./draw -update.
func goldenCases(tb testing.TB) []struct {
	name string
	p    engine.Position
	opt  Options
} {
	tb.Helper()
	names := [2]string{"alice", "Bob the Builder"}
	mid := drawtest.MustGame(tb, engine.Square(), 7, 40)
	end := drawtest.GameWithLines()
	black := engine.Black
	require.True(tb, end.IsOver())
	return []struct {
		name string
		p    engine.Position
		opt  Options
	}{
		{"empty", engine.NewPosition(engine.Square(), engine.Red), Options{}},
		{"mid", mid, Options{Names: names, Rules: engine.Full}},
		{"mid_light", mid, Options{Names: names, Rules: engine.Full, Theme: Light}},
		{"mid_400", mid, Options{Names: names, Rules: engine.Full, Width: 400}},
		{"over_basic", end, Options{Names: names, Rules: engine.Basic}},
		{"over_area", end, Options{Names: names, Rules: engine.Area}},
		{"over_lines", end, Options{Names: names, Rules: engine.Lines, Theme: Light}},
		{"over_full", end, Options{Names: names, Rules: engine.Full}},
		{"resigned", mid, Options{Names: names, Rules: engine.Full, Over: true, Outcome: "Bob the Builder wins — alice resigned", Winner: &black}},
		{"irregular", drawtest.MustGame(tb, engine.RandomIrregular(5), 3, 21), Options{Names: names, Rules: engine.Area}},
		{"irregular_light", drawtest.MustGame(tb, engine.RandomIrregular(11), 5, 33), Options{Names: names, Rules: engine.Lines, Theme: Light}},
		// The colour-blind set, on both themes, at full size and as a phone
		// shows it.
		{"mid_colourblind", mid, Options{Names: names, Rules: engine.Full, Marbles: ColourBlind}},
		{"mid_colourblind_light_360", mid, Options{Names: names, Rules: engine.Full, Marbles: ColourBlind, Theme: Light, Width: 360}},
		{"over_full_colourblind_light", end, Options{Names: names, Rules: engine.Full, Marbles: ColourBlind, Theme: Light}},
		{"over_full_colourblind_360", end, Options{Names: names, Rules: engine.Full, Marbles: ColourBlind, Width: 360}},
	}
}

func TestGolden(t *testing.T) {
	for _, tc := range goldenCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, Render(&buf, &tc.p, tc.opt))
			drawtest.AssertGolden(t, tc.name, buf.Bytes())
		})
	}
}

// newTestRenderer returns a Renderer with no fallback font that keeps
// little more than the last board it drew.
func newTestRenderer() *Renderer { return NewRenderer(Config{CacheBytes: 1, Fonts: []string{}}) }

// mustImage returns the image Render would encode.
func mustImage(tb testing.TB, p *engine.Position, opt Options) *image.Paletted {
	tb.Helper()
	im, err := newTestRenderer().image(p, opt, nil, nil)
	require.NoError(tb, err)
	return im
}

func TestCompareImagesCatchesAChange(t *testing.T) {
	p := drawtest.MustGame(t, engine.Square(), 7, 40)
	a := mustImage(t, &p, Options{})
	p2 := p
	require.NoError(t, p2.Play(p2.Legal().Cells(p2.Layout())[0]))
	b := mustImage(t, &p2, Options{})
	assert.Empty(t, drawtest.CompareImages(a, a))
	assert.NotEmpty(t, drawtest.CompareImages(a, b), "one more marble must count as a difference")
}

// isAccent reports whether c is the colour of the marks.
func isAccent(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	return b>>8 > 200 && g>>8 > 200 && r>>8 < 170
}

// isShaded reports whether c is wood darkened as a closed panel is.
func isShaded(c color.Color) bool {
	r, _, _, _ := c.RGBA()
	return r>>8 < 170
}

// TestMarksLandOnTheirHoles checks, at every hole's centre as HoleCenter
// computes it, that the legal marks, the last two marbles' marks and the
// shading of the closed panels are where the position says.
func TestMarksLandOnTheirHoles(t *testing.T) {
	cases := []struct {
		name string
		p    engine.Position
		opt  Options
	}{
		{"square", drawtest.MustGame(t, engine.Square(), 7, 40), Options{}},
		{"square early", drawtest.MustGame(t, engine.Square(), 2, 5), Options{Width: 500, Theme: Light}},
		{"irregular", drawtest.MustGame(t, engine.RandomIrregular(5), 3, 21), Options{Width: 640}},
		{"irregular late", drawtest.MustGame(t, engine.RandomIrregular(9), 4, 38), Options{Width: 1000}},
		{"first move", engine.NewPosition(engine.RandomIrregular(3), engine.Black), Options{Width: 333}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, newTestRenderer().Render(&buf, &tc.p, tc.opt))
			im := drawtest.MustDecode(t, buf.Bytes())
			l := tc.p.Layout()
			a, b := HoleCenter(l, engine.CellAt(0, 0), tc.opt), HoleCenter(l, engine.CellAt(1, 0), tc.opt)
			cell := float64(b.X - a.X)
			require.Positive(t, cell)
			at := func(c engine.Cell, dx, dy float64) color.Color {
				p := HoleCenter(l, c, tc.opt)
				return im.At(p.X+int(dx*cell), p.Y+int(dy*cell))
			}
			last, prev := tc.p.Last()
			legal := tc.p.Legal()
			require.NotZero(t, legal)
			for h := range engine.Hole(engine.NumHoles) {
				c := l.Cell(h)
				_, occupied := tc.p.At(h)
				centre := at(c, 0, 0)
				ring := at(c, ringRadius, 0)
				thick := at(c, ringRadius+lastWidth*0.4, 0)
				// Between two dashes of the previous marble's ring.
				gap := at(c, ringRadius*math.Cos(math.Pi/prevDashes), ringRadius*math.Sin(math.Pi/prevDashes))
				wood := at(c, 0.36, 0.36)
				closed := last != engine.NoHole && l.PanelOf(h) == l.PanelOf(last) ||
					prev != engine.NoHole && l.PanelOf(h) == l.PanelOf(prev)
				switch {
				case h == last:
					assert.False(t, isAccent(centre), "%v: the last marble has a dot, like a legal hole", c)
					assert.True(t, isAccent(ring), "%v: the last marble has no ring: %v", c, ring)
					assert.True(t, isAccent(thick), "%v: the last marble's ring is not bold: %v", c, thick)
					assert.True(t, isAccent(gap), "%v: the last marble's ring is broken: %v", c, gap)
				case h == prev:
					assert.False(t, isAccent(centre), "%v: the previous marble has a dot", c)
					assert.True(t, isAccent(ring), "%v: the previous marble has no ring: %v", c, ring)
					assert.False(t, isAccent(thick), "%v: the previous marble's ring is as bold as the last's", c)
					assert.False(t, isAccent(gap), "%v: the previous marble's ring is not broken", c)
				case legal&(1<<h) != 0:
					assert.True(t, isAccent(centre), "%v: a legal hole is not marked: %v", c, centre)
				default:
					assert.False(t, isAccent(centre), "%v: marked but neither legal nor last: %v", c, centre)
					assert.False(t, isAccent(ring), "%v: ringed but not one of the last two: %v", c, ring)
				}
				if occupied {
					assert.Zero(t, legal&(1<<h), "%v: occupied yet legal", c)
				}
				assert.Equal(t, closed, isShaded(wood), "%v: closed %v but the wood is %v", c, closed, wood)
			}
		})
	}
}

func TestEndedGameHasNoLegalMarksOrShading(t *testing.T) {
	p := drawtest.MustGame(t, engine.Square(), 7, 40)
	opt := Options{Over: true, Outcome: "bob wins — alice ran out of time"}
	var buf bytes.Buffer
	require.NoError(t, Render(&buf, &p, opt))
	im := drawtest.MustDecode(t, buf.Bytes())
	last, _ := p.Last()
	l := p.Layout()
	for _, cell := range p.Legal().Cells(l) {
		c := HoleCenter(l, cell, opt)
		assert.False(t, isAccent(im.At(c.X, c.Y)), "%v: a legal mark on an ended game", cell)
	}
	c := HoleCenter(l, l.Cell(last), opt)
	cell := HoleCenter(l, engine.CellAt(1, 0), opt).X - HoleCenter(l, engine.CellAt(0, 0), opt).X
	assert.True(t, isAccent(im.At(c.X+int(ringRadius*float64(cell)), c.Y)), "the last marble stays marked at the end")
}

func TestRenderIsDeterministic(t *testing.T) {
	p := drawtest.MustGame(t, engine.RandomIrregular(8), 1, 30)
	opt := Options{Names: [2]string{"Zoë", "Ωmega"}, Rules: engine.Full}
	var a, b bytes.Buffer
	require.NoError(t, newTestRenderer().Render(&a, &p, opt))
	require.NoError(t, newTestRenderer().Render(&b, &p, opt))
	assert.Equal(t, a.Bytes(), b.Bytes())
}

func TestRendererIsSafeForConcurrentUse(t *testing.T) {
	var ps []engine.Position
	for seed := range uint64(6) {
		ps = append(ps, drawtest.MustGame(t, engine.RandomSquare(seed%3), seed, 10+int(seed)))
	}
	// Names in a fallback font too: its file is read by every render.
	opts := []Options{{Names: [2]string{"ნინო", "Dan דני"}}, {Theme: Light, Width: 400}}
	want := map[[2]int][]byte{}
	font := dejaVu(t)
	for i := range ps {
		for j := range opts {
			var buf bytes.Buffer
			require.NoError(t, NewRenderer(Config{Fonts: []string{font}}).Render(&buf, &ps[i], opts[j]))
			want[[2]int{i, j}] = buf.Bytes()
		}
	}
	r := NewRenderer(Config{CacheBytes: 400 << 10, Fonts: []string{font}}) // smaller than the boards in use: evictions under load
	var wg sync.WaitGroup
	for k := range 4 {
		wg.Go(func() {
			for n := range 6 {
				i, j := (k+n)%len(ps), (k*n)%len(opts)
				var buf bytes.Buffer
				assert.NoError(t, r.Render(&buf, &ps[i], opts[j]))
				assert.Equal(t, want[[2]int{i, j}], buf.Bytes(), "position %d, options %d", i, j)
			}
		})
	}
	wg.Wait()
	items, bytes := r.cache.Stats()
	assert.Less(t, items, 2*len(ps), "boards were evicted")
	assert.LessOrEqual(t, bytes, 400<<10+maxItemBytes, "the cache is over its budget by more than the item it keeps")
}

type failingWriter struct{}

var errDiskFull = errors.New("disk full")

func (failingWriter) Write([]byte) (int, error) { return 0, errDiskFull }

func TestRenderRefusesWhatItCannotDraw(t *testing.T) {
	p := drawtest.MustGame(t, engine.Square(), 1, 3)
	var zero engine.Position
	cases := []struct {
		name string
		p    *engine.Position
		opt  Options
		want string // in the message: what to do
	}{
		{"narrow", &p, Options{Width: 100}, "use 320 to 2400 pixels"},
		{"wide", &p, Options{Width: 5000}, "use 320 to 2400 pixels"},
		{"negative", &p, Options{Width: -800}, "use 320 to 2400 pixels"},
		{"no position", nil, Options{}, "engine.NewPosition"},
		{"zero position", &zero, Options{}, "engine.NewPosition"},
		{"theme", &p, Options{Theme: Theme(9)}, "use Dark or Light"},
		{"marbles", &p, Options{Marbles: Marbles(2)}, "use Standard or ColourBlind"},
		{"rules", &p, Options{Rules: engine.Rules(7)}, "basic, area, lines or full"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			err := Render(&buf, tc.p, tc.opt)
			require.ErrorIs(t, err, ErrOptions)
			assert.Contains(t, err.Error(), tc.want)
			assert.Zero(t, buf.Len(), "nothing is written on an error")
		})
	}
	t.Run("writer", func(t *testing.T) {
		err := Render(failingWriter{}, &p, Options{})
		require.ErrorIs(t, err, errDiskFull)
		assert.NotErrorIs(t, err, ErrOptions)
	})
}

func TestWidthSetsTheSize(t *testing.T) {
	p := drawtest.MustGame(t, engine.Square(), 1, 10)
	for _, w := range []int{0, MinWidth, 400, 999, MaxWidth} {
		im := mustImage(t, &p, Options{Width: w})
		want := w
		if w == 0 {
			want = DefaultWidth
		}
		assert.Equal(t, want, im.Bounds().Dx())
		assert.Greater(t, im.Bounds().Dy(), want, "the header and footer add to the board's height")
	}
}

func TestNamesNeverBreakTheImage(t *testing.T) {
	p := drawtest.MustGame(t, engine.Square(), 1, 10)
	for _, names := range [][2]string{
		{"", "   "},
		{strings.Repeat("W", 200), strings.Repeat("末", 40)},
		{"🎲🔥", "\u202eevil\u202c"},
		{"a\x00b\tc\nd", "ｆｕｌｌｗｉｄｔｈ"},
		{"e\u0301\u0301\u0301", "\ufffd\xff\xfe"},
	} {
		var buf bytes.Buffer
		require.NoError(t, Render(&buf, &p, Options{Names: names, Over: true, Outcome: names[0] + " wins"}), "%q", names)
		drawtest.MustDecode(t, buf.Bytes())
	}
}
