package draw

import (
	"bytes"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/kulami/kulami/draw/drawtest"
	"github.com/kulami/kulami/draw/internal/sample"
	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newTestState returns what renderer r would write about p with opt.
func newTestState(tb testing.TB, r *Renderer, p *engine.Position, opt Options) *state {
	tb.Helper()
	require.NoError(tb, opt.check(p))
	w, _ := opt.width()
	g := newGeometry(p.Layout(), w, opt.Rules)
	return r.newState(p, &opt, &g, r.faces(g.scale).get())
}

func TestReasonTheGameEnded(t *testing.T) {
	r := newTestRenderer()
	mid := drawtest.MustGame(t, engine.Square(), 7, 40)
	// The first random games on the square that end with all marbles
	// placed and with a player who has no legal hole.
	var full, stuck engine.Position
	for seed := uint64(1); full.Layout() == nil || stuck.Layout() == nil; seed++ {
		p := sample.Game(engine.Square(), seed, engine.MaxPly)
		if p.Ply() == engine.MaxPly {
			full = p
		} else {
			stuck = p
		}
	}
	names := [2]string{"alice", "bob"}
	cases := []struct {
		name string
		p    engine.Position
		opt  Options
		want []string
	}{
		{"under way: none", mid, Options{Names: names}, nil},
		{"given", mid, Options{Names: names, Over: true, Reason: "alice resigned"}, []string{"alice resigned"}},
		{"no legal hole", stuck, Options{Names: names}, []string{names[stuck.ToMove()] + " has no legal hole after move " + itoa(stuck.Ply())}},
		{"all placed", full, Options{Names: names}, []string{"all 56 marbles are placed"}},
		{"a name no font has is the colour there too", mid, Options{Names: [2]string{"alice", "田中"}, Over: true, Reason: "田中 ran out of time"}, []string{"Black ran out of time"}},
		{"long: two lines", mid, Options{Over: true, Reason: strings.Repeat("draw agreed after a long talk ", 3)}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := newTestState(t, r, &tc.p, tc.opt)
			if tc.want == nil && tc.opt.Reason != "" {
				assert.Len(t, footerBlock(st, "reason"), 2)
				return
			}
			assert.Equal(t, tc.want, footerBlock(st, "reason"))
		})
	}
}

// footerBlock returns the lines of st's footer text what, or nil.
func footerBlock(st *state, what string) []string {
	for _, b := range st.footer {
		if b.what == what {
			return b.p.lines
		}
	}
	return nil
}

func itoa(n int) string { return English.number(n) }

