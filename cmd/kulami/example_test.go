package main

import (
	"context"
	"fmt"
	"os"
	"strings"
)

// Replay with --json reports the first illegal move and the position
// before it: here Red's second marble is on the panel of its first.
func Example_replayJSON() {
	record := `[Layout "aabccdee/aabccdee/aabfffee/ghhiijjk/ghhiijjk/llmmmnoo/llpqqnoo/llpqqnoo"]
[Scoring "full"]

1. D4 D7 2. D5`
	code := run(context.Background(), []string{"replay", "--json"}, strings.NewReader(record), os.Stdout, os.Stderr, noEnv)
	fmt.Println("exit status", code)
	// Output:
	// {"ply":2,"to_move":"red","over":false,"legal":["D1","D2","D3","D6","A7","B7","C7","F7","G7","H7"],"score":{"red":{"panels":4,"area":0,"lines":0,"total":4},"black":{"panels":4,"area":0,"lines":0,"total":4}},"winner":null,"error":{"ply":3,"move":"D5","reason":"previous-panel"}}
	// exit status 0
}

// Layout draws a board: lines between the panels, columns lettered and
// rows numbered as moves name them.
func Example_layout() {
	run(context.Background(), []string{"layout", "square"}, nil, os.Stdout, os.Stderr, noEnv)
	// Output:
	// Layout: aabccdee/aabccdee/aabfffee/ghhiijjk/ghhiijjk/llmmmnoo/llpqqnoo/llpqqnoo
	//
	//      A   B   C   D   E   F   G   H
	//    ┌───────┬───┬───────┬───┬───────┐
	//  1 │ ·   · │ · │ ·   · │ · │ ·   · │ 1
	//    │       │   │       │   │       │
	//  2 │ ·   · │ · │ ·   · │ · │ ·   · │ 2
	//    │       │   ├───────┴───┤       │
	//  3 │ ·   · │ · │ ·   ·   · │ ·   · │ 3
	//    ├───┬───┴───┼───────┬───┴───┬───┤
	//  4 │ · │ ·   · │ ·   · │ ·   · │ · │ 4
	//    │   │       │       │       │   │
	//  5 │ · │ ·   · │ ·   · │ ·   · │ · │ 5
	//    ├───┴───┬───┴───────┼───┬───┴───┤
	//  6 │ ·   · │ ·   ·   · │ · │ ·   · │ 6
	//    │       ├───┬───────┤   │       │
	//  7 │ ·   · │ · │ ·   · │ · │ ·   · │ 7
	//    │       │   │       │   │       │
	//  8 │ ·   · │ · │ ·   · │ · │ ·   · │ 8
	//    └───────┴───┴───────┴───┴───────┘
	//      A   B   C   D   E   F   G   H
}
