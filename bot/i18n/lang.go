package i18n

import (
	"slices"
	"strings"

	"golang.org/x/text/language"
)

// Lang is a language the bot speaks, named by its ISO 639-1 code ("en",
// "fr", …): the name of its message file in locales/ without ".toml".
// The zero Lang is not a language; Lang values from Parse and Langs are.
type Lang string

// The languages of the message files that come with the bot.
const (
	English Lang = "en"
	French  Lang = "fr"
	Spanish Lang = "es"
	German  Lang = "de"
)

// discordLocales are the locales Discord sends in an interaction's locale
// and guild_locale and accepts in name_localizations, as Discord lists
// them (https://discord.com/developers/docs/reference#locales).
var discordLocales = []string{
	"id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu",
	"nl", "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru",
	"uk", "hi", "th", "zh-CN", "ja", "zh-TW", "ko",
}

// Langs returns every language with a message file, English first, then
// by code. The slice is the caller's.
func Langs() []Lang {
	return slices.Clone(catalog.langs)
}

// Parse returns the language of a locale: a Discord locale ("fr", "de",
// "es-ES", "es-419", "en-US", "en-GB", …), a BCP 47 tag or a POSIX locale
// such as "de_DE.UTF-8", matched on its language part, case-insensitively.
// It returns false for a locale of a language without a message file,
// and for an empty or malformed one.
func Parse(locale string) (Lang, bool) {
	code := locale
	if i := strings.IndexAny(code, "-_.@"); i >= 0 {
		code = code[:i]
	}
	l := Lang(strings.ToLower(code))
	if l == "" || !slices.Contains(catalog.langs, l) {
		return "", false
	}
	return l, true
}

// FromLocale returns the language of locale (see Parse), or English for a
// locale the bot does not speak.
func FromLocale(locale string) Lang {
	if l, ok := Parse(locale); ok {
		return l
	}
	return English
}

// Valid reports whether the bot has a message file for l.
func (l Lang) Valid() bool {
	return slices.Contains(catalog.langs, l)
}

// Name returns the language's name in itself ("Français"), from the
// message language.name of its file.
func (l Lang) Name() string {
	return l.T("language.name")
}

// DiscordLocales returns the Discord locales of l, for a command's
// name_localizations: "fr" for French, "es-ES" and "es-419" for Spanish,
// "en-GB" and "en-US" for English. A language Discord has no locale for
// has none.
func (l Lang) DiscordLocales() []string {
	var out []string
	for _, d := range discordLocales {
		if code, _, _ := strings.Cut(d, "-"); Lang(code) == l {
			out = append(out, d)
		}
	}
	return out
}

// FromAcceptLanguage returns the language a browser asks for in its
// Accept-Language header ("fr-CH, fr;q=0.9, en;q=0.8"): the first, by
// quality, that the bot speaks, or English.
func FromAcceptLanguage(header string) Lang {
	tags, _, err := language.ParseAcceptLanguage(header)
	if err != nil {
		return English
	}
	for _, t := range tags { // ParseAcceptLanguage sorts them by quality
		if l, ok := Parse(t.String()); ok {
			return l
		}
	}
	return English
}
