// Package review analyses a finished game of Kulami: the computer's
// verdict on every move, the chance of each player to win after it, and
// the biggest mistakes of each player with the move the computer would
// have played instead.
//
// Analyse searches the position before each move once with the computer
// opponent's search (package ai, at ai.Hard's settings but with a fixed
// playout budget on one core, so a seed gives the same analysis on every
// machine). The value after a move is the next position's value from the
// other side, so a game of n moves costs n searches; near the end the
// exact endgame search decides positions, and their verdicts (win, draw,
// loss) are exact.
//
// An Analysis encodes to JSON stably, with a version, to be stored with
// the finished game and computed once.
//
// Usage:
//
//	a, err := review.Analyse(ctx, rec, review.Options{Seed: 1, Progress: func(done, total int) { ... }})
//	if err != nil { ... } // review.ErrBadRecord, or ctx's error
//	red := a.RedChances()            // red's chance before and after every move
//	worst := a.Mistakes(engine.Red, 3) // red's three costliest moves
//
// Analyse is safe for concurrent use; an Analysis is a plain value.
//
// # Budget
//
// DefaultPlayouts (300,000 random games a position, on one core) reviews
// a 56-move game in 20 to 30 s on the project's 2-core machine while
// other work runs on it: BenchmarkReview56, median of five runs, 19.7 s
// with the machine lightly loaded and 26.6 s (19.4 to 39.1 s) at a load
// average of 9 to 12, well inside the minute a player waits. One core
// leaves the other to the games being played. At this budget, when the
// move played was the search's own choice, the values before and after it
// differed by at most 0.056 (43 such moves in two games of ai.Medium
// against itself), so a move is called a mistake only from MinCost, 0.1,
// on.
package review
