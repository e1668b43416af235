// Package game is the game of Kulami between two players as the bot runs
// it: who plays which colour, whose turn it is, the move clock and its
// reminders, draw offers, the abort window, and how and when the game
// ends, with what result.
//
// The rules of the board itself (legal holes, scores) are package engine's;
// this package keeps an engine.Position and adds what happens around it. It
// imports only the standard library and engine: it knows nothing of Discord
// or of storage. Time is always an argument, never read from a clock.
//
// # Model
//
// A Game is made by New (a new game) or Restore (a game read back from its
// State). Every change is a method that checks its rule and returns a
// documented sentinel error, leaving the game unchanged, when it does not
// apply: Play (ErrNotYourTurn, ErrStale, the engine's rule errors), Resign,
// Abort (ErrTooLateToAbort), OfferDraw and AnswerDraw (ErrNoDrawOffer, …),
// Timeout and Remind (ErrNotDue). A game that has ended has a Result and
// refuses every change with engine.ErrGameOver.
//
// Wake says when a scheduler must next look at the game: the next reminder,
// the deadline, or, when the computer is to move, the moment to make sure
// it does.
//
// State is the game as plain data, for storage: Restore(g.State()) gives
// back the same game, and Restore checks everything (the layout, every
// move, the result) so a corrupt or forged State is refused.
//
// A Game is not safe for concurrent use; copy it with Clone.
//
// # Usage
//
//	g, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Full,
//		Players: [2]game.Player{alice, bob}, MoveTime: 72 * time.Hour}, now)
//	c, err := g.Seat(userID)             // ErrNotAPlayer
//	err = g.Play(c, g.Ply(), cell, now)  // ErrNotYourTurn, ErrStale, engine.ErrOccupied, ...
//	if r := g.Result(); r != nil { ... } // the game is over
package game
