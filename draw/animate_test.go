package draw

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

// mustRecord reads the record testdata/name.
func mustRecord(tb testing.TB, name string) *engine.Record {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	require.NoError(tb, err)
	rec, err := engine.ParseRecord(string(b))
	require.NoError(tb, err)
	return rec
}

// mustAnimate encodes a and decodes the GIF again.
func mustAnimate(tb testing.TB, a Animation) (*gif.GIF, int) {
	tb.Helper()
	var buf bytes.Buffer
	require.NoError(tb, NewRenderer(Config{}).Animate(&buf, a))
	size := buf.Len()
	g, err := gif.DecodeAll(&buf)
	require.NoError(tb, err)
	return g, size
}

func TestAnimateWholeGame(t *testing.T) {
	rec := mustRecord(t, "finished.kgn")
	require.Len(t, rec.Moves, 56)
	g, size := mustAnimate(t, Animation{Record: rec, Options: Options{Names: [2]string{"alice", "bob"}}})
	require.Len(t, g.Image, 56, "one frame per move")
	for i, d := range g.Delay[:55] {
		assert.Equal(t, 80, d, "frame %d shows for DefaultMoveDelay", i)
	}
	assert.Equal(t, 500, g.Delay[55], "the final position shows for DefaultFinalDelay")
	assert.Equal(t, 0, g.LoopCount, "it loops forever")
	assert.Equal(t, DefaultAnimationWidth, g.Config.Width)
	assert.Less(t, size, 1<<20, "a whole game fits in a megabyte")
	t.Logf("56 moves at %d pixels: %d bytes", DefaultAnimationWidth, size)
}

func TestAnimateFramesAreTheBoards(t *testing.T) {
	rec := mustRecord(t, "finished.kgn")
	rec.Moves = rec.Moves[:8]
	opt := Options{Names: [2]string{"alice", "bob"}, Theme: Light, Width: 400, Over: true, Outcome: "bob wins — alice resigned"}
	g, _ := mustAnimate(t, Animation{Record: rec, Options: opt, MoveDelay: 300 * time.Millisecond, FinalDelay: time.Second})
	require.Len(t, g.Image, 8)
	assert.Equal(t, []int{30, 30, 30, 30, 30, 30, 30, 100}, g.Delay)

	// Laying each frame over the ones before gives the board after each
	// move, as Image draws it; only the last is shown as ended.
	canvas := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
	r := NewRenderer(Config{})
	var positions []engine.Position
	end := engine.NewPosition(rec.Layout, rec.First)
	for _, m := range rec.Moves {
		require.NoError(t, end.PlayMove(m))
		positions = append(positions, end)
	}
	lastOpt := opt
	lastOpt.Rules = rec.Rules
	playing := lastOpt
	playing.Over, playing.Outcome = false, ""
	layout := r.frameLayout(positions, playing, lastOpt)
	assert.Equal(t, r.frameOf(&end, lastOpt).footerLines, layout.footerLines, "the last frame's footer is the tallest")
	for i, f := range g.Image {
		draw.Draw(canvas, f.Rect, f, f.Rect.Min, draw.Over)
		o := lastOpt
		if i < 7 { // as tall as the last, with the table as it stands
			o = playing
		}
		o.frame = &layout
		want, err := r.image(&positions[i], o, nil, nil)
		require.NoError(t, err)
		off := 0
		for y := want.Rect.Min.Y; y < want.Rect.Max.Y; y++ {
			for x := want.Rect.Min.X; x < want.Rect.Max.X; x++ {
				if color.RGBAModel.Convert(want.At(x, y)) != canvas.At(x, y) {
					off++
				}
			}
		}
		assert.Zero(t, off, "pixels of frame %d that differ from the board", i)
		assert.Equal(t, g.Config.Height, want.Rect.Dy(), "frame %d is as tall as the canvas: no empty band", i)
		if i > 0 {
			assert.LessOrEqual(t, f.Rect.Dx()*f.Rect.Dy(), want.Rect.Dx()*want.Rect.Dy(), "frame %d holds only what changed", i)
		}
	}
}

