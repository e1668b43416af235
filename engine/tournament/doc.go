// Package tournament runs Swiss tournaments for slow play as a domain
// value: settings, players, rounds, pairings, results, byes, withdrawals,
// standings and the round's state machine. It imports only the standard
// library; time is always an argument; every refusal is a sentinel error
// (errors.go). Storage persists a Tournament with MarshalJSON (a versioned
// form); the bot opens the games and reports their results.
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
// A no-show (NoShow: lost on time without a move) loses that game, is
// withdrawn, and may Join again until the next round is paired.
//
// A round is paired at a time p; its deadline is p + days_per_round days.
// Record stores a game's result (Result: first-won, drawn, second-won);
// Adjudicate stores the result the caller computed for a game unfinished
// at the deadline (Overdue lists them), marked adjudicated with the
// caller's reason. The rule of adjudication, which the caller applies
// with the engine (this package knows no board): with 20 holes or fewer
// left, the exact solver's result (if it finishes in its time);
// otherwise the result the hard level's evaluation of the position
// favours (a win for the side it gives more than half the chances, a draw
// at exactly half); a game that is gone (ended without a result before
// the deadline) is a draw. The game itself ends with the same verdict
// (game.Adjudicated) and counts for the ratings like any finished game.
// The round is complete with its last result; after the
// last round the tournament is Finished, otherwise the caller pairs the
// next with PairNext. With duplicate rounds a pairing plays two games on
// the same board (the caller picks the board), the pairing's First moving
// first in game 1 and its Second in game 2; the round score is the sum
// (0–2 points).
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
// Standings ranks everyone, withdrawn players included, on the results
// recorded so far, by:
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
// # Usage
//
//	t, err := tournament.New(tournament.Settings{Name: "Autumn Swiss", Rounds: 5,
//		DaysPerRound: 7, Duplicate: true, MaxPlayers: 16}, organiser, now)
//	err = t.Join(player, rating, now) // ErrFull, ErrAlreadyJoined, ...
//	if t.Due(now) {
//		err = t.Start(now) // pairs round 1
//	}
//	for _, ref := range t.Overdue(now) {
//		err = t.Adjudicate(ref, tournament.FirstWon, "exact solver", now)
//	}
//	if phase, _ := t.State(); phase == tournament.Between {
//		err = t.PairNext(now)
//	}
//	standings := t.Standings()
//	b, err := json.Marshal(t) // {"version":1,...}
package tournament
