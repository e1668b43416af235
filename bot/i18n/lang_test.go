package i18n_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/bot/i18n"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		locale string
		want   i18n.Lang
		ok     bool
	}{
		{"fr", i18n.French, true},
		{"de", i18n.German, true},
		{"es-ES", i18n.Spanish, true},
		{"es-419", i18n.Spanish, true},
		{"en-US", i18n.English, true},
		{"en-GB", i18n.English, true},
		{"FR", i18n.French, true},
		{"de_DE.UTF-8", i18n.German, true},
		{"it", "", false},
		{"pt-BR", "", false},
		{"zh-CN", "", false},
		{"", "", false},
		{"-fr", "", false},
		{"french", "", false},
	} {
		t.Run(tc.locale, func(t *testing.T) {
			got, ok := i18n.Parse(tc.locale)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
			if tc.ok {
				assert.Equal(t, tc.want, i18n.FromLocale(tc.locale))
			} else {
				assert.Equal(t, i18n.English, i18n.FromLocale(tc.locale), "a locale the bot does not speak falls back to English")
			}
		})
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"fr", "es-419", "en-GB", "de_DE.UTF-8", "", "it", "x-y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, ok := i18n.Parse(s)
		if !ok {
			assert.Empty(t, l)
			assert.Equal(t, i18n.English, i18n.FromLocale(s))
			return
		}
		assert.True(t, l.Valid(), "Parse(%q) = %q, a language without a file", s, l)
		again, ok := i18n.Parse(string(l))
		assert.True(t, ok, "the code %q Parse returned parses", l)
		assert.Equal(t, l, again)
	})
}

func TestLangs(t *testing.T) {
	assert.Equal(t, []i18n.Lang{i18n.English, i18n.German, i18n.Spanish, i18n.French}, i18n.Langs())
	names := map[i18n.Lang]string{}
	for _, l := range i18n.Langs() {
		names[l] = l.Name()
	}
	assert.Equal(t, map[i18n.Lang]string{"en": "English", "fr": "Français", "es": "Español", "de": "Deutsch"}, names)
}

func TestDiscordLocales(t *testing.T) {
	assert.Equal(t, []string{"en-GB", "en-US"}, i18n.English.DiscordLocales())
	assert.Equal(t, []string{"fr"}, i18n.French.DiscordLocales())
	assert.Equal(t, []string{"es-ES", "es-419"}, i18n.Spanish.DiscordLocales())
	assert.Equal(t, []string{"de"}, i18n.German.DiscordLocales())
}

func TestNumbers(t *testing.T) {
	for _, tc := range []struct {
		lang                i18n.Lang
		thousands, dec, pct string
	}{
		{i18n.English, "12,345", "0.5", "62%"},
		{i18n.French, "12\u00a0345", "0,5", "62\u00a0%"},
		{i18n.Spanish, "12.345", "0,5", "62\u00a0%"},
		{i18n.German, "12.345", "0,5", "62\u00a0%"},
	} {
		t.Run(string(tc.lang), func(t *testing.T) {
			assert.Equal(t, tc.thousands, tc.lang.Number(12345))
			assert.Equal(t, "7", tc.lang.Number(7))
			assert.Equal(t, "-3", tc.lang.Number(-3))
			assert.Equal(t, tc.dec, tc.lang.Decimal(0.5, 1))
			assert.Equal(t, tc.pct, tc.lang.Percent(0.6213))
			assert.Contains(t, tc.lang.T("draw.no_hole", "Player", "ann", "Move", 12345), tc.thousands, "T writes an int as Number does")
		})
	}
}

func TestFromAcceptLanguage(t *testing.T) {
	for _, tc := range []struct {
		header string
		want   i18n.Lang
	}{
		{"fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", i18n.French},
		{"ja, de-AT;q=0.8, en;q=0.5", i18n.German},
		{"en;q=0.2, es-419;q=0.9", i18n.Spanish},
		{"ja, zh-CN", i18n.English},
		{"", i18n.English},
		{";;garbage", i18n.English},
	} {
		t.Run(tc.header, func(t *testing.T) {
			assert.Equal(t, tc.want, i18n.FromAcceptLanguage(tc.header))
		})
	}
}