func TestAnimateRefusesWhatItCannotDraw(t *testing.T) {
	rec := mustRecord(t, "finished.kgn")
	illegal := *rec
	illegal.Moves = []string{"D4", "D4"}
	tests := []struct {
		name string
		a    Animation
		want error
	}{
		{"no record", Animation{}, ErrOptions},
		{"no moves", Animation{Record: engine.NewRecord(engine.Square(), engine.Red, engine.Basic)}, ErrOptions},
		{"bad width", Animation{Record: rec, Options: Options{Width: 5}}, ErrOptions},
		{"illegal move", Animation{Record: &illegal}, engine.ErrOccupied},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			assert.ErrorIs(t, NewRenderer(Config{}).Animate(&buf, tt.a), tt.want)
			assert.Zero(t, buf.Len())
		})
	}
}

func TestDeltaOfAnUnchangedFrame(t *testing.T) {
	a := image.NewPaletted(image.Rect(0, 0, 4, 3), []color.Color{color.Black, color.White, color.RGBA{}})
	d := delta(a, a, nil)
	assert.Equal(t, image.Rect(0, 0, 1, 1), d.Rect)
	assert.Equal(t, []uint8{2}, d.Pix, "transparent")
}

// BenchmarkAnimate encodes the GIF of a 56-move game at the default width
// and reports its size.
func BenchmarkAnimate(b *testing.B) {
	rec := mustRecord(b, "finished.kgn")
	r := NewRenderer(Config{})
	var buf bytes.Buffer
	for b.Loop() {
		buf.Reset()
		if err := r.Animate(&buf, Animation{Record: rec, Options: Options{Names: [2]string{"alice", "bob"}}}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(buf.Len()), "gif-bytes")
}

// framesAtWrite records, at each write, the last frame drawn then: the
// highest frame of the texts rep laid out.
type framesAtWrite struct {
	rep *Report
	at  []int
	buf bytes.Buffer
}

func (w *framesAtWrite) Write(b []byte) (int, error) {
	last := 0
	for _, l := range w.rep.Texts {
		last = max(last, l.Frame)
	}
	w.at = append(w.at, last)
	return w.buf.Write(b)
}

// TestAnimateWritesEachFrameOnceDrawn checks that Animate streams: each
// frame reaches the writer before the next is drawn, so that a replay holds
// a frame's pixels or two, not a whole game's.
func TestAnimateWritesEachFrameOnceDrawn(t *testing.T) {
	rec := mustRecord(t, "finished.kgn")
	rec.Moves = rec.Moves[:8]
	w := &framesAtWrite{rep: &Report{}}
	require.NoError(t, NewRenderer(Config{}).Animate(w, Animation{Record: rec, Options: Options{Names: [2]string{"alice", "bob"}, Report: w.rep}}))
	require.NotEmpty(t, w.at)
	assert.Equal(t, 1, w.at[0], "the GIF starts once the first frame is drawn")
	var written []int
	for _, f := range w.at {
		if len(written) == 0 || written[len(written)-1] != f {
			written = append(written, f)
		}
	}
	assert.Equal(t, []int{1, 2, 3, 4, 5, 6, 7, 8}, written, "a write after each frame, in order")
	g, err := gif.DecodeAll(&w.buf)
	require.NoError(t, err)
	assert.Len(t, g.Image, 8)
	assert.Equal(t, 0, g.LoopCount, "it loops forever")
}

func TestAnimateOfOneMoveIsOneFrame(t *testing.T) {
	rec := mustRecord(t, "finished.kgn")
	rec.Moves = rec.Moves[:1]
	g, _ := mustAnimate(t, Animation{Record: rec})
	require.Len(t, g.Image, 1)
	assert.Equal(t, []int{500}, g.Delay, "the only frame is the final one")
	assert.Equal(t, -1, g.LoopCount, "a single frame has no loop extension")
}
