// Package tournament runs Swiss tournaments for slow play as a domain
// value: settings, players, rounds, pairings, results, byes, withdrawals,
// standings and the round's state machine, and the rules that join a
// tournament to its games (package engine/game): what a round's game is
// played with, its round's deadline, forfeits and adjudication, the
// mapping of a game's end to the round's result and back, the step due in
// each phase, and cancel. It imports the standard library and the engine
// (engine, engine/game, engine/ai for adjudication); time is always an
// argument; every refusal is a sentinel error (errors.go). Storage
// persists a Tournament with MarshalJSON (a versioned form) and calls
// GameEnded in the transaction that ends a round's game; the bot runs the
// steps (Next), opens the games, posts and pings.
//
// # Life of a tournament
//
// New checks the Settings: a name of 1–100 characters without mentions
// ("@everyone", "@here", "<@…>", "<#…>"; the caller escapes names it shows
// elsewhere), 1–15 rounds, 1–30 days per round, a player limit of 3–256 or
// none (0, meaning 256), and a start time within 90 days or "when full"
// (a zero Start, which needs a limit). With a limit, the rounds must be
// playable by that many players without a rematch (MostRounds: n−1 for an
// even n, n for an odd one).
//
// The phases (Phase, State):
//
//	Registration --Start--> Playing(1) --last result--> Between(1) --PairNext--> Playing(2) ...
//	Playing(k) --last result of the last round--> Finished
//	Between(k) --PairNext with fewer than 2 players left--> Finished
//	any phase but Finished --Cancel--> Cancelled
//
// Due says when a tournament taking players should start (its start time
// has come, or it is full); Start pairs round 1 and refuses fewer than 3
// players (ErrTooFewPlayers) and more rounds than the players can play
// without a rematch (a *RoundsError naming the most). The organiser may
// call Start early; permissions are the caller's.
//
// Players Join and Leave freely before the start; afterwards Leave is
// refused (ErrStarted: the player withdraws instead), Withdraw takes a
// player out of later rounds (their games keep counting), and Join still
// admits players until half the rounds have been paired
// (2·paired < rounds); a late joiner scores nothing for the rounds missed.
// A withdrawn player refused then gets ErrRejoinClosed, a newcomer
// ErrLateJoinClosed.
//
// A round is paired at a time p; its deadline is p + days_per_round days.
// Record stores a game's result (Result: first-won, drawn, second-won).
// The round is complete with its last result; after the last round the
// tournament is Finished, otherwise the next is paired with PairNext.
// With duplicate rounds a pairing plays two games on the same board, the
// pairing's First moving first in game 1 and its Second in game 2; the
// round score is the sum (0–2 points).
//
// # Round games
//
// GameConfig says what a round's game is played with: the caller's move
// clock (the tournament's, else the server's) and where the players live,
// with the tournament's part: the game's First moves first, as red; the
// board of the settings (the classic square, or a random square or
// irregular board drawn for the pairing, the same for both games of a
// duplicate pairing); the rules; and the round's deadline as the game's
// cutoff (game.Config.Cutoff). So the round's deadline bounds every
// move's deadline: a player must move by their clock's deadline or the
// round's, whichever comes first (the game's first move by a day before
// the round's deadline, or half the time to it if that is less, so that
// a first move at the last moment leaves the reply time rather than a
// forfeit: game.MaxReplyShare), and that is what the board and the
// reminders name; the reminders count back from it. The clocks keep their
// own time, so that a clock for the whole game loses nothing to it.
//
// GameEnded maps a game's end to the round's result, in the transaction
// that ends the game: a result played out (the board, a resignation, a
// loss on time, a draw by agreement) is recorded as it is; a forfeit
// (game.Unstarted: a clock that ran out before its player's first move)
// is that player's Forfeit; a game called off (abandoned) records nothing
// and waits for the deadline. EndAsJudged maps an adjudication back to
// the game: it ends as the tournament judged it (game.Adjudicated).
//
// # Forfeits
//
// A player who makes no move in a round's game by the time their clock,
// bounded by the round's deadline, runs out forfeits it (Forfeit): the
// opponent wins by forfeit, 1–0. The game ends as game.Unstarted, which
// is not rated: no game was played (as FIDE and the chess sites do), so
// the rating ladders do not count it either; the tournament does. If
// both players of a duplicate pairing forfeit the game they move first
// in, neither made a move: a double forfeit, both lose both games (0–0,
// Pairing.DoubleForfeit). With one game a pairing has no double forfeit:
// its second player never had the turn.
//
// A forfeit withdraws its player from the rounds still to come (none
// after the last round), once however many games of the pairing they
// forfeit (WithdrawnBy names the game that did, where they are told). They
// may come back (Comeback, Join) while the round of the forfeit is being
// played; once it is complete the next round is paired at once, so after
// that only as late joiners, while late joins stay open (with the next
// round paired); otherwise Join refuses them (ErrRejoinClosed), and they
// are told so rather than invited.
//
// # The round's deadline
//
// At the deadline (Overdue lists the games still going on), each game is
// closed by its clocks if they decide it (EndOnTime: a player who has
// not made their first move forfeits; a clock that ran out before the
// deadline loses on time, a claim not made being made for the opponent),
// else adjudicated: only a game in which both players moved is
// adjudicated (Judge, ErrNotAdjudicable otherwise), so a player who never
// moved never wins by an evaluation. Judge's rule: with 20 holes or fewer
// left, the exact solver's result (if it finishes in its time); otherwise
// the result the hard level's evaluation of the position favours (a win
// for the side it gives more than half the chances, a draw at exactly
// half). Adjudicate records the verdict with its reason, then the game
// ends with it (EndAsJudged) and counts for the ratings like any finished
// game. A game that is gone (it ended without a result before the
// deadline: its channel was deleted) is a draw (Gone).
//
// # Steps
//
// Next says the step a tournament owes its runner in each phase, and
// when: Begin (its start is due, or at its start time; Start, or Cancel
// when it cannot start), OpenGames (at once, the games ToOpen), CloseRound
// (at the round's deadline), PairRound (at once, PairNext), PostFinal (at
// once, the final standings), or Idle. The runner keeps which games it
// opened and whether it posted the final standings (Progress).
//
// # Cancel
//
// The organiser may Cancel a tournament that is not finished: no result
// is recorded any more. Its games still in progress (InProgress) go on as
// casual games (Release): the round's deadline no longer bounds them
// (game.Game.Lift), they are played out under their own move clock and
// count like any casual game (rated, unless called off); nobody is
// withdrawn or forfeited by them any more. Its standings, pairings and
// results stay as they were.
//
// # Points and byes
//
// A win is 1 point, a draw ½, a loss 0 (Points counts half points). When
// the number of active players is odd, one gets a bye worth a won round:
// 1 point, or 2 with duplicate rounds (the two games it stands for), so
// that the bye is neither a reward nor a penalty next to a won mini-match.
// The bye goes to a low-placed player who has not had one; a player gets a
// second bye only when every pairing of the others would need a rematch or
// a second bye too (see Pairing).
//
// # Pairing
//
// Round 1 and every later round are paired the same way. The active
// players are placed by points, then rating, then join order; players
// with equal points form a score group. The pairing is a maximum-weight
// matching, among those pairing everyone (with a bye vertex for an odd
// number), on the complete graph of the players, found with Edmonds'
// blossom algorithm (matching.go, O(n³), written here after Galil's
// survey and checked against brute force). Each pair has a penalty on
// five levels, from the most important:
//
//  1. Repeat: 1 for a rematch, or for a bye to a player who had one.
//  2. First-move limits: per player, 1 if no choice of who starts keeps
//     them from moving first three times in a row or from having firsts
//     and seconds more than 2 apart (0–2 per pair).
//  3. Score: the squared difference of the two players' points, in half
//     points; for the bye, (points − lowest points + ½ point)².
//  4. Preferences: per player, 1 if they do not get the side they prefer:
//     the side they moved on less, or, when even, the one they did not
//     move on last (0–2 per pair).
//  5. Fold: within a score group of g players placed at positions i < j,
//     ||j−i| − ⌊g/2⌋|, which is 0 exactly for the top half against the
//     bottom half (so round 1 is the top half by rating against the bottom
//     half); across groups, how far the higher player is from the bottom
//     of its group plus how far the lower one is from the top of its own;
//     for the bye, how far the player is from the bottom of the field.
//
// An edge weighs big − Σ penalty·scale, each level's scale larger than any
// sum of lower-level penalties over a whole matching (weights): the
// matching minimises the levels in order. So when the constraints cannot
// all hold, first-move balance (level 2) gives way first, a rematch or a
// second bye (level 1) only when no pairing without one exists, and every
// active player is always paired or given the bye. Within a pair, the
// player moving first is the choice that breaks fewer limits, then meets
// more preferences; on a tie the better placed player gets their
// preference, then the other; with none, the better placed player starts
// on odd boards. Boards are ordered by their better placed player.
//
// # Standings
//
// Standings ranks everyone, withdrawn players included, on the rounds
// completed so far (Completed: the round being played, its bye included,
// counts once it is complete), by:
//
//  1. Points, byes included.
//  2. Buchholz Cut-1: Buchholz without its lowest contribution.
//  3. Buchholz: the sum over the rounds paired so far of the opponent's
//     points. A round without an opponent (a bye, a round missed before a
//     late join or after a withdrawal) counts the player's own points, as
//     a virtual opponent (FIDE's convention for unplayed rounds), so a bye
//     neither helps nor hurts; an opponent who withdrew counts with the
//     points they have.
//  4. Sonneborn–Berger: the sum over the rounds played of the opponent's
//     points times the share of the round won (1, ½, 0; with duplicate
//     rounds the round score over 2). Byes and unplayed rounds add nothing.
//  5. Direct encounter: among players tied on all of the above, the points
//     each scored against the others, if every two of them met; otherwise
//     it is not used (0 for all).
//
// Players still tied share a rank and are listed by rating, then join
// order.
//
// The podium (Podium) gives the places 1 to 3 to the players who did not
// withdraw, placed among themselves by rank: players tied share a place
// (and a medal), and the places they fill are skipped (two second, then
// nobody third); a withdrawn player takes no place.
//
// # Usage
//
//	t, err := tournament.New(tournament.Settings{Name: "Autumn Swiss", Rounds: 5,
//		DaysPerRound: 7, Duplicate: true, MaxPlayers: 16}, organiser, now)
//	err = t.Join(player, rating, now) // ErrFull, ErrAlreadyJoined, ...
//	if t.Due(now) {
//		err = t.Start(now) // pairs round 1
//	}
//	cfg, err := t.GameConfig(ref, seed, names, clockAndPlaces) // then game.New(cfg, now)
//	changed, err := t.GameEnded(ref, g)                       // in the game's last transaction
//	for _, ref := range t.Overdue(now) {                      // at the round's deadline
//		if ended, err := t.EndOnTime(ref, g, now); !ended {
//			v, err := t.Judge(ctx, ref, g, 0)
//			err = t.Adjudicate(ref, v.Result, v.Reason, now)
//			err = t.EndAsJudged(ref, g, now)
//		}
//	}
//	switch step, at := t.Next(progress, changed); step {
//	case tournament.PairRound:
//		err = t.PairNext(now)
//	}
//	standings := t.Standings()
//	b, err := json.Marshal(t) // {"version":1,...}
package tournament
