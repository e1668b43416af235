package bot

import (
	"errors"
	"strings"

	"github.com/bwmarrin/discordgo"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine/game"
)

// clockSuggestions are the clocks a challenge's move_time suggests after
// the daily ones of moveTimes: with an increment, then the live controls
// of chess sites, each a clock for the whole game (game.WholeGameLimit).
var clockSuggestions = []string{"1d+12h", "2d+1d", "3d+1d", "7d+1d", "1m", "3m+2s", "5m", "10m", "5m+10s", "15m+10s"}

// readMoveTime reads a typed move_time option: a clock as
// game.ParseMoveTime reads it ("3d", "72h", "10m", "5m+10s"), refused in
// the reader's words with what to type.
func readMoveTime(v string) (game.MoveTime, error) {
	m, err := game.ParseMoveTime(strings.ToLower(strings.TrimSpace(v)))
	switch {
	case errors.Is(err, game.ErrMoveTimeRange):
		return m, refuse("move_time.range", "Typed", truncate(v, 20))
	case errors.Is(err, game.ErrIncrementRange):
		return m, refuse("move_time.increment", "Typed", truncate(v, 20))
	case err != nil:
		return m, refuse("move_time.form", "Typed", truncate(v, 20))
	}
	return m, nil
}

// clockWords says a move clock in lang: "3 days per move", "10 minutes
// for the whole game", or "3d+1d (3 days, then 1 day more after each
// move, at most 6 days)".
func clockWords(lang i18n.Lang, m game.MoveTime) string {
	switch {
	case !m.Whole():
		return lang.T("move_time.per_move", "Time", lang.Duration(m.Start))
	case m.Increment == 0:
		return lang.T("move_time.whole_game", "Time", lang.Duration(m.Start))
	}
	return lang.T("move_time.increment_words", "Clock", m.String(), "Start", lang.Duration(m.Start),
		"Increment", lang.Duration(m.Increment), "Cap", lang.Duration(2*m.Start))
}

// moveTimeAutocomplete suggests the move clocks that start with what was
// typed: what was typed itself if it is one, then the plain clocks of
// moveTimes and those of clockSuggestions,
// each named with its words in the reader's language; if there is none,
// what is wrong with what was typed.
func moveTimeAutocomplete(c *interaction, o options) error {
	lang := c.lang()
	typed := strings.ToLower(strings.TrimSpace(o.str("move_time")))
	var out []*discordgo.ApplicationCommandOptionChoice
	add := func(v string, m game.MoveTime) {
		for _, ch := range out {
			if ch.Value == v {
				return
			}
		}
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: truncate(v+" · "+clockWords(lang, m), 100), Value: v})
	}
	m, refused := readMoveTime(typed)
	if refused == nil {
		add(m.String(), m)
	}
	values := make([]string, 0, len(moveTimes)+len(clockSuggestions))
	for _, m := range moveTimes {
		values = append(values, m.value)
	}
	for _, v := range append(values, clockSuggestions...) {
		if m, err := game.ParseMoveTime(v); err == nil && strings.HasPrefix(v, typed) && len(out) < maxOptions {
			add(v, m)
		}
	}
	if len(out) == 0 && typed != "" {
		// Nothing it may become: say what is wrong with it.
		msg, _ := explain(lang, refused)
		out = append(out, &discordgo.ApplicationCommandOptionChoice{Name: truncate(strings.ReplaceAll(msg, "*", ""), 100), Value: typed})
	}
	return c.choices(out)
}
