// Package storage keeps kulami's games, challenges, finished games, player
// profiles and settings in one bbolt file, so that a restart, a crash or two
// players clicking at once never loses or corrupts a game.
//
// # Model
//
// A channel (a thread is a channel) holds at most one active Game or one open
// Challenge. When a game gets its Result, the transaction that stores it
// also moves it to the finished games of its guild (kept for good, with its
// RECORD.md text), indexes it in both players' history and, unless it was
// aborted, updates both players' Profile and Glicko-2 rating: never one
// without the other. Games against the computer opponent count on the AI
// Ladder, never on the human one.
//
// Games and challenges carry a WakeAt time chosen by the bot; storage keeps
// an index by time in the same transaction as every write, so a scheduler
// asks NextWake and Due instead of scanning every game.
//
// # Transactions
//
// Every method is one bbolt transaction. UpdateGame and the other Update
// methods are a read-modify-write: the function sees the stored value and
// what it leaves is written, atomically, or nothing is written if it returns
// an error. A move checked against an old board is refused by returning
// ErrStale from that function (see UpdateGame). Every value a method returns
// is a copy that the caller owns.
//
// # File format
//
// The file carries a schema version; Open migrates an older file in one
// transaction and refuses a newer one with ErrSchemaTooNew. Every stored
// value is JSON of the form {"v":1,"data":{…}}, where v is the version of its
// format, so that a value can be read (and debugged) on its own.
//
// A Store is safe for concurrent use by many goroutines; only one process
// may open the file at a time (ErrLocked).
//
// # Usage
//
//	s, err := storage.Open("kulami.db", storage.Options{})
//	if err != nil { ... } // errors.Is(err, storage.ErrLocked), ErrSchemaTooNew, ...
//	defer s.Close()
//
//	g := &storage.Game{GuildID: guild, ChannelID: channel, Layout: engine.SquareString,
//		Rules: engine.Full, First: engine.Red, Players: [2]storage.Player{alice, bob}, Created: now}
//	err = s.CreateGame(g) // g.ID is set; ErrChannelBusy if the channel is taken
//
//	// A move by the player who saw the board at ply p:
//	g, err = s.UpdateGame(channel, func(g *storage.Game) error {
//		if g.Ply() != p {
//			return storage.ErrStale
//		}
//		_, err := g.Play(cell, now) // finishes the game when it is over
//		return err
//	})
package storage
