package review_test

import (
	"context"
	"fmt"
	"os"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/review"
)

func ExampleAnalyse() {
	b, err := os.ReadFile("testdata/finished.kgn")
	if err != nil {
		panic(err)
	}
	rec, err := engine.ParseRecord(string(b))
	if err != nil {
		panic(err)
	}
	a, err := review.Analyse(context.Background(), rec, review.Options{Playouts: 20000, Seed: 1})
	if err != nil {
		panic(err)
	}
	m := a.Moves[46]
	fmt.Printf("%d. %s by %s: %.0f%% to %.0f%% (proven: %v), a mistake: %v\n",
		m.Ply, m.Cell, m.Color, 100*m.Before, 100*m.After, m.BeforeProven && m.AfterProven, m.Mistake())
	fmt.Printf("red's chance at the end: %.0f%%\n", 100*a.RedChances()[len(a.Moves)])
	// Output:
	// 47. H4 by red: 100% to 0% (proven: true), a mistake: true
	// red's chance at the end: 0%
}
