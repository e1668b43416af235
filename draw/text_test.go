package draw

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/kulami/kulami/draw/drawtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// dejaVu returns the file of the fallback font the tests use for Hebrew,
// Arabic, Georgian, Armenian and more (no Chinese): a copy of DejaVu Sans
// that drawtest ships, so that they never depend on the fonts a machine
// has.
func dejaVu(tb testing.TB) string { return drawtest.Fonts(tb)[0] }

// mustFallback returns the dejaVu font.
func mustFallback(tb testing.TB) []*sfnt.Font {
	tb.Helper()
	fonts, _, err := loadFonts([]string{dejaVu(tb)}, true)
	require.NoError(tb, err)
	return fonts
}

func TestPrintable(t *testing.T) {
	goFonts := []*sfnt.Font{boldFont}
	withDejaVu := append(goFonts, mustFallback(t)...)
	cases := []struct {
		name  string
		fonts []*sfnt.Font
		in    string
		want  string
		ok    bool
	}{
		{"plain", goFonts, "alice", "alice", true},
		{"accents and scripts", goFonts, "Zoë Ωmega Жора", "Zoë Ωmega Жора", true},
		{"letters no font has: left out and said, never boxes", goFonts, "田中 Bob", "Bob", false},
		{"Georgian without a fallback", goFonts, "ნინო", "", false},
		{"Georgian with one", withDejaVu, "ნინო", "ნინო", true},
		{"Hebrew reads right to left", withDejaVu, "Dan דני", "Dan ינד", true},
		{"Chinese with a font that lacks it", withDejaVu, "田中", "", false},
		{"Hebrew without a font for it", goFonts, "Dan דני", "Dan", false},
		{"emoji are left out", goFonts, "🎲 dice 🔥", "dice", true},
		{"joined emoji and selectors", goFonts, "👩\u200d💻x\ufe0f", "x", true},
		{"controls and direction marks", goFonts, "a\x00b\u202ec\u200fd", "abcd", true},
		{"runs of space", goFonts, "  a \t\n b  ", "a b", true},
		{"no-break spaces stay, so that no line breaks there", goFonts, "arrêtée\u202f: vacances, 25\u00a0%", "arrêtée\u00a0: vacances, 25\u00a0%", true},
		{"invalid UTF-8", goFonts, "ok\xff", "ok", true},
		{"nothing left", goFonts, "🎲🔥", "", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := printable(tc.in, tc.fonts)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}

// FuzzPrintable checks that printable returns one line the fonts can draw
// in full, or says it cannot, and that it is idempotent on text with no
// right-to-left letters.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"alice", "田中 🎲", "\u202e\x00 a  b ", "e\u0301", "\xff"} {
		f.Add(s)
	}
	fonts := []*sfnt.Font{boldFont}
	f.Fuzz(func(t *testing.T, s string) {
		p, _ := printable(s, fonts)
		require.True(t, utf8.ValidString(p))
		again, ok := printable(p, fonts)
		assert.True(t, ok)
		assert.Equal(t, p, again, "not idempotent")
		assert.Equal(t, strings.TrimSpace(p), p)
		assert.NotContains(t, p, "  ")
		for _, r := range p {
			assert.False(t, unicode.IsControl(r) || unicode.Is(unicode.Cf, r), "%U is invisible", r)
			if r != ' ' {
				i, err := boldFont.GlyphIndex(nil, r)
				assert.NoError(t, err)
				assert.NotZero(t, i, "the font lacks %U", r)
			}
		}
	})
}

func TestEllipsize(t *testing.T) {
	fs := (&facePool{scale: 1}).get()
	name := fs.get(roleName)
	long := strings.Repeat("Wide ", 20)
	cases := []struct {
		name  string
		in    string
		width int
		cut   bool
	}{
		{"fits", "alice", 300, false},
		{"too wide", long, 300, true},
		{"nothing fits", long, 1, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := ellipsize(name, tc.in, tc.width)
			if !tc.cut {
				assert.Equal(t, tc.in, got)
				return
			}
			assert.True(t, strings.HasSuffix(got, "…"), "%q has no ellipsis", got)
			assert.True(t, strings.HasPrefix(long, strings.TrimSuffix(got, "…")), "%q is not the start of the name", got)
			if tc.width > 1 {
				assert.LessOrEqual(t, font.MeasureString(name, got), fixed.I(tc.width))
				assert.Greater(t, len(got), len("…"), "something of the name is kept")
			}
		})
	}
}

