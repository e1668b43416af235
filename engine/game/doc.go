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
// Timeout and Remind (ErrNotDue), Adjudicate. A game that has ended has a
// Result and refuses every change with engine.ErrGameOver.
//
// Adjudication. A game may be ended by a judge instead of the players: a
// tournament judges a game unfinished at its round's deadline (its
// cutoff, below; package engine/tournament says which games and how) and
// Adjudicate ends it with that verdict, a win for either colour or a
// draw. Unlike an abandoned game, which counts
// for nobody, an adjudicated game is rated as any result (Result.Rated);
// its Result says "Red wins by adjudication" or "Draw by adjudication",
// and its Ending is Adjudicated, whose name storage keeps ("adjudicated").
//
// Wake says when a scheduler must next look at the game: the next reminder,
// the deadline, or, when the computer is to move, the moment to make sure
// it does.
//
// # Playing over days
//
// A game that lasts days has comforts so that nobody loses to life: each is
// off unless asked for, and a game without them plays exactly as before.
// Every rule takes the time as an argument and refuses with a sentinel.
//
// Move clocks. MoveTime (the type) is a move clock of one of two kinds
// (ClockKind). Per move (PerMove), "3d" or "72h": the clock is set back
// to the move time at every turn (N days per move). For the whole game
// (WholeGame), "10m" or "3d+1d": each player's clock starts with the
// start, what is left of it carries over to their next turn, and the
// increment, if any, is added after each of their moves, never beyond
// twice the start (6 days). A whole-game clock without increment is the
// same clock with an increment of 0: one arithmetic for both.
//
// Which kind a written move time is follows the chess sites, whose live
// controls count for the whole game and daily ones per move: a move time
// with an increment is for the whole game; one without, under
// WholeGameLimit (an hour: "10m", "90s", "59m"), is for the whole game
// too; from an hour on ("1h", "90m", "3d") it is per move, as it always
// was. ParseMoveTime reads it (whole seconds, minutes, hours or days,
// s/m/h/d; a start from MinMoveTime, a minute, to MaxMoveTime; an
// increment from MinIncrement, a second, to the start; ErrMoveTimeForm,
// ErrMoveTimeRange, ErrIncrementRange) and String writes it back in the
// largest unit that divides each part.
//
// Games and challenges stored by earlier releases have no kind: theirs is
// per move without an increment, whole-game with one (MoveTime.Explicit),
// so an old "5m" game stays 5 minutes per move, and so do its rematches;
// New and Restore write the kind into the State.
//
// A move made after the clock ran out (in a game of claims) keeps only
// the increment. A planned reply earns the increment as any move.
// Reminders come at the same shares of the start (half, a tenth) before
// the deadline; one whose time has passed when the turn begins is due at
// once.
//
// Live games. A clock that starts under LiveLimit (15 minutes: "5m",
// "10m+10s", or a "5m" per move of an earlier release) is live
// (MoveTime.Live): the players sit at the board, so there are no
// reminders, and a clock that runs out ends the game at once (New sets
// Timeouts to Auto whatever the config asks): no claim window for a game
// that lasts minutes. Nor is a game under an hour ever paused, live or
// not (MoveTime.Pauses: a clock that starts under WholeGameLimit is
// played at one sitting): a vacation does not stop its clock (Away
// refuses ErrLiveGame), New clears its weekend pause, and quiet hours do
// not move its deadlines.
//
// New games. What a new game is played with, where its players asked for
// nothing, is resolved in one place for every way a game starts (a
// challenge, a game against the computer or its rematch, a tournament's
// round): Defaults.Settings, from what was asked, the server's settings,
// then the bot's move time. A game against the computer never pauses
// over weekends nor waits for a claim; a clock under an hour never
// pauses, and asking for a weekend pause with one is refused
// (ErrLiveGame).
//
// # Clocks, pauses and comforts
//
// Which pauses hold each kind of clock back, and which comforts it has
// (TestClockPolicy plays every cell):
//
//	clock                          vacation weekend quiet reminders give-time claim auto
//	days per move ("3d")           stops    pauses  moves yes       yes       yes   yes
//	days, whole game ("3d+1d")     stops    pauses  moves yes       yes       yes   yes
//	hours per move ("1h")          stops    pauses  moves yes       yes       yes   yes
//	whole game, 15-59 min ("30m")  no       no      no    yes       yes       yes   yes
//	live ("10m", "5m+10s", "5m")   no       no      no    no        yes       no    always
//
// Pauses hold back a clock that starts at an hour or more (Pauses), and
// only those: a whole-game clock of days ("3d+1d") is played over days,
// and every pause holds it back; a game under an hour is played at one
// sitting, and a pause would only let the player who is losing stop the
// clock. A clock is live below LiveLimit (15 minutes), whatever its kind:
// no reminders and no claims. Vacation: the player's clock is stopped while it
// is their move. Weekend: the clock of a game with Config.Weekends does
// not run over its player's weekend. Quiet hours: a deadline that would
// fall in them, or in the QuietMargin after them, is moved out. Give
// time is offered in every clock, live ones too: it is the giver's own
// courtesy, and adds GiveStep or the start, whichever is shorter (a
// "5m" clock gets 5 minutes), up to twice the start. Claim or wait is
// the server's choice (Config.Timeouts) in a game played over days; a
// live game always ends on time at once (timeouts auto). A cutoff (a
// tournament round's deadline: Cutoff, below) bounds every clock of the
// table alike, and no pause holds it back: a vacation stops the clock,
// not the round.
//
// Vacation. Vacation is a player's bank, across all their games. It
// opens with the player's first game, holding VacationStart (14 days): the
// store opens it in the transaction that stores the first game a person
// plays (Vacation.Open), so it counts from that game's start whether or
// not they ever take a vacation. A player of an earlier release, who has
// no bank, has it opened when it is first counted (a vacation or its
// status) at the start of the oldest of their running games, or then if
// none runs: the store kept no date of their first game. The end of every
// VacationPeriod (7 days) since the bank opened adds VacationAccrual (a
// day; Grows says when next), up to a cap (VacationCap, 30 days, which a
// server may lower; a cap of 0 turns vacations off and cuts every bank to
// 0); weeks that end during a vacation add nothing. A vacation spends the bank by the hour, each hour begun
// costing a whole one, and ends when the player ends it or when the bank
// runs out (Ends; End then counts it as ending then); the player is warned
// VacationNotice (a day) before it runs out (Notice). Start refuses
// ErrVacationsOff, ErrOnVacation and ErrBankEmpty (less than an hour);
// End refuses ErrNotOnVacation. StartVacation and EndVacation do it all
// at once, the bank and every game of the player, and say which live
// games a vacation leaves running. Each game is told with Away and Back:
// while a player is away their clock is stopped whenever it is
// their turn (it starts stopped when their turn comes), holding the time it
// had, and runs again from Back with that time, the deadline set as every
// deadline (so at least the time it had). Their opponent's clock runs as
// usual and they may move; the player away may move too. A clock that had
// already run out is not stopped, nor is a live game's (Away refuses
// ErrLiveGame and marks nobody away). Away refuses ErrOnVacation, Back
// ErrNotOnVacation, both ErrNotAPlayer for the computer.
//
// Weekend pause. In a game with Config.Weekends (never a live one), a
// player's clock does not run from Saturday 00:00 to Monday 00:00 in
// their own time zone (SetLocal or Config.Zones; UTC when none). The days
// are the player's wall-clock days: a weekend that holds a daylight-saving
// change lasts 47 or 49 hours, and still ends on Monday 00:00. A turn that
// begins on a weekend starts its clock on Monday 00:00; a clock that runs
// out on Saturday 00:00 sharp runs out then. WeekendPause says whether the
// clock of the player to move is paused at a time, and until when;
// PauseChange when that answer next changes (what a board says of the
// clock changes then, with no move). The reminders' shares count as the
// clock runs, skipping weekends too.
//
// Quiet hours. A player may have quiet hours in their time zone (Quiet,
// "22-08": ParseQuiet refuses ErrQuietForm, ErrQuietHour and
// ErrQuietLength for empty hours or more than MaxQuiet, 12; Holds says
// whether a time falls in them, Clear when a ping due then may come). A
// reminder due in them comes at their end. A loss on time never comes in
// them nor in the QuietMargin (6 hours) after them, but in a live game: a
// deadline that would is moved to 6 hours after they end (only ever
// later), so a reminder held back by the night still comes at least 6
// hours before a loss. Every deadline set (a turn, given time, a return,
// Extend) is moved so; a change of zone or quiet hours applies from the
// next deadline set. Every notice to a player in their quiet hours (a
// board that hands them the turn, a claim, time given, an opponent's
// vacation, an abort, and those of no game: tournaments, puzzles,
// seasons) comes without its ping, or is held back to their end (a
// reminder, a warning that a vacation runs out); but a notice of a game
// played at one sitting pings at any hour, its players being at the
// board (MoveTime.Hushes).
//
// Give time. GiveTime lets the player not to move add GiveStep (a day), or
// the move time if that is shorter, to their opponent's clock, as long as
// it then holds at most twice the move time (ErrTimeLimit; also
// ErrOwnTurn, ErrNoClock, ErrNotAPlayer, engine.ErrGameOver). A stopped
// clock keeps the time given for when it starts; a clock that ran out in a
// game of claims runs again with it (the claim lapses).
//
// Claim or wait. In a game with Timeouts Claim, a clock that runs out after
// both players moved does not end the game: Timeout marks it late, and
// Claimable says since when (the deadline) and who may claim (the
// opponent). The late player may still move, and the claim lapses. Claim
// ends the game as a loss on time with Result.Claimed, "Red wins, Black ran
// out of time (claimed)" (ErrNotClaimable before the deadline or in a game
// of Auto, ErrNotClaimant for the late player); the claim is open from the
// deadline, before Timeout marks it. No reminder comes while the game
// waits. A claim not made within ClaimWindow (7 days) of the deadline is
// made by Timeout: the game ends as under Auto, not claimed. A clock that
// runs out before the late player's first move ends the game at once
// (Unstarted), as under Auto. Extend moves the deadline and the window.
//
// Cutoff. A game may have a cutoff (Config.Cutoff, Cut): the latest time
// its players may decide it, as a tournament's round deadline (package
// engine/tournament sets it; the rule is the same for any cutoff). The
// player to move must move by their clock's deadline or by the cutoff,
// whichever comes first; the first move of the game, by the cutoff less
// the share kept for the reply (a day, MaxReplyShare, or half the time
// from the start to the cutoff if that is less), so that a first move
// made at the last moment leaves the second player time to make theirs
// rather than a forfeit. Deadline says that time, and the reminders come
// at their shares of the move time before it. The clocks themselves keep
// their own time (a clock for the whole game loses nothing to the
// cutoff; Extend and GiveTime move the clock, not the cutoff). From the
// cutoff on no move is played (ErrCutoff), and Timeout decides only what
// the clocks decide: the player to move who has not made a first move
// forfeits (Unstarted, whatever their clock holds, stopped or paused
// too); a clock that ran out before the cutoff loses on time (a claim
// not made by the cutoff is made for the opponent); a game where both
// moved and whose clock ran on to the cutoff is left to its judge
// (ErrNotDue; Wake is zero then), who ends it with Adjudicate. Lift
// takes the cutoff away: the game goes on under its clocks alone.
//
// Conditional moves. The player not to move may plan replies (SetPlan): up
// to MaxPlanLines (20) lines, each a move of the opponent and the reply,
// then the opponent's next move and the reply to it, up to MaxPlanDepth (3)
// replies. Every move of every line is checked against the position
// (*PlanError wrapping ErrPlanIllegal and the engine's reason, which line
// and move; a line without a reply too); ErrPlanTooLong, ErrPlanTooDeep,
// ErrPlanConflict for two lines that answer the same moves differently,
// ErrOwnTurn. When the opponent plays the move a line starts with, the reply
// is played at once, at the same time, by the same Play call (PlayTurn
// says so; the Move is marked Planned), and the lines that go on stay as
// the plan; when they play another move, the plan is dropped. A reply that
// is no longer legal (a plan stored under other rules: Restore checks only
// a plan's shape) drops its lines with a PlanNote for the owner, who then
// moves themself. Plans are private: Plan gives a player their own; the
// PlanLog of every plan set is given only once the game has ended, for
// review and export. A game's end drops the plans that stand.
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
