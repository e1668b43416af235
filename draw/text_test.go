package draw

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/font"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// dejaVu is the fallback font the tests use (Hebrew, Arabic, Georgian,
// Armenian and more, no Chinese): a copy of DejaVu Sans shipped with them
// (see testdata/fonts/LICENSE), so that they never depend on the fonts a
// machine has.
const dejaVu = "testdata/fonts/DejaVuSans.ttf"

// mustFallback returns the dejaVu font.
func mustFallback(tb testing.TB) []*sfnt.Font {
	tb.Helper()
	fonts, _, err := loadFonts([]string{dejaVu}, true)
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

func TestWrapFit(t *testing.T) {
	fs := (&facePool{scale: 1}).get()
	cases := []struct {
		name   string
		in     string
		lines  int
		shrunk bool
		cut    bool
	}{
		{"one clause", "alice has no legal hole after move 48", 1, false, false},
		{"two lines", strings.Repeat("alice ran out of time ", 4), 2, false, false},
		// The reason's least size is its size (11 px on a phone): a
		// reason too long for two lines is cut, not shrunk.
		{"cut", strings.Repeat("alice ran out of time ", 7), 2, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, lines := fs.wrapFit(roleReason, strings.TrimSpace(tc.in), 776, maxReasonLines)
			require.Len(t, lines, tc.lines)
			for _, l := range lines {
				assert.LessOrEqual(t, width(f, l), 776, "%q is too wide", l)
			}
			assert.Equal(t, tc.shrunk, f != fs.get(roleReason), "shrunk")
			assert.Equal(t, tc.cut, strings.HasSuffix(lines[len(lines)-1], "…"), "cut short")
		})
	}
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
