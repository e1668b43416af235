package engine

import "fmt"

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
