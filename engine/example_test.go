package engine_test

import (
	"errors"
	"fmt"

	"github.com/kulami/kulami/engine"
)

func ExampleParseLayout() {
	// The square board with its panels named in another order.
	l, err := engine.ParseLayout("zzyxxwvv/zzyxxwvv/zzyuuuvv/tssrrqqp/tssrrqqp/oonnnmll/ookjjmll/ookjjmll")
	if err != nil {
		panic(err)
	}
	fmt.Println(l.Width(), "×", l.Height())
	fmt.Println(l.String()) // canonical: a, b, c, … in order of first appearance
	fmt.Println(l.Equal(engine.Square()))

	_, err = engine.ParseLayout("aab/aabc")
	fmt.Println(err)
	// Output:
	// 8 × 8
	// aabccdee/aabccdee/aabfffee/ghhiijjk/ghhiijjk/llmmmnoo/llpqqnoo/llpqqnoo
	// true
	// bad layout: row 2 has 4 cells but row 1 has 3; all rows must have the same width
}

func ExamplePosition_PlayMove() {
	p := engine.NewPosition(engine.Square(), engine.Red)
	for _, move := range []string{"d4", "E4", "D1", "E1", "D5", "A1", "J1", "A0"} {
		player := p.ToMove()
		err := p.PlayMove(move)
		var re *engine.RuleError
		switch {
		case err == nil:
			fmt.Printf("%s plays %s\n", player, move)
		case errors.As(err, &re):
			fmt.Printf("%s refused, %s: %v\n", move, re.Code, err)
		}
	}
	fmt.Println(p.Ply(), "marbles placed,", p.ToMove(), "to move")
	// Output:
	// red plays d4
	// E4 refused, same-panel: the move may not be on the panel of the last marble
	// black plays D1
	// E1 refused, same-panel: the move may not be on the panel of the last marble
	// D5 refused, previous-panel: the move may not be on the panel of the marble before the last
	// red plays A1
	// J1 refused, off-board: there is no hole there
	// A0 refused, syntax: "A0": a move is a column A–J followed by a row 1–10, like D4
	// 3 marbles placed, black to move
}

func ExamplePosition_Legal() {
	l := engine.Square()
	p := engine.NewPosition(l, engine.Red)
	for _, move := range []string{"D4", "D1", "A1"} {
		c, err := engine.ParseCell(move)
		if err != nil {
			panic(err)
		}
		if err := p.Play(c); err != nil {
			panic(err)
		}
	}
	// Row 1 and column A, but not panel a of A1, nor panel c of D1.
	fmt.Println(p.Legal().Cells(l))
	// Output:
	// [C1 F1 G1 H1 A4 A5 A6 A7 A8]
}

func ExamplePosition_Score() {
	p := engine.NewPosition(engine.Square(), engine.Red)
	for _, move := range []string{"D4", "D1", "A1", "A4", "E4"} {
		if err := p.PlayMove(move); err != nil {
			panic(err)
		}
	}
	for _, rules := range []engine.Rules{engine.Basic, engine.Full} {
		s := p.Score(rules)
		winner, decided := s.Winner()
		fmt.Printf("%s: red %+v, black %+v; winner %s (%t)\n", rules, s[engine.Red], s[engine.Black], winner, decided)
	}
	// Output:
	// basic: red {Panels:10 Area:0 Lines:0 Total:10}, black {Panels:6 Area:0 Lines:0 Total:6}; winner red (true)
	// full: red {Panels:10 Area:1 Lines:0 Total:11}, black {Panels:6 Area:0 Lines:0 Total:6}; winner red (true)
}

func ExampleParseRecord() {
	r, err := engine.ParseRecord(`[Game "Kulami"]
[Layout "aabccdee/aabccdee/aabfffee/ghhiijjk/ghhiijjk/llmmmnoo/llpqqnoo/llpqqnoo"]
[Scoring "full"]
[Red "alice"]
[Black "bob"]

1. d4 D7 { a comment } 2. F7 F2 ; another
*`)
	if err != nil {
		panic(err)
	}
	red, _ := r.Tag("Red")
	fmt.Println(r.Rules, r.First, "begins,", red, "plays red")
	fmt.Println(r.Moves, r.Result)
	fmt.Print(r.String())
	// Output:
	// full red begins, alice plays red
	// [d4 D7 F7 F2] *
	// [Game "Kulami"]
	// [Layout "aabccdee/aabccdee/aabfffee/ghhiijjk/ghhiijjk/llmmmnoo/llpqqnoo/llpqqnoo"]
	// [First "Red"]
	// [Scoring "full"]
	// [Red "alice"]
	// [Black "bob"]
	//
	// 1. D4 D7 2. F7 F2 *
}

func ExampleRecord_Replay() {
	r, err := engine.ParseRecord(`[Layout "aabccdee/aabccdee/aabfffee/ghhiijjk/ghhiijjk/llmmmnoo/llpqqnoo/llpqqnoo"]
1. D4 D1 2. A1 E5`)
	if err != nil {
		panic(err)
	}
	p, err := r.Replay()
	var me *engine.MoveError
	var re *engine.RuleError
	if errors.As(err, &me) && errors.As(err, &re) {
		fmt.Printf("move %d (%s) is illegal: %s\n", me.Ply, me.Move, re.Code)
		fmt.Println(err)
	}
	fmt.Println(p.Ply(), "moves stand")
	// Output:
	// move 4 (E5) is illegal: not-in-line
	// move 4 (E5): the move must be in the row or column of the last marble
	// 3 moves stand
}
