package game_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

func ExampleNew() {
	start := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	g, err := game.New(game.Config{
		Layout: engine.Square(), Rules: engine.Full, First: engine.Red,
		Players: [2]game.Player{
			{UserID: "1001", Name: "alice"},
			{UserID: "1002", Name: "bob"},
		},
		MoveTime: 24 * time.Hour,
	}, start)
	if err != nil {
		panic(err)
	}
	red, _ := g.Seat("1001")
	d4, _ := engine.ParseCell("D4")
	fmt.Println(g.Play(red, g.Ply(), d4, start.Add(time.Hour)))
	fmt.Println(g.Play(red, g.Ply(), d4, start.Add(2*time.Hour)))
	fmt.Println(g.ToMove(), "to move by", g.Deadline().Format(time.DateTime))
	fmt.Println("first reminder at", g.Wake().Format(time.DateTime))
	// Output:
	// <nil>
	// not this player's turn
	// black to move by 2026-11-23 13:00:00
	// first reminder at 2026-11-23 01:00:00
}

func ExampleGame_Record() {
	g := exampleGame()
	for _, move := range []string{"D4", "D7", "F7"} {
		c, _ := engine.ParseCell(move)
		if err := g.Play(g.ToMove(), g.Ply(), c, g.Created().Add(time.Minute)); err != nil {
			panic(err)
		}
	}
	if err := g.Resign(engine.Black, g.Created().Add(time.Hour)); err != nil {
		panic(err)
	}
	fmt.Print(g.Record())
	// Output:
	// [Game "Kulami"]
	// [Layout "aabccdee/aabccdee/aabfffee/ghhiijjk/ghhiijjk/llmmmnoo/llpqqnoo/llpqqnoo"]
	// [First "Red"]
	// [Scoring "full"]
	// [Red "alice"]
	// [Black "bob"]
	// [Date "2026.11.22"]
	// [Result "Red wins, Black resigned"]
	//
	// 1. D4 D7 2. F7
}

func ExampleGame_AnswerDraw() {
	g := exampleGame()
	now := g.Created()
	fmt.Println(g.OfferDraw(engine.Red, now))
	fmt.Println(g.AnswerDraw(engine.Red, g.Ply(), true, now))
	fmt.Println(g.AnswerDraw(engine.Black, g.Ply(), true, now))
	r := g.Result()
	fmt.Println(r, "-", r.Outcome(engine.Red), r.Outcome(engine.Black))
	// Output:
	// <nil>
	// a player cannot accept their own draw offer
	// <nil>
	// Draw by agreement - drawn drawn
}

func ExampleGame_Remind() {
	g := exampleGame() // 24 hours a move
	start := g.Created()
	for _, after := range []time.Duration{6 * time.Hour, 12 * time.Hour, 23 * time.Hour} {
		fmt.Println(after, g.Remind(start.Add(after)), g.Reminders())
	}
	fmt.Println(g.Timeout(start.Add(23*time.Hour)), g.Timeout(start.Add(24*time.Hour)))
	fmt.Println(g.Result())
	// Output:
	// 6h0m0s nothing is due yet 0
	// 12h0m0s <nil> 1
	// 23h0m0s <nil> 2
	// nothing is due yet <nil>
	// Aborted, Red did not make a first move in time
}

func ExampleRestore() {
	b, err := json.Marshal(exampleGame().State())
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	var s game.State
	if err := json.Unmarshal(b, &s); err != nil {
		panic(err)
	}
	s.Players[engine.Black] = s.Players[engine.Red]
	_, err = game.Restore(s)
	fmt.Println(err)
	// Output:
	// {"layout":"aabccdee/aabccdee/aabfffee/ghhiijjk/ghhiijjk/llmmmnoo/llpqqnoo/llpqqnoo","rules":"full","first":0,"players":[{"user":"1001","name":"alice"},{"user":"1002","name":"bob"}],"created":"2026-11-22T12:00:00Z","move_time":86400000000000,"deadline":"2026-11-23T12:00:00Z","clock":"move"}
	// invalid game: alice cannot play against themself
}

// exampleGame returns a new game of alice (Red) against bob, 24 hours a
// move, begun on 22 November 2026 at noon UTC.
func exampleGame() *game.Game {
	g, err := game.New(game.Config{
		Layout: engine.Square(), Rules: engine.Full, First: engine.Red,
		Players: [2]game.Player{
			{UserID: "1001", Name: "alice"},
			{UserID: "1002", Name: "bob"},
		},
		MoveTime: 24 * time.Hour,
	}, time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC))
	if err != nil {
		panic(err)
	}
	return g
}