// TestLayText checks how a text is laid out in lines: at spaces, never
// cutting a word, a separator at a line's end moved or left out, and
// names shortened with an ellipsis only where the lines would not hold
// them otherwise.
func TestLayText(t *testing.T) {
	fs := (&facePool{scale: 1}).get()
	f := fs.get(roleReason)
	const room = 776
	long := "Françoise-Éléonore Dupont-Aignan"
	cases := []struct {
		name  string
		in    string
		names []string
		width int
		max   int
		want  []string // the lines, or nil to check only the counts
		lines int
		short int // names shortened
		fits  bool
	}{
		{name: "one clause", in: "alice has no legal hole after move 48", width: room, max: 2,
			want: []string{"alice has no legal hole after move 48"}, fits: true},
		{name: "two lines", in: strings.TrimSpace(strings.Repeat("alice ran out of time ", 4)), width: room, max: 2, lines: 2, fits: true},
		{name: "a dot at a break is left out", in: "Move 12 · alice to play · full scoring", width: 260, max: 3,
			want: []string{"Move 12 · alice to play", "full scoring"}, fits: true},
		{name: "lines break at the dots", in: "Move 12 · alice to play · full scoring", width: 160, max: 3,
			want: []string{"Move 12", "alice to play", "full scoring"}, fits: true},
		{name: "a plus starts the next line", in: "25 + 4 area + 3 lines", width: 200, max: 2,
			want: []string{"25 + 4 area", "+ 3 lines"}, fits: true},
		{name: "a name is never broken", in: long + " resigned", names: []string{long}, width: 460, max: 2,
			want: []string{long, "resigned"}, fits: true},
		{name: "a name wider than a line is shortened", in: long + " resigned", names: []string{long}, width: 300, max: 2,
			lines: 2, short: 1, fits: true},
		{name: "names shortened to keep the lines", in: long + " wins against " + long, names: []string{long}, width: room, max: 1,
			lines: 1, short: 2, fits: true},
		{name: "too long even so: every word kept, and said", in: strings.TrimSpace(strings.Repeat("alice ran out of time ", 9)), width: room, max: 2,
			lines: 3, fits: false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := layText(f, tc.in, tc.names, tc.width, tc.max)
			if tc.want != nil {
				assert.Equal(t, tc.want, p.lines)
			} else {
				assert.Len(t, p.lines, tc.lines)
			}
			assert.Equal(t, tc.fits, p.fits)
			assert.Len(t, p.short, tc.short)
			for _, sh := range p.short {
				assert.True(t, strings.HasSuffix(sh.Shown, "…"), sh.Shown)
				assert.True(t, strings.HasPrefix(sh.Name, strings.TrimSuffix(sh.Shown, "…")), sh.Shown)
			}
			l := Laid{Text: p.text, Lines: p.lines}
			assert.False(t, l.Lost(), "every word is in the lines: %q", p.lines)
			if tc.fits {
				for _, line := range p.lines {
					assert.LessOrEqual(t, textWidth(f, line), tc.width, "%q is too wide", line)
				}
			}
		})
	}
}

// TestTokenize: a name is one token wherever it stands, glued to
// punctuation or not, but not inside a longer word.
func TestTokenize(t *testing.T) {
	toks := tokenize("bob: bobby wins, Jürgen Größenwahn!", []string{"bob", "Jürgen Größenwahn"})
	var got []string
	for _, tk := range toks {
		s := tk.s
		if tk.name {
			s = "[" + s + "]"
		}
		if tk.space {
			s = "_" + s
		}
		got = append(got, s)
	}
	assert.Equal(t, []string{"[bob]", ":", "_bobby", "_wins,", "_[Jürgen Größenwahn]", "!"}, got)
}

func TestTheme(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Theme
	}{{"dark", Dark}, {"Light", Light}, {"DARK", Dark}} {
		got, err := ParseTheme(tc.in)
		require.NoError(t, err)
		assert.Equal(t, tc.want, got)
	}
	for _, in := range []string{"", "grey", "dark ", "darkk"} {
		_, err := ParseTheme(in)
		require.ErrorIs(t, err, ErrOptions)
		assert.Contains(t, err.Error(), "dark or light")
	}
	assert.Equal(t, "Theme(7)", Theme(7).String())
}

// FuzzParseTheme checks that ParseTheme accepts exactly the names of the
// themes, in any letter case, and that String round-trips.
func FuzzParseTheme(f *testing.F) {
	for _, s := range []string{"dark", "LIGHT", "", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		th, err := ParseTheme(s)
		if err != nil {
			assert.False(t, strings.EqualFold(s, "dark") || strings.EqualFold(s, "light"))
			return
		}
		assert.True(t, strings.EqualFold(s, th.String()))
		back, err := ParseTheme(th.String())
		require.NoError(t, err)
		assert.Equal(t, th, back)
	})
}
