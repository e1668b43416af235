package main

import (
	"fmt"
	"strings"

	"github.com/kulami/kulami/bot/i18n"
)

// The language kulami speaks is the one --lang names, anywhere on the
// command line before "--"; else the one of the locale of the
// environment, as POSIX looks it up for messages: LC_ALL, then
// LC_MESSAGES, then LANG, the first one set and not empty. A locale of a
// language without a message file, "C", "POSIX" and no locale at all mean
// English.

// localeEnv are the environment variables of the locale of messages, the
// first set one wins.
var localeEnv = []string{"LC_ALL", "LC_MESSAGES", "LANG"}

// envLang returns the language of the environment's locale of messages:
// the language part of a POSIX locale such as "fr_FR.UTF-8", "de_DE@euro"
// or "es", if kulami speaks it; English for "C", "POSIX", "C.UTF-8" and
// any other locale.
func envLang(lookupEnv func(string) (string, bool)) i18n.Lang {
	for _, name := range localeEnv {
		if v, _ := lookupEnv(name); v != "" {
			return i18n.FromLocale(v)
		}
	}
	return i18n.English
}

// langFlag takes --lang out of args and returns the other arguments and
// the language it names, or ok false if there is no --lang. The flag is
// -lang or --lang, followed by its value or with it after "=", anywhere
// before "--". A value kulami does not speak, or none, is an error that
// lists the languages.
func langFlag(args []string) (rest []string, lang i18n.Lang, ok bool, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(rest, args[i:]...), lang, ok, nil
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "lang" {
			rest = append(rest, a)
			continue
		}
		if !hasValue {
			if i+1 == len(args) {
				return nil, "", false, errLangMissing
			}
			i++
			value = args[i]
		}
		l, known := i18n.Parse(value)
		if !known {
			return nil, "", false, &langError{value}
		}
		lang, ok = l, true
	}
	return rest, lang, ok, nil
}

// errLangMissing is a --lang without its value.
var errLangMissing = &langError{}

// langError is a --lang with a value kulami does not speak (or none).
type langError struct{ value string }

func (e *langError) Error() string { return fmt.Sprintf("unknown language %q", e.value) }

// message says what is wrong, in l, with the languages to choose from.
func (e *langError) message(l i18n.Lang) string {
	var langs []string
	for _, x := range i18n.Langs() {
		langs = append(langs, string(x)+" ("+x.Name()+")")
	}
	list := strings.Join(langs, ", ")
	if e.value == "" {
		return l.T("cli.lang_missing", "Langs", list)
	}
	return l.T("cli.lang_unknown", "Value", fmt.Sprintf("%q", e.value), "Langs", list)
}
