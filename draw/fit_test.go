package draw

import (
	"fmt"
	"image"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/draw/drawtest"
	"github.com/kulami/kulami/engine"
)

// TestNoTextIsCut draws every kind of image with the longest names, in
// Latin, Chinese and Hebrew letters, at the least width a phone shows
// and at the default width, and checks every text each laid out: none
// goes out of its room, none is cut (a name may end in an ellipsis), and
// no two touch. The bot's own test does so in every language.
func TestNoTextIsCut(t *testing.T) {
	r := NewRenderer(Config{Fonts: drawtest.Fonts(t)})
	mid := drawtest.MustGame(t, engine.Square(), 7, 40)
	end := drawtest.GameWithLines()
	rec := mustRecord(t, "finished.kgn")
	rec.Moves = rec.Moves[:12] // frames enough to check, resigned at move 12
	black := engine.Black
	for _, names := range [][2]string{drawtest.LatinNames, drawtest.CJKNames, drawtest.HebrewNames} {
		for _, width := range []int{360, DefaultWidth} {
			t.Run(fmt.Sprintf("%s/%d", names[0], width), func(t *testing.T) {
				resigned := names[1] + " resigned — " + names[0] + " wins the game against " + names[1]
				images := map[string]func(*Report) error{
					"board": func(rep *Report) error {
						return r.Render(io.Discard, &mid, Options{Names: names, Rules: engine.Full, Width: width, Note: "clock stopped: vacation", Report: rep})
					},
					"final": func(rep *Report) error {
						return r.Render(io.Discard, &end, Options{Names: names, Rules: engine.Full, Width: width, Report: rep})
					},
					"resigned": func(rep *Report) error {
						return r.Render(io.Discard, &mid, Options{Names: names, Rules: engine.Full, Width: width, Over: true, Outcome: resigned, Winner: &black, Report: rep})
					},
					"replay": func(rep *Report) error {
						a := Animation{Record: rec, Options: Options{Names: names, Width: width, Over: true, Outcome: resigned, Report: rep}}
						return r.Animate(io.Discard, a)
					},
					"chart": func(rep *Report) error {
						c := Chart{Red: chartGame, Marks: []ChartMark{{2, "2. E6"}, {37, "37. D3"}, {38, "38. A3"}}, Width: width, Names: names, Report: rep,
							Texts: ChartTexts{Title: names[0] + " against " + names[1] + ": chance to win", RedWins: names[0] + " wins", BlackWins: names[1] + " wins"}}
						return r.RenderChart(io.Discard, c)
					},
					"standings": func(rep *Report) error {
						s := standingsCase()
						s.Width, s.Report, s.Title = width, rep, strings.Repeat("Autumn Swiss Open ", 6)
						s.Rows[0].Name, s.Rows[1].Name = names[0], names[1]
						return r.RenderStandings(io.Discard, s)
					},
				}
				for kind, draw := range images {
					var rep Report
					require.NoError(t, draw(&rep), kind)
					require.NotEmpty(t, rep.Texts, kind)
					assert.Empty(t, rep.Problems(px(8, float64(width)/DefaultWidth)), kind)
				}
			})
		}
	}
}

// TestProblems: a Report finds a text out of its room, a text cut, a
// name shortened into something else, and two texts that touch.
func TestProblems(t *testing.T) {
	box := func(x0, x1 int) Laid {
		return Laid{What: "t", Text: "a b", Lines: []string{"a b"}, Box: rect(0, 0, 100, 20), Ink: rect(x0, 0, x1, 20)}
	}
	cut := box(0, 10)
	cut.Lines = []string{"a"}
	short := box(0, 10)
	short.Shortened = []Shortened{{Name: "alice", Shown: "bob…"}}
	for _, tc := range []struct {
		name  string
		texts []Laid
		want  string
	}{
		{"whole and in place", []Laid{box(0, 10), box(30, 40)}, ""},
		{"out of its room", []Laid{box(90, 110)}, "out of its room"},
		{"cut", []Laid{cut}, "is cut"},
		{"a name shortened into another", []Laid{short}, "not its start"},
		{"touching", []Laid{box(0, 10), box(12, 40)}, "touch"},
		{"in another frame", []Laid{box(0, 10), func() Laid { l := box(0, 10); l.Frame = 2; return l }()}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := (&Report{Texts: tc.texts}).Problems(8)
			if tc.want == "" {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1)
			assert.Contains(t, got[0], tc.want)
		})
	}
}

func rect(x0, y0, x1, y1 int) image.Rectangle { return image.Rect(x0, y0, x1, y1) }
