package draw

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

func TestPrintable(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "alice", "alice"},
		{"accents and scripts", "Zoë Ωmega Жора", "Zoë Ωmega Жора"},
		{"letters the font lacks become boxes", "田中 Bob", "□□ Bob"},
		{"emoji are left out", "🎲 dice 🔥", "dice"},
		{"joined emoji and selectors", "👩\u200d💻x\ufe0f", "x"},
		{"controls and direction marks", "a\x00b\u202ec\u200fd", "abcd"},
		{"runs of space", "  a \t\n b  ", "a b"},
		{"invalid UTF-8", "ok\xff", "ok"},
		{"nothing left", "🎲🔥", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, printable(tc.in))
		})
	}
}

// FuzzPrintable checks that printable returns one line the fonts can draw
// in full, and that it is idempotent.
func FuzzPrintable(f *testing.F) {
	for _, s := range []string{"alice", "田中 🎲", "\u202e\x00 a  b ", "e\u0301", "\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p := printable(s)
		require.True(t, utf8.ValidString(p))
		assert.Equal(t, p, printable(p), "not idempotent")
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

func TestFit(t *testing.T) {
	fs := newFaces(1)
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
			got := fit(fs.name, tc.in, tc.width)
			if !tc.cut {
				assert.Equal(t, tc.in, got)
				return
			}
			assert.True(t, strings.HasSuffix(got, "…"), "%q has no ellipsis", got)
			assert.True(t, strings.HasPrefix(long, strings.TrimSuffix(got, "…")), "%q is not the start of the name", got)
			if tc.width > 1 {
				assert.LessOrEqual(t, font.MeasureString(fs.name, got), fixed.I(tc.width))
				assert.Greater(t, len(got), len("…"), "something of the name is kept")
			}
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
