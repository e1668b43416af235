package draw

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/kulami/kulami/draw/drawtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chartGame is red's chance over a game of 56 moves, as an analysis gave
// it: even, then red ahead, then decided for black at move 43.
var chartGame = []float64{
	0.587, 0.512, 0.594, 0.551, 0.555, 0.473, 0.529, 0.447, 0.467, 0.461, 0.573,
	0.523, 0.611, 0.605, 0.707, 0.646, 0.674, 0.64, 0.654, 0.64, 0.67,
	0.585, 0.687, 0.58, 0.611, 0.564, 0.7, 0.695, 0.759, 0.59, 0.701,
	0.585, 0.608, 0.492, 0.716, 0.449, 0.748, 0.176, 0.857, 0.863, 1,
	0, 1, 0, 1, 1, 1, 0, 0, 0, 0,
	0, 0, 0, 0, 0, 0,
}

func chartCases() []struct {
	name string
	c    Chart
} {
	marks := []ChartMark{{37, "37. D3"}, {38, "38. A3"}, {41, "41. E3"}}
	return []struct {
		name string
		c    Chart
	}{
		{"chart", Chart{Red: chartGame, Marks: marks}},
		// The worst case: the last three moves, at the right edge, at
		// the least width (the "53. G54. A4").
		{"chart_crowded", Chart{Red: chartGame[:56], Marks: []ChartMark{{53, "53. G1"}, {54, "54. A1"}, {55, "55. A4"}}, Width: MinWidth,
			Texts: ChartTexts{Title: "Rot (alice): Siegchance", Move: "Zug", RedWins: "Rot gewinnt", BlackWins: "Schwarz gewinnt"}}},
		{"chart_light", Chart{Red: chartGame, Marks: marks, Theme: Light, Width: 480,
			Texts: ChartTexts{Title: "Шансы красных на победу", RedWins: "Красные выигрывают", BlackWins: "Чёрные выигрывают", Move: "Ход"}}},
		{"chart_colourblind_light", Chart{Red: chartGame, Marks: marks, Theme: Light, Marbles: ColourBlind}},
		{"chart_colourblind_360", Chart{Red: chartGame, Marks: marks, Marbles: ColourBlind, Width: 360}},
	}
}

func TestChartGolden(t *testing.T) {
	for _, tc := range chartCases() {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, RenderChart(&buf, tc.c))
			drawtest.AssertGolden(t, tc.name, buf.Bytes())
		})
	}
}

// TestChartLabelsNeverOverlap: however close the marks and however wide
// their words, no two words of marks overlap and all stay in the image.
func TestChartLabelsNeverOverlap(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 31))
	for range 2000 {
		width := float64(MinWidth + rng.IntN(DefaultWidth))
		s := width / DefaultWidth
		n := 2 + rng.IntN(80)
		marks := make([]ChartMark, 1+rng.IntN(5))
		for i := range marks {
			ply := n - rng.IntN(min(n, 4)) // crowded at the right edge
			if rng.IntN(3) == 0 {
				ply = rng.IntN(n + 1)
			}
			marks[i] = ChartMark{Ply: ply, Label: strings.Repeat("W", 3+rng.IntN(9))}
		}
		x := func(p int) float64 { return 78*s + (width-104*s)*float64(p)/float64(n) }
		measure := func(l string) float64 { return float64(len(l)) * 14 * s }
		lo, hi := 78*s, width-8*s // right of the plot's left edge, inside the image
		labels, rows := placeMarkLabels(marks, x, measure, lo, hi, s)
		require.Len(t, labels, len(marks))
		for i, a := range labels {
			assert.Less(t, a.row, rows)
			if a.w <= hi-lo {
				assert.GreaterOrEqual(t, a.x, lo-1e-9, "inside its room: %+v", marks)
				assert.LessOrEqual(t, a.x+a.w, hi+1e-9, "inside its room: %+v", marks)
			}
			for _, b := range labels[i+1:] {
				if a.row == b.row {
					assert.True(t, a.x+a.w <= b.x || b.x+b.w <= a.x, "%+v and %+v overlap: %+v", a, b, marks)
				}
			}
		}
	}
}

func TestChartSize(t *testing.T) {
	for _, w := range []int{0, MinWidth, 1000} {
		im, err := Chart{Red: []float64{0.5, 1}, Width: w}.Image()
		require.NoError(t, err)
		want := w
		if w == 0 {
			want = DefaultWidth
		}
		assert.Equal(t, want, im.Bounds().Dx())
		assert.Equal(t, want/2, im.Bounds().Dy())
	}
}

func TestChartRefusesWhatItCannotDraw(t *testing.T) {
	tests := []struct {
		name string
		c    Chart
	}{
		{"no moves", Chart{Red: []float64{0.5}}},
		{"chance above 1", Chart{Red: []float64{0.5, 1.5}}},
		{"chance not a number", Chart{Red: []float64{0.5, math.NaN()}}},
		{"mark off the chart", Chart{Red: []float64{0.5, 0.4}, Marks: []ChartMark{{Ply: 2}}}},
		{"too narrow", Chart{Red: []float64{0.5, 0.4}, Width: 10}},
		{"unknown theme", Chart{Red: []float64{0.5, 0.4}, Theme: 7}},
		{"unknown marbles", Chart{Red: []float64{0.5, 0.4}, Marbles: 7}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			assert.ErrorIs(t, RenderChart(&buf, tt.c), ErrOptions)
			assert.Zero(t, buf.Len())
		})
	}
}

func TestChartTextsDefaults(t *testing.T) {
	c := Chart{Texts: ChartTexts{Move: "Zug"}}
	got := c.texts()
	want := DefaultChartTexts()
	want.Move = "Zug"
	assert.Equal(t, "25%", got.Percent(0.25), "percentages as English writes them")
	got.Percent = nil
	assert.Equal(t, want, got)
}
