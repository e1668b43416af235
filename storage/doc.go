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
// Profile and Glicko-2 rating: never one without the other. What a game
// does to a profile (rating, streak, tally, best win, and the AI Ladder
// for games against the computer opponent) is decided by package
// engine/rating (rating.Count, rating.LadderOf) inside that transaction.
// The same transaction counts the game on the ladder of its season (a
// calendar quarter, rating.Season): season profiles are Profiles with a
// Season, kept apart from the all-time ones (SeasonLeaderboard), each
// season starting every player afresh. A game played where the bot is no
// member (a DM, a group DM, a server that did not add it) is kept under
// the guild key "", that of direct messages, with the server it is played
// in, if any (Game.ServerID, which no update changes): its players'
// ratings count on the ladder of that key, apart from every guild's.
// Likewise a Challenge is a challenge.Challenge (package engine/challenge:
// who may answer it, its expiry, the game it starts) with where it is
// offered; AcceptChallenge stores the game it starts and closes it at once.
// A finished game may also have a review, the computer's analysis of its
// moves (SaveReview, Review), stored once beside it. GuildGames lists a
// guild's active games and LastFinishedGame a channel's latest finished
// one. A player's Vacation bank (game.Vacation, across guilds) is stored
// with the games it stops, in one transaction (UpdateVacation), and
// UpdatePlayerGames changes every game of a player at once (where they
// live: game.Game.SetLocal).
//
// Storage keeps an index of games, challenges and vacations by their wake
// time (for a game, game.Game.Wake; for a challenge,
// challenge.Challenge.Wake; for a vacation, Vacation.Wake) in the same
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
// (Commits counts them), but for Claim here, which writes to memory; on
// bbolt the writes that arrive while a commit is under way share the next
// one (groupcommit.go), each as atomic as alone. UpdateGame and the other Update methods are a read-modify-write:
// the function sees the stored value and what it leaves is written,
// atomically, or nothing is written if it returns an error. A move is
// checked against the board the player saw by game.Game.Play itself
// (game.ErrStale). NoteBoard, the one bookkeeping write, is not a
// transaction of its own: it rides on the game's next write (see there
// why that is safe). Every value a method returns is a copy that the
// caller owns.
//
// A user's link to Discord's Linked Roles (RoleLink: their OAuth2 grant,
// which the bot seals before storage sees it, and the guilds and title
// their metadata count) is kept by user; UpdateRoleLink makes one only
// with its token.
//
// # Contexts
//
// Every method that reads or writes takes a context.Context first: the
// interaction's, the scheduler's or the job's that asked. A context done
// before a method begins its transaction makes it read and write nothing
// and return an error wrapping ctx.Err() (context.Canceled or
// context.DeadlineExceeded), on every backend. What a context done later
// does depends on the backend (see Backend): PostgreSQL cancels the
// statement under way and rolls the transaction back; bbolt cannot stop a
// transaction once it runs, so it finishes (and an update commits). So a
// write whose context is cancelled while it runs may have committed, on
// bbolt, or on PostgreSQL if the COMMIT was under way.
//
// # Board messages
//
// Storage knows one thing of Discord: a Game's BoardMessageID,
// ClickedBoards, BoardDue and BoardEdit, the messages that show its board,
// when a board not posted yet is owed (the game's wake is then at the
// latest BoardDue, for the scheduler to post it; the change that makes a
// ply owes its board in its own commit, and the board's note pays it),
// and when the board shown is due for an edit (the wake is then at the
// latest BoardEdit). They are the one
// exception to a Game holding only the game and where it is played, and
// are kept in the game's own stored form, not beside it, because they
// must commit with the game: the update that moves a game past its board
// clears BoardMessageID, and a click that moved it before its board was
// noted is marked in ClickedBoards, both in the move's transaction, so
// that no process (this one or another sharing the store) links a board
// out of date or retires a board twice. A note (NoteBoard) holds only for
// the game's ID and ply, which the game's stored form holds: bbolt's
// rides on the game's next write, PostgreSQL's updates the game's row
// only while it is at that ply. Kept apart, in a bucket or table of their
// own, every read and write of a game would touch two places, and a note
// would check one and write the other.
//
// # Tournaments
//
// A Tournament is a tournament.Tournament (package engine/tournament: its
// players, rounds and results, stored in its JSON form) with where it is
// announced and which of its games are open. UpdateTournament changes it
// as UpdateGame does a game, so a round is paired once however many
// processes ask. OpenTournamentGame stores a game of a round and marks it
// opened in one transaction. A stored Game names its tournament game
// (Game.Tournament): the transaction that finishes it records its end in
// the tournament as the tournament's rules say (tournament.Tournament.
// GameEnded: a result, a forfeit, or nothing), so the round ends with its
// last game's commit. CancelTournament cancels a tournament and releases
// its games in progress as casual games (their link dropped, their
// round's deadline lifted), in one transaction. A tournament's wake
// (Tournament.Wake: when the step it owes is due, tournament.Tournament.
// Next) is indexed with the games' and challenges', as WakeTournament
// with the key "guild/id". Storage holds no tournament rule: it calls the
// domain's inside its transactions.
//
// # Puzzles
//
// The puzzles of engine/puzzle are stored with their Glicko-2 ratings
// (PuzzleEntry), loaded once by ID and content hash (LoadPuzzles). A
// player's PuzzleProfile is the same in every guild; the puzzle
// leaderboard of a guild ranks the players who did puzzles there
// (PuzzleProfile.Guilds; the guild "" is everywhere outside the servers),
// keyset-paged by Mark like the ladders.
// FinishPuzzle counts an attempt in one transaction: the attempt kept
// (NextPuzzle never gives it again while others remain), both ratings
// (puzzle.Rate), the streak, a daily puzzle's solvers. The attempt under
// way (PuzzleTry) is stored, and moves on only from the step a click
// names (AdvancePuzzle), so a stale click changes nothing. The daily
// puzzle of a day is picked once (DailyPuzzle, by engine/puzzle's rule)
// and its post in a guild claimed in a transaction (ClaimDailyPost), so
// it goes out once across restarts and processes. Export carries all of
// it (the puzzles, the set loaded, profiles, attempts ended and under way,
// the daily puzzles and posts), so a copy serves the set without loading
// it again; the leaderboards' indexes are built again by Import.
//
// # Export
//
// Export and Import copy a store into another of any backend (kulamibot
// migrate), record by record, streaming: Import writes ImportBatch records
// a transaction and Compare keeps a digest of each kind, so neither holds
// a store in memory. Every kind of record (a game, a challenge, a
// finished game, …) is one RecordKind of the table in export.go.
//
// # Indexes
//
// The reads a player makes stay O(log n) or O(page) however many games a
// store holds: the last finished game of a channel, a guild's active
// games (the first page and a count), a player's active games in every
// guild (PlayerGames, and those a vacation or UpdatePlayerGames changes;
// NewestPlayerGames, the first page and a count, reads only that page)
// and the head-to-head of two players are read from indexes that the
// writes keep in their own transaction (bbolt: the buckets of index.go;
// PostgreSQL: indexes of its tables).
// Import fills them as it writes the records they index, and a file of an
// older schema gets them built when it is opened.
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
//	err = s.CreateGame(ctx, g) // g.ID is set; ErrChannelBusy if the channel is taken
//
//	// A move by the player who saw the board at ply seen:
//	g, err = s.UpdateGame(ctx, channel, func(g *storage.Game) error {
//		return g.Play(color, seen, cell, now) // game.ErrStale, …; a result finishes the game
//	})
//	err = s.NoteBoard(ctx, channel, g.ID, g.Ply(), messageID) // no commit of its own
package storage
