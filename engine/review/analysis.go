package review

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/kulami/kulami/engine"
)

// Version is the version of the Analysis encoding. A stored analysis of
// another version is to be computed again, not read.
const Version = 1

// MinCost is the least cost that makes a move a mistake: 0.1, ten points
// of win chance. Below it the difference between two moves is within the
// noise of the search at the default budget (see DefaultPlayouts).
const MinCost = 0.1

// Analysis is the computer's verdict on every move of a game. It is a
// plain value: JSON encodes it stably (the same analysis gives the same
// bytes), so it can be stored with the finished game and read back.
type Analysis struct {
	// Version is the encoding's version: Version when made by Analyse.
	Version int `json:"version"`
	// Playouts is the most random games searched per position; Seed makes
	// the searches reproducible.
	Playouts int    `json:"playouts"`
	Seed     uint64 `json:"seed"`
	// Timed reports that the searches had a time budget, so that another
	// run may give another analysis.
	Timed bool `json:"timed,omitempty"`
	// Moves are the game's moves, in order.
	Moves []Move `json:"moves"`
}

// Move is the analysis of one move. Chances are of the player who made
// the move, from 0 to 1, a draw counting half.
type Move struct {
	Ply   int          // 1 for the game's first move
	Color engine.Color // who made it
	Cell  engine.Cell  // where it was played
	// Best is the move the engine chose in the position before, and
	// Before that position's value for the player to move: the chance
	// with Best played. BeforeProven reports that an exact search of the
	// game to its end decided it (Before is then 1, ½ or 0).
	Best         engine.Cell
	Before       float64
	BeforeProven bool
	// After is the chance after the move played: the next position's
	// value from the other side, or the result when the game ended.
	// AfterProven reports that it is exact.
	After       float64
	AfterProven bool
	// Cost is how much the move lost against Best: Before less After, 0
	// when the move is Best or did no worse. When both sides are proven
	// it is exact: 1 for a win thrown into a loss, ½ for a win into a
	// draw or a draw into a loss.
	Cost float64
}

// moveJSON is the encoding of Move, with the colour as a word.
type moveJSON struct {
	Ply          int         `json:"ply"`
	Color        string      `json:"color"`
	Cell         engine.Cell `json:"cell"`
	Best         engine.Cell `json:"best"`
	Before       float64     `json:"before"`
	BeforeProven bool        `json:"before_proven,omitempty"`
	After        float64     `json:"after"`
	AfterProven  bool        `json:"after_proven,omitempty"`
	Cost         float64     `json:"cost"`
}

// MarshalJSON writes m with its colour as "red" or "black".
func (m Move) MarshalJSON() ([]byte, error) {
	return json.Marshal(moveJSON{m.Ply, m.Color.String(), m.Cell, m.Best, m.Before, m.BeforeProven, m.After, m.AfterProven, m.Cost})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (m *Move) UnmarshalJSON(b []byte) error {
	var v moveJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	c, err := engine.ParseColor(v.Color)
	if err != nil {
		return fmt.Errorf("review: move %d: %w", v.Ply, err)
	}
	*m = Move{v.Ply, c, v.Cell, v.Best, v.Before, v.BeforeProven, v.After, v.AfterProven, v.Cost}
	return nil
}

// Mistake reports whether m cost at least MinCost.
func (m Move) Mistake() bool { return m.Cost >= MinCost }

// Better returns the move the engine prefers to m, if m was a mistake.
func (m Move) Better() (engine.Cell, bool) { return m.Best, m.Mistake() }

// RedAfter returns red's chance after m.
func (m Move) RedAfter() float64 { return redChance(m.Color, m.After) }

// redChance turns the chance of colour c into red's.
func redChance(c engine.Color, chance float64) float64 {
	if c == engine.Red {
		return chance
	}
	return 1 - chance
}

// RedChances returns red's chance to win before the first move (index 0)
// and after every move (index i after move i). It is empty for a game
// without moves.
func (a *Analysis) RedChances() []float64 {
	if len(a.Moves) == 0 {
		return nil
	}
	out := make([]float64, 0, len(a.Moves)+1)
	out = append(out, redChance(a.Moves[0].Color, a.Moves[0].Before))
	for _, m := range a.Moves {
		out = append(out, m.RedAfter())
	}
	return out
}

// Mistakes returns at most n of colour c's mistakes (moves that cost at
// least MinCost), the costliest first; among equal costs the earlier
// move first.
func (a *Analysis) Mistakes(c engine.Color, n int) []Move {
	var out []Move
	for _, m := range a.Moves {
		if m.Color == c && m.Mistake() {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(x, y Move) int { return cmp.Compare(y.Cost, x.Cost) })
	return out[:min(n, len(out))]
}

// Swings returns the plies of the at most n moves that changed red's
// chance most (by at least MinCost), in the order they were played.
func (a *Analysis) Swings(n int) []int {
	red := a.RedChances()
	var plies []int
	for i := 1; i < len(red); i++ {
		if math.Abs(red[i]-red[i-1]) >= MinCost {
			plies = append(plies, i)
		}
	}
	swing := func(i int) float64 { return math.Abs(red[i] - red[i-1]) }
	slices.SortStableFunc(plies, func(x, y int) int { return cmp.Compare(swing(y), swing(x)) })
	plies = plies[:min(n, len(plies))]
	slices.Sort(plies)
	return plies
}

// Mark is a move pointed out on a chart of the game: its ply and a label
// such as "23. D4".
type Mark struct {
	Ply   int
	Label string
}

// SwingMarks returns the at most n moves of Swings, labelled with their
// number and hole, for a chart.
func (a *Analysis) SwingMarks(n int) []Mark {
	var out []Mark
	for _, ply := range a.Swings(n) {
		out = append(out, Mark{Ply: ply, Label: fmt.Sprintf("%d. %s", ply, a.Moves[ply-1].Cell)})
	}
	return out
}
