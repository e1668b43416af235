package ai

import (
	"context"
	"errors"

	"github.com/kulami/kulami/engine"
)

// Player chooses moves. Every Player in this package is safe for concurrent
// use: Move may be called from many goroutines at once, for different games.
type Player interface {
	// Move returns the move the player makes in pos, a game scored under
	// rules. It returns engine.ErrGameOver if the game is over, and the
	// context's error if ctx is done when Move is called or cancelled
	// while it thinks; a context's deadline is a time budget, and Move
	// returns its best move before the deadline.
	Move(ctx context.Context, pos engine.Position, rules engine.Rules) (Move, error)
}

// NoEstimate is the WinChance of a Move made by a player that does not
// estimate its chances.
const NoEstimate = -1.0

// Move is a player's choice and how it rates it.
type Move struct {
	Cell engine.Cell // where to place the marble
	Hole engine.Hole // the same place, as a hole of the position's layout
	// WinChance estimates the chance, from 0 to 1, that the player to move
	// wins after this move, a draw counting half; NoEstimate if the player
	// makes no estimate.
	WinChance float64
	// Proven reports that WinChance is exact (1, ½ or 0): an endgame search
	// saw every way the game can end.
	Proven bool
	// Playouts is the number of random games the search played.
	Playouts int
}

// newMove returns the move to hole h of pos without an estimate.
func newMove(pos *engine.Position, h engine.Hole) Move {
	return Move{Cell: pos.Layout().Cell(h), Hole: h, WinChance: NoEstimate}
}

// start checks what every Player checks before it thinks: that ctx is not
// done and the game is not over. It returns the legal holes.
func start(ctx context.Context, pos *engine.Position) (engine.Holes, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	legal := pos.Legal()
	if legal == 0 {
		return 0, engine.ErrGameOver
	}
	return legal, nil
}

// cancelled reports whether ctx was cancelled rather than having run out
// of time: a deadline is a budget, a cancellation is an order to stop.
func cancelled(ctx context.Context) bool {
	return errors.Is(ctx.Err(), context.Canceled)
}

// seedFor mixes a player's seed with the position, so that a player with a
// fixed seed answers the same position the same way and different
// positions differently.
func seedFor(seed uint64, pos *engine.Position) uint64 {
	last, prev := pos.Last()
	h := seed
	for _, v := range [...]uint64{uint64(pos.Stones(engine.Red)), uint64(pos.Stones(engine.Black)),
		uint64(last) | uint64(prev)<<8 | uint64(pos.ToMove())<<16} {
		r := engine.NewRand(h ^ v)
		h = r.Uint64()
	}
	return h
}

// holes returns the holes of s as a slice, lowest first.
func holes(s engine.Holes) []engine.Hole {
	out := make([]engine.Hole, 0, 16)
	for h := range s.All() {
		out = append(out, h)
	}
	return out
}
