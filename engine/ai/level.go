package ai

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/kulami/kulami/engine"
)

// Level is how strong the computer opponent plays. Each level is a setting
// of the same search (see Config): the budget, and for Easy a temperature
// that makes it choose weaker moves now and then, as a beginner would.
//
// A Level is a Player and safe for concurrent use.
type Level uint8

// The levels, weakest first. The zero Level is none of them.
const (
	Easy   Level = iota + 1 // 300 playouts, errs on purpose: loses to Greedy two games in three
	Medium                  // 2,000 playouts: beats Greedy every time, loses to Hard
	Hard                    // the full budget (DefaultTime), the endgame solver alongside, wide wins
)

// Levels lists the levels, weakest first.
var Levels = []Level{Easy, Medium, Hard}

// DefaultTime is the budget per move of Hard, and the most any level
// takes.
const DefaultTime = 2 * time.Second

var levelNames = [...]string{Easy: "easy", Medium: "medium", Hard: "hard"}

// String returns the level's name: easy, medium or hard.
func (l Level) String() string {
	if l >= Easy && l <= Hard {
		return levelNames[l]
	}
	return fmt.Sprintf("Level(%d)", uint8(l))
}

// ParseLevel reads a level's name in any letter case.
func ParseLevel(s string) (Level, error) {
	for _, l := range Levels {
		if strings.EqualFold(s, l.String()) {
			return l, nil
		}
	}
	return 0, fmt.Errorf("level must be easy, medium or hard, not %q", s)
}

// MarshalText writes the level's name.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText reads a level's name.
func (l *Level) UnmarshalText(b []byte) error {
	v, err := ParseLevel(string(b))
	if err != nil {
		return err
	}
	*l = v
	return nil
}

// Config returns the search settings of l, with a budget of DefaultTime
// per move; Medium and Easy also stop after a fixed number of playouts, so
// that their strength does not grow with the machine or the time given. An
// invalid Level returns the zero Config.
func (l Level) Config() Config {
	c := Config{Time: DefaultTime, Exploration: 0.25, RAVEBias: 0.001, SolvePlies: 20}
	switch l {
	case Easy:
		c.Playouts, c.Temperature, c.SolvePlies = 300, 1, 0
	case Medium:
		c.Playouts, c.SolvePlies = 2000, 10
	case Hard:
		c.SpendAll, c.MarginWeight, c.SolveAlongside, c.Greed = true, 0.1, true, 0.15
	default:
		return Config{}
	}
	return c
}

// HardOld returns the settings Hard had before it learned to win wider:
// it stops as soon as its most searched move cannot be overtaken, counts
// wins alone, plays uniformly random games, and runs the endgame solver
// before the tree search rather than alongside it. The arena plays it as
// "hard-old", to measure Hard against.
func HardOld() Config {
	c := Hard.Config()
	c.SpendAll, c.MarginWeight, c.SolveAlongside, c.Greed = false, 0, false, 0
	return c
}

// Move returns l's move in pos: l.Config().Move. See Config.Move.
func (l Level) Move(ctx context.Context, pos engine.Position, rules engine.Rules) (Move, error) {
	return l.Config().Move(ctx, pos, rules)
}
