// Package i18n is what the bot says, in each language it speaks: English,
// French, Spanish and German.
//
// Every text a player reads (messages, buttons, menus, embeds, refusals,
// the board image's words) is a message in locales/<code>.toml, one file
// per language, embedded in the binary. The messages are run by
// github.com/nicksnyder/go-i18n: its plural forms follow CLDR's rules
// (French says "0 point", English "0 points"), one plain TOML file per
// language is what a translator edits, and a message a file lacks falls
// back to English. Numbers are written by golang.org/x/text from CLDR's
// data (1,234 in English, 1 234 in French, 1.234 in German).
//
// A language is a Lang. Discord sends each user's client language with an
// interaction (locale) and the server's (guild_locale); Parse and
// FromLocale map them to a Lang, anything the bot does not speak to
// English:
//
//	lang := i18n.FromLocale(string(i.Locale))     // "es-419" → Spanish
//	msg := lang.T("error.not_your_turn", "Player", name)
//	pts := lang.N("draw.points", 3)               // "3 points"
//	opt := draw.Options{Text: ptr(lang.Draw())}   // the board's words
//
// T and N take a message's placeholders as pairs of name and value; an int
// is written as the language writes numbers. A length of time is passed
// as a Duration (lang.Duration(d): "2 days 3 hours"), which a message
// writes as {{.Left}}, or as {{.Left.Dative}} after a preposition that
// governs the dative: German says „bei 2 Tagen“, not „bei 2 Tage“.
//
// The package's tests check that every file has the same messages with
// the same placeholders, that each plural message has the forms its
// language needs, and that every call of T and N in the module names a
// message that exists with the placeholders it has. They check the
// classes of slips a native speaker's review found: a German duration
// after bei, mit, in… not in the dative (the module's code is
// type-checked to find which placeholders hold a Duration), a noun in the
// singular and the plural at once ("move(s)", „Zug/Zügen“), and a command
// name spelled without the accents the language writes it with.
//
// To add a language, copy locales/en.toml to locales/<code>.toml (the
// ISO 639-1 code Discord's locales begin with, such as "it"), translate
// the values and run go test ./bot/i18n.
//
// Everything in the package is safe for concurrent use.
package i18n
