package ai_test

import (
	"context"
	"fmt"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
)

func ExampleConfig_Move() {
	// A reproducible search: a fixed seed, workers and playout budget.
	c := ai.Hard.Config()
	c.Time, c.Playouts, c.Workers, c.Seed = 0, 5000, 2, 42

	pos := engine.NewPosition(engine.Square(), engine.Red)
	for _, m := range []string{"D4", "D7", "F7", "F2"} {
		if err := pos.PlayMove(m); err != nil {
			panic(err)
		}
	}
	m, err := c.Move(context.Background(), pos, engine.Full)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%s, %.0f%% to win\n", m.Cell, 100*m.WinChance)
	// Output: F4, 62% to win
}
