// Package storage keeps kulami's games, challenges, finished games, player
// profiles and settings in one bbolt file, so that a restart, a crash or two
// players clicking at once never loses or corrupts a game.
//
// # Model
//
// A channel (a thread is a channel) holds at most one active Game or one open
// Challenge. A Game is a game.Game (package engine/game: the rules of a
// game between two players) with where it is played; storage persists it
// and holds no rule of its own. Every stored game is checked by
// game.Restore when it is read back. When a game gets its Result, the
// transaction that stores it also moves it to the finished games of its
// guild (kept for good, with its RECORD.md text), indexes it in both
// players' history and, unless it was aborted, updates both players'
// Profile and Glicko-2 rating: never one without the other. Games against
// the computer opponent count on the AI Ladder, never on the human one.
// A finished game may also have a review, the computer's analysis of its
// moves (SaveReview, Review), stored once beside it. GuildGames lists a
// guild's active games and LastFinishedGame a channel's latest finished
// one.
//
// Storage keeps an index of games and challenges by their wake time (for a
// game, game.Game.Wake; for a challenge, its WakeAt) in the same
// transaction as every write, so a scheduler asks NextWake and Due instead
// of scanning every game. Schedulers of several processes that share a
// store (PostgreSQL) claim each due wake before they handle it (Claim, a
// lease that lapses if its process dies), so that one does the work; a
// bbolt store, which one process opens, keeps its leases in memory.
//
// # Transactions
//
// The logic of every method is Core's, shared by the backends: this
// package's bbolt Store and storage/postgres. Every method is one
// transaction (here, a bbolt one), and every write one durable commit
// (Commits counts them), but for Claim here, which writes to memory. UpdateGame and the other Update methods are a read-modify-write:
// the function sees the stored value and what it leaves is written,
// atomically, or nothing is written if it returns an error. A move is
// checked against the board the player saw by game.Game.Play itself
// (game.ErrStale). NoteBoard, the one bookkeeping write, is not a
// transaction of its own: it rides on the game's next write (see there
// why that is safe). Every value a method returns is a copy that the
// caller owns.
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
//	gg, err := game.New(game.Config{Layout: engine.Square(), Rules: engine.Full,
//		Players: [2]game.Player{alice, bob}, MoveTime: 72 * time.Hour}, now)
//	g := &storage.Game{GuildID: guild, ChannelID: channel, Game: gg}
//	err = s.CreateGame(g) // g.ID is set; ErrChannelBusy if the channel is taken
//
//	// A move by the player who saw the board at ply seen:
//	g, err = s.UpdateGame(channel, func(g *storage.Game) error {
//		return g.Play(color, seen, cell, now) // game.ErrStale, …; a result finishes the game
//	})
//	err = s.NoteBoard(channel, g.ID, g.Ply(), messageID) // no commit of its own
package storage
