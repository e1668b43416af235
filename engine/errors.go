package engine

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// RuleError is the reason a move is refused. Its Code is one of the reason
// codes of RULES.md; compare errors with errors.Is against the sentinels
// below, or get the code with errors.As.
type RuleError struct {
	Code    string // reason code, e.g. "not-in-line"
	Message string // the rule in plain words
}

func (e *RuleError) Error() string { return e.Message }

// The reasons a move is illegal, in the order RULES.md checks them.
var (
	// ErrGameOver: the game has ended; no move is possible.
	ErrGameOver = &RuleError{"game-over", "the game is over"}
	// ErrSyntax: the move is not a coordinate A–J followed by 1–10.
	ErrSyntax = &RuleError{"syntax", "a move is a column A–J followed by a row 1–10, like D4"}
	// ErrOffBoard: the cell is a gap or lies outside the layout.
	ErrOffBoard = &RuleError{"off-board", "there is no hole there"}
	// ErrOccupied: the hole already holds a marble.
	ErrOccupied = &RuleError{"occupied", "that hole already holds a marble"}
	// ErrNotInLine: the hole is not in the row or column of the last marble.
	ErrNotInLine = &RuleError{"not-in-line", "the move must be in the row or column of the last marble"}
	// ErrSamePanel: the hole is on the panel of the last marble.
	ErrSamePanel = &RuleError{"same-panel", "the move may not be on the panel of the last marble"}
	// ErrPreviousPanel: the hole is on the panel of the marble before the last.
	ErrPreviousPanel = &RuleError{"previous-panel", "the move may not be on the panel of the marble before the last"}
)

func syntaxError(s string) error {
	return fmt.Errorf("%q: %w", s, ErrSyntax)
}

// ParseError is a malformed layout string or game record. Its Error says
// what is wrong in English; Code and Args let a program say it in another
// language. It wraps ErrLayout or ErrRecord.
type ParseError struct {
	Err  error  // ErrLayout or ErrRecord
	Line int    // the line of the record the problem is on; 0 if none
	Code string // what is wrong; ParseCodes lists the codes
	// Args are the values the problem names, as pairs of a name and a
	// value: an int, a string quoted as the message shows it or, for the
	// name "Why", the *ParseError of a tag's value.
	Args []any
}

// parseMessages is the English of each ParseError code; {{.Name}} stands
// for the value of the argument Name.
var parseMessages = map[string]string{
	"layout-empty":    "the layout string is empty",
	"too-many-rows":   "{{.Rows}} rows, at most {{.Max}} are allowed",
	"bad-cell":        "row {{.Row}} has {{.Char}}; only the letters a-z (panels) and '.' (gaps) are allowed",
	"uneven-rows":     "row {{.Row}} has {{.Cells}} cells but row 1 has {{.Width}}; all rows must have the same width",
	"empty-row":       "row {{.Row}} is empty",
	"too-wide":        "rows are {{.Width}} cells wide, at most {{.Max}} are allowed",
	"not-rectangle":   "the cells of panel {{.Panel}} do not form one rectangle",
	"panel-shape":     "panel {{.Panel}} is {{.Width}}×{{.Height}}; panels are 2×3, 2×2, 1×3 or 1×2 (either way round)",
	"panel-count":     "the panels are {{.Six}} of 6 holes, {{.Four}} of 4 holes, {{.Three}} of 3 holes, {{.Two}} of 2 holes; a board has 4 panels of 6 holes, 5 of 4, 4 of 3 and 4 of 2",
	"not-connected":   "the panels are not joined edge to edge into one group",
	"open-comment":    "the comment that starts with '{' is never closed with '}'",
	"stray-brace":     "'}' without a '{' before it",
	"tag-after-moves": "a tag after the moves; tags come before the first move",
	"tag-twice":       "the tag {{.Tag}} appears twice",
	"layout-tag":      "Layout tag: {{.Why}}",
	"first-tag":       "First tag: colour must be Red or Black, not {{.Value}}",
	"scoring-tag":     "Scoring tag: rule set must be basic, area, lines or full, not {{.Value}}",
	"tag-name":        `a tag must start with a name, as in [Red "alice"]`,
	"tag-value":       `the tag {{.Tag}} needs a value in double quotes, as in [{{.Tag}} "..."]`,
	"open-value":      `the value of the tag {{.Tag}} has no closing '"'`,
	"open-tag":        "the tag {{.Tag}} is not closed with ']'",
	"no-layout":       `there is no Layout tag; a record needs [Layout "..."]`,
}

// ParseCodes returns the codes a *ParseError may have, in sorted order.
func ParseCodes() []string { return slices.Sorted(maps.Keys(parseMessages)) }

func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.Err.Error() + ": ")
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	var pairs []string
	for i := 0; i+1 < len(e.Args); i += 2 {
		pairs = append(pairs, fmt.Sprintf("{{.%v}}", e.Args[i]), fmt.Sprint(e.Args[i+1]))
	}
	b.WriteString(strings.NewReplacer(pairs...).Replace(parseMessages[e.Code]))
	return b.String()
}

func (e *ParseError) Unwrap() error { return e.Err }
