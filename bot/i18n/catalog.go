package i18n

import (
	"cmp"
	"embed"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"
)

//go:embed locales/*.toml
var files embed.FS

// catalog holds the messages of every language; it is read-only after
// package initialisation, so safe for concurrent use.
var catalog = mustLoad()

type catalogT struct {
	bundle *goi18n.Bundle
	langs  []Lang                     // English first, then by code
	loc    map[Lang]*goi18n.Localizer // each language, falling back to English
	msgs   map[Lang]map[string]*goi18n.Message
}

// mustLoad reads the embedded message files. A malformed file is a bug
// of the build, caught by the package's tests, so it panics.
func mustLoad() *catalogT {
	c, err := load()
	if err != nil {
		panic(err)
	}
	return c
}

func load() (*catalogT, error) {
	c := &catalogT{
		bundle: goi18n.NewBundle(language.English),
		loc:    map[Lang]*goi18n.Localizer{},
		msgs:   map[Lang]map[string]*goi18n.Message{},
	}
	c.bundle.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	names, err := files.ReadDir("locales")
	if err != nil {
		return nil, err
	}
	for _, f := range names {
		name := path.Join("locales", f.Name())
		buf, err := files.ReadFile(name)
		if err != nil {
			return nil, err
		}
		mf, err := goi18n.ParseMessageFileBytes(buf, name, map[string]goi18n.UnmarshalFunc{"toml": toml.Unmarshal})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		l := Lang(strings.TrimSuffix(f.Name(), ".toml"))
		c.msgs[l] = map[string]*goi18n.Message{}
		for _, m := range mf.Messages {
			// CLDR gives French and Spanish a "many" form for millions
			// and English, French, Spanish and German no "zero" or
			// "few": a form the file leaves out is its "other".
			for _, form := range []*string{&m.Zero, &m.Two, &m.Few, &m.Many} {
				if *form == "" && m.One != "" {
					*form = m.Other
				}
			}
			c.msgs[l][m.ID] = m
		}
		if err := c.bundle.AddMessages(mf.Tag, mf.Messages...); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		c.langs = append(c.langs, l)
	}
	slices.SortFunc(c.langs, func(a, b Lang) int {
		switch {
		case a == b:
			return 0
		case a == English:
			return -1
		case b == English:
			return 1
		}
		return cmp.Compare(a, b)
	})
	for _, l := range c.langs {
		c.loc[l] = goi18n.NewLocalizer(c.bundle, string(l), string(English))
	}
	return c, nil
}

// Has reports whether the English file has the message id.
func Has(id string) bool {
	_, ok := catalog.msgs[English][id]
	return ok
}

// T returns the message id in l, with its placeholders ({{.Name}}) filled
// from args, given as pairs of a placeholder's name and its value:
//
//	lang.T("refuse.not_your_turn", "Player", name)
//
// An int value is written as l writes numbers (see Number), a Duration
// in the form the message asks for ({{.Left}} or {{.Left.Dative}}); any
// other as fmt.Sprint writes it. A message l's file lacks is taken from English;
// an id no file has returns the id itself, so that a slip shows instead
// of an empty message (the package's tests check every call's id and
// placeholders).
func (l Lang) T(id string, args ...any) string {
	return l.render(id, nil, l.data(args))
}

// N returns the plural message id in the form l uses for count (CLDR's
// plural rules: French says "0 point", English "0 points"), with
// {{.Count}} the count written as l writes numbers, and the other
// placeholders filled from args as in T.
func (l Lang) N(id string, count int, args ...any) string {
	data := l.data(args)
	data["Count"] = l.Number(count)
	return l.render(id, count, data)
}

// data turns name, value pairs into a template's data.
func (l Lang) data(args []any) map[string]any {
	if len(args)%2 != 0 {
		panic(fmt.Sprintf("i18n: odd number of arguments %v", args))
	}
	data := make(map[string]any, len(args)/2+1)
	for i := 0; i < len(args); i += 2 {
		name, ok := args[i].(string)
		if !ok {
			panic(fmt.Sprintf("i18n: placeholder name %v is not a string", args[i]))
		}
		switch v := args[i+1].(type) {
		case int:
			data[name] = l.Number(v)
		case int64:
			data[name] = l.Number(int(v))
		case Duration:
			data[name] = v // the template picks its form
		default:
			data[name] = fmt.Sprint(v)
		}
	}
	return data
}

// render executes the message id of l with data and, for a plural
// message, the count.
func (l Lang) render(id string, count any, data map[string]any) string {
	loc, ok := catalog.loc[l]
	if !ok {
		loc = catalog.loc[English]
	}
	s, err := loc.Localize(&goi18n.LocalizeConfig{MessageID: id, PluralCount: count, TemplateData: data})
	if s == "" && err != nil {
		return id
	}
	return s
}
