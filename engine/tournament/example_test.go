package tournament_test

import (
	"fmt"
	"time"

	"github.com/kulami/kulami/engine/tournament"
)

func Example() {
	now := time.Date(2026, 3, 2, 18, 0, 0, 0, time.UTC)
	t, err := tournament.New(tournament.Settings{Name: "Spring Swiss", Rounds: 2, DaysPerRound: 3,
		MaxPlayers: 5, Start: now.Add(24 * time.Hour)}, "ana", now)
	if err != nil {
		panic(err)
	}
	for i, id := range []string{"ana", "ben", "cy", "dee", "eve"} {
		if err := t.Join(id, 1800-100*i, now); err != nil {
			panic(err)
		}
	}
	fmt.Println(t.Join("fay", 1500, now))

	now = now.Add(24 * time.Hour)
	if t.Due(now) {
		if err := t.Start(now); err != nil {
			panic(err)
		}
	}
	for _, r := range t.Rounds() {
		for _, p := range r.Pairings {
			fmt.Printf("round %d board %d: %s moves first against %s\n", r.Number, p.Board, p.First, p.Second)
		}
		fmt.Printf("round %d bye: %s, deadline %s\n", r.Number, r.Bye, r.Deadline.Format(time.DateTime))
	}

	// ana wins; the other game is unfinished at the deadline.
	_ = t.Record(tournament.GameRef{Round: 1, Board: 1, Game: 1}, tournament.FirstWon, now.Add(time.Hour))
	deadline := now.Add(72 * time.Hour)
	for _, ref := range t.Overdue(deadline) {
		_ = t.Adjudicate(ref, tournament.Drawn, "exact solver", deadline)
	}
	// eve's bye counts her own point in Buchholz, ana's opponent has 0;
	// ben and dee drew each other and share third place.
	phase, round := t.State()
	fmt.Println(phase, round)
	for _, s := range t.Standings() {
		fmt.Println(s.Rank, s.Player, s.Points)
	}
	// Output:
	// tournament: the tournament is full
	// round 1 board 1: ana moves first against cy
	// round 1 board 2: dee moves first against ben
	// round 1 bye: eve, deadline 2026-03-06 18:00:00
	// between 1
	// 1 eve 1
	// 2 ana 1
	// 3 ben ½
	// 3 dee ½
	// 5 cy 0
}
