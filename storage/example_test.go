package storage_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
)

// A move is checked against the board the player saw: its ply. Two clicks
// on the same board never both land.
func ExampleStore_UpdateGame() {
	ctx := context.Background()
	dir, err := os.MkdirTemp("", "kulami-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s, err := storage.Open(filepath.Join(dir, "kulami.db"), storage.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	now := time.Date(2026, 11, 22, 20, 0, 0, 0, time.UTC)
	gg, err := game.New(game.Config{
		Layout: engine.Square(), Rules: engine.Full, First: engine.Red,
		Players: [2]game.Player{{UserID: "100", Name: "alice"}, {UserID: "200", Name: "bob"}},
	}, now)
	if err != nil {
		log.Fatal(err)
	}
	if err := s.CreateGame(ctx, &storage.Game{GuildID: "1", ChannelID: "42", Game: gg}); err != nil {
		log.Fatal(err)
	}

	// move plays coord for the player of userID who clicked on the board
	// of ply seen.
	move := func(userID string, seen int, coord string) error {
		cell, err := engine.ParseCell(coord)
		if err != nil {
			return err
		}
		_, err = s.UpdateGame(ctx, "42", func(g *storage.Game) error {
			c, err := g.Seat(userID)
			if err != nil {
				return err
			}
			return g.Play(c, seen, cell, now)
		})
		return err
	}
	fmt.Println(move("100", 0, "D4"))
	err = move("200", 0, "D7") // a click on the empty board, which is out of date
	fmt.Println(errors.Is(err, game.ErrStale))
	fmt.Println(err)
	fmt.Println(move("200", 1, "E4"))

	g, err := s.Game(ctx, "42")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(g.Ply(), g.Moves()[0].Cell)
	// Output:
	// <nil>
	// true
	// update game in channel 42: the game has moved on
	// update game in channel 42: the move may not be on the panel of the last marble
	// 1 D4
}