func TestKeySaysWhatTheBoardShows(t *testing.T) {
	r := newTestRenderer()
	start := engine.NewPosition(engine.Square(), engine.Red)
	mid := drawtest.MustGame(t, engine.Square(), 7, 40)
	end := drawtest.GameWithLines()
	cases := []struct {
		name string
		p    engine.Position
		opt  Options
		want []string
	}{
		{"first move", start, Options{}, []string{"legal hole"}},
		{"under way", mid, Options{}, []string{"legal hole", "last marble", "one before", "closed panel"}},
		{"legal holes hidden", mid, Options{HideLegal: true}, []string{"last marble", "one before", "closed panel"}},
		{"ended, basic", end, Options{}, []string{"panels held", "Red", "Black", "last marble", "one before"}},
		{"ended, area", end, Options{Rules: engine.Area}, []string{"panels held", "Red", "Black", "largest group", "last marble", "one before"}},
		{"ended, full", end, Options{Rules: engine.Full}, []string{"panels held", "Red", "Black", "largest group", "line of 5+", "last marble", "one before"}},
		{"resigned, no line on the board", mid, Options{Rules: engine.Full, Over: true}, []string{"panels held", "Red", "Black", "largest group", "last marble", "one before"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := newTestState(t, r, &tc.p, tc.opt)
			var got []string
			for _, it := range st.keyItems(&icons{}) {
				got = append(got, it.label)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestTextIsTranslatable(t *testing.T) {
	fr := English
	fr.Points = Plural{"{n} point", "{n} points"}
	fr.One = func(n int) bool { return n == 0 || n == 1 }
	fr.Number = func(n int) string { return "n" + English.number(n) }
	fr.Playing = "Coup {n} · à {name} ({a}) · règles {b}"
	fr.Colors = [2]string{"Rouge", "Noir"}
	cases := []struct {
		t    *Text
		n    int
		want string
	}{
		{&English, 0, "0 points"},
		{&English, 1, "1 point"},
		{&English, 2, "2 points"},
		{&fr, 0, "n0 point"},
		{&fr, 2, "n2 points"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, tc.t.plural(tc.t.Points, tc.n))
	}
	assert.Equal(t, "1 panel", English.plural(English.Panels, 1))

	p := drawtest.MustGame(t, engine.Square(), 7, 40)
	st := newTestState(t, newTestRenderer(), &p, Options{Text: &fr})
	assert.Equal(t, [2]string{"Rouge", "Noir"}, st.names, "an empty name is the colour, in the language")
	var en, other bytes.Buffer
	require.NoError(t, newTestRenderer().Render(&en, &p, Options{}))
	require.NoError(t, newTestRenderer().Render(&other, &p, Options{Text: &fr}))
	assert.NotEqual(t, en.Bytes(), other.Bytes(), "the text given is drawn")
}

// TestNamesInOtherScripts checks both ways a name the Go fonts lack is
// shown: in a fallback font if one has its letters, else as its colour;
// never as boxes.
func TestNamesInOtherScripts(t *testing.T) {
	p := drawtest.MustGame(t, engine.Square(), 7, 40)
	render := func(r *Renderer, names [2]string) []byte {
		var buf bytes.Buffer
		require.NoError(t, r.Render(&buf, &p, Options{Names: names}))
		return buf.Bytes()
	}
	georgian := [2]string{"ნინო", "bob"}
	asColour := render(newTestRenderer(), [2]string{"", "bob"})

	none := newTestRenderer()
	assert.Contains(t, none.Fonts(), "no fallback font")
	assert.Equal(t, asColour, render(none, georgian), "without a font for it, the name is shown as its colour")
	assert.Equal(t, "Red", newTestState(t, none, &p, Options{Names: georgian}).names[engine.Red])

	font := dejaVu(t)
	withFont := NewRenderer(Config{Fonts: []string{font}})
	assert.Contains(t, withFont.Fonts(), "fallback fonts for names: "+font)
	assert.NotContains(t, withFont.Fonts(), "not found")
	assert.Equal(t, "ნინო", newTestState(t, withFont, &p, Options{Names: georgian}).names[engine.Red])
	assert.NotEqual(t, asColour, render(withFont, georgian), "the name is drawn in the fallback font")

	missing := NewRenderer(Config{Fonts: []string{"/nonexistent/font.ttf"}})
	assert.Contains(t, missing.Fonts(), "/nonexistent/font.ttf", "a configured font that is missing is reported")
}

// TestEnglishIsComplete checks that English has every text: a field left
// empty would draw nothing.
func TestEnglishIsComplete(t *testing.T) {
	var check func(path string, v reflect.Value)
	check = func(path string, v reflect.Value) {
		switch v.Kind() {
		case reflect.String:
			assert.NotEmpty(t, v.String(), "English.%s is empty", path)
		case reflect.Struct:
			for i := range v.NumField() {
				check(path+"."+v.Type().Field(i).Name, v.Field(i))
			}
		case reflect.Array:
			for i := range v.Len() {
				check(path+"["+strconv.Itoa(i)+"]", v.Index(i))
			}
		}
	}
	check("", reflect.ValueOf(English))
}

// TestResultLine checks the line under the score table: a game over
// before its position is (a resignation, an agreement) with no outcome
// given says only that it is over.
func TestResultLine(t *testing.T) {
	r := newTestRenderer()
	mid := drawtest.MustGame(t, engine.Square(), 7, 40)
	names := [2]string{"alice", "bob"}
	assert.Equal(t, "Game over", newTestState(t, r, &mid, Options{Names: names, Over: true}).result())
	assert.Equal(t, "alice resigned", newTestState(t, r, &mid, Options{Names: names, Over: true, Outcome: "alice resigned"}).result())
	black := engine.Black
	st := newTestState(t, r, &mid, Options{Names: names, Over: true, Reason: "alice resigned", Winner: &black})
	assert.Equal(t, "bob wins", st.result(), "the winner named, without a score the board did not decide")
	assert.Equal(t, engine.Black, st.highlight(), "the winner's card outlined")
	assert.Equal(t, noCard, newTestState(t, r, &mid, Options{Names: names, Over: true}).highlight(), "nobody's without a winner")
}
