package draw

import (
	"strconv"
	"strings"

	"github.com/kulami/kulami/engine"
)

// Text holds every word an image shows, so that a caller can pass a
// translation; English is the default. Where a text has a {name}, {n},
// {a} or {b} in it, the image puts in a player's name or a number there,
// in whatever order the language needs. A Text is read-only once passed
// to a render.
type Text struct {
	// Colors are the colours' names, indexed by engine.Color, shown for a
	// player whose name is empty or cannot be drawn.
	Colors [2]string
	// ColourBlindRed is red's name on an image drawn with the ColourBlind
	// marbles, whose red marbles are orange: "Orange".
	ColourBlindRed string
	// Rules are the rule sets' names, indexed by engine.Rules.
	Rules [4]string
	// Number writes a number as the language does; nil writes its digits.
	Number func(n int) string
	// One reports whether n takes the singular form (Points.One, …); nil
	// means n == 1, as in English.
	One func(n int) bool

	// The players' boxes in the header: Score puts a player's points {a}
	// and panels held {b} on one line.
	Score          string
	Points, Panels Plural
	// Bonus shows a score's parts under the rule sets with bonuses:
	// "{n}" is the panels' points, then BonusArea and BonusLines follow
	// for the bonuses the rule set counts.
	Bonus, BonusArea, BonusLines string

	// The key under the board.
	KeyLegal, KeyLast, KeyPrev, KeyClosed string
	KeyHeld, KeyArea, KeyLine             string

	// The footer while the game goes on: {n} is the number of the next
	// move (1 for the first marble), {name} the player to move, {a} that
	// player's colour and {b} the rule set; PlayingColor is for a player
	// shown by colour only.
	Playing, PlayingColor string
	// The footer at the end: the result line, with {name} the winner and
	// {a} and {b} the totals, and the reason the game ended on the board
	// when the caller gives none. Won is the result line of a game that
	// ended off the board with Options.Winner, without a score: "{name}
	// wins".
	Wins, Won, DrawScore, GameOver string
	NoHole, AllPlaced              string
	// The columns of the score table.
	ColPanels, ColArea, ColLines, ColTotal string
}

// Plural is a text in its singular and plural forms, each with {n}.
type Plural struct{ One, Other string }

// English is the default Text. Copy it to start a translation; do not
// change it.
var English = Text{
	Colors:         [2]string{engine.Red: "Red", engine.Black: "Black"},
	ColourBlindRed: "Orange",
	Rules:          [4]string{engine.Basic: "basic", engine.Area: "area", engine.Lines: "lines", engine.Full: "full"},
	Score:          "{a} · {b}",
	Points:         Plural{"{n} point", "{n} points"},
	Panels:         Plural{"{n} panel", "{n} panels"},
	Bonus:          "{n}",
	BonusArea:      " + {n} area",
	BonusLines:     " + {n} lines",
	KeyLegal:       "legal hole",
	KeyLast:        "last marble",
	KeyPrev:        "one before",
	KeyClosed:      "closed panel",
	KeyHeld:        "panels held",
	KeyArea:        "largest group",
	KeyLine:        "line of 5+",
	Playing:        "Move {n} · {name} ({a}) to play · {b} scoring",
	PlayingColor:   "Move {n} · {a} to play · {b} scoring",
	Wins:           "{name} wins {a}–{b}",
	Won:            "{name} wins",
	DrawScore:      "Draw, {a}–{b}",
	GameOver:       "Game over",
	NoHole:         "{name} has no legal hole after move {n}",
	AllPlaced:      "all {n} marbles are placed",
	ColPanels:      "Panels",
	ColArea:        "Area",
	ColLines:       "Lines",
	ColTotal:       "Total",
}

// ColorNames returns the colours' names, indexed by engine.Color, as an
// image drawn with marbles m shows them: with ColourBlind, red's is
// ColourBlindRed.
func (t *Text) ColorNames(m Marbles) [2]string {
	c := t.Colors
	if m == ColourBlind && t.ColourBlindRed != "" {
		c[engine.Red] = t.ColourBlindRed
	}
	return c
}

// number writes n as the language does. It is the one place numbers are
// formatted.
func (t *Text) number(n int) string {
	if t.Number != nil {
		return t.Number(n)
	}
	return strconv.Itoa(n)
}

// plural returns p's form for n with n in it.
func (t *Text) plural(p Plural, n int) string {
	one := n == 1
	if t.One != nil {
		one = t.One(n)
	}
	if one {
		return t.fill(p.One, "", n)
	}
	return t.fill(p.Other, "", n)
}

// fill puts name and the number n into s.
func (t *Text) fill(s, name string, n int) string {
	return strings.NewReplacer("{name}", name, "{n}", t.number(n)).Replace(s)
}

// fillAB puts name, the number n and the texts a and b into s.
func (t *Text) fillAB(s, name string, n int, a, b string) string {
	return strings.NewReplacer("{name}", name, "{n}", t.number(n), "{a}", a, "{b}", b).Replace(s)
}
