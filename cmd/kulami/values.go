package main

import (
	"fmt"
	"strings"

	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
)

// The values of flags that name a rule set, a level or a theme: the names stay
// English, as in records and the bot's commands, and a wrong one gets a
// message in the user's language that lists the right ones.

// parseRules reads the rule set value of flag.
func (e *env) parseRules(flag, value string) (engine.Rules, error) {
	r, err := engine.ParseRules(value)
	if err != nil {
		return 0, &usageError{e.lang.T("cli.bad_rules", "Flag", flag, "Value", fmt.Sprintf("%q", value))}
	}
	return r, nil
}

// parseLevel reads the level of the computer opponent value of flag.
func (e *env) parseLevel(flag, value string) (ai.Level, error) {
	l, err := ai.ParseLevel(value)
	if err != nil {
		return 0, &usageError{e.lang.T("cli.bad_level", "Flag", flag, "Value", fmt.Sprintf("%q", value))}
	}
	return l, nil
}

// levelName is how level l reads in e's language ("medium").
func (e *env) levelName(l ai.Level) string {
	return e.lang.T("cli.level." + strings.ToLower(l.String()))
}

// parseMarbles reads the value of --marbles: the set of marbles,
// standard or colour-blind.
func (e *env) parseMarbles(value string) (draw.Marbles, error) {
	m, err := draw.ParseMarbles(value)
	if err != nil {
		return 0, &usageError{e.lang.T("cli.bad_marbles", "Value", fmt.Sprintf("%q", value))}
	}
	return m, nil
}

// parseTheme reads the value of --theme: the Discord theme, dark or light.
func (e *env) parseTheme(value string) (draw.Theme, error) {
	t, err := draw.ParseTheme(value)
	if err != nil {
		return 0, &usageError{e.lang.T("cli.bad_theme", "Value", fmt.Sprintf("%q", value))}
	}
	return t, nil
}
