// Package puzzle makes Kulami puzzles with the exact endgame solver, reads
// and writes them, and checks a player's moves against them.
//
// # What a puzzle is
//
// A puzzle is a position of a game, not over, with at most Generator.Left
// marbles still to place, where the solver (ai.Solve, searched to the end
// of the game) proves that the side to move
//
//   - has exactly one move that wins (Goal "win"), or
//   - has no winning move and exactly one move that draws (Goal "draw").
//
// Positions where the side to move loses whatever it does are not
// puzzles. A puzzle is trivial, and rejected, when Greedy would find it:
// when the move is among those that leave the best score margin after
// one move.
//
// The solution is a line of 1 to MaxMoves moves of the solver's side with
// the best defence in between: after each of its moves the line goes on
// with a reply of the opponent that keeps the solver's result at the goal
// (the best the opponent can do) and after which the solver again has
// exactly one move, of two or more legal ones, that keeps the goal (the
// first such reply in the order of the holes); the line stops when there
// is none, the game ends, or MaxMoves is reached. So every move of the
// solver's side in a solution is the only right one, and any other legal
// move is wrong. The refutation of a wrong move is the opponent's reply
// with the best proven result for it (the first in the order of the holes).
//
// # Themes
//
// The engine names these ideas of a solution (Theme):
//
//   - one-move, two-moves, three-moves: the solver's moves in the line;
//   - last-hole: the first move fills the last free hole of its panel;
//   - panel-tie: the first move breaks a tie on a panel that both colours
//     are on, deciding who holds it;
//   - blockade: a move of the line leaves the opponent no legal hole
//     before the marbles run out, which ends the game;
//   - area, lines: under rules that count them, the first move changes the
//     area or lines bonus between the two colours.
//
// # Difficulty
//
// A puzzle's starting rating, on the Glicko-2 scale of engine/rating, is
// how much search Hard needs to find the first move without its endgame
// solver: its tree search is given 100, 300, 1,000, 3,000, 10,000 and
// 30,000 playouts in turn (one worker, a fixed seed); found with the
// first budget the rating is 1100, and each further budget adds 150 (2000
// if it is never found).
//
// # Generation
//
// Generator.Game plays a game of Hard against itself with a playout
// budget (reproducible: the same seed gives the same game and puzzles on
// every machine) on the board and rule set the seed chooses (square,
// random, irregular in turn; basic, area, lines, full every three seeds)
// and keeps the puzzles of its last moves. Generator.Run does so for
// consecutive seeds on several cores, keeping the order of the seeds.
// Generator.At makes the puzzle at the end of any record, such as a
// finished game's.
//
// # Ratings
//
// Players and puzzles carry Glicko-2 ratings (engine/rating). A puzzle
// starts at its difficulty with a rating deviation of StartRD (200): the
// search's estimate is worth something but not much. Each attempt that
// counts is one game of the player against the puzzle, a rating period
// of its own for both (Rate, as rating.Rate rates a game): solved, the
// player wins; any wrong move, the puzzle wins. Both ratings change in
// the same step, from both ratings before the attempt. Only a player's
// first attempt at a puzzle counts: one tried again (once a player has
// tried every puzzle) changes no rating. A player's rating deviation does
// not grow with time away: puzzles are practice, not a ladder of games.
// A solved puzzle lengthens the player's streak of solved puzzles; a
// failed one ends it.
//
// # The daily puzzle
//
// The daily puzzle of a UTC day (Day) is the same for everybody: among
// the puzzles whose starting rating is in the middle band DailyLow to
// DailyHigh (1250 to 1550), in the order of their IDs, the one DailyIndex
// picks from a hash of the day. The starting rating, not the current one,
// chooses, so that every process picks the same puzzle however the
// ratings have moved; a store records the pick of each day, so a new
// shipped set does not change a day's puzzle once picked.
//
// # File format, version 1
//
// A puzzle file is UTF-8 text, one JSON object a line. The first line is
// the header {"format":"kulami-puzzles","version":1}; every other line,
// blank lines aside, is one puzzle, such as (broken here over two lines)
//
//	{"id":"cb24f8331b05","record":"[Layout \"…\"]\n…","solution":"F7 F2 C3",
//	"goal":"win","rating":1400,"themes":["two-moves","last-hole"],"source":"self-play 12"}
//
// with these fields:
//
//   - id: twelve hex digits, a hash of the record's layout, first colour,
//     rule set and moves (the same position always has the same id);
//   - record: the game up to the puzzle position as a RECORD.md record,
//     its Layout, First and Scoring tags giving the board and rules;
//   - solution: the line, moves as in a record separated by spaces: the
//     solver's moves with the defence between (1, 3 or 5 moves);
//   - goal: "win" or "draw"; rating: the starting difficulty;
//   - themes: from the list above; source: "self-play SEED" or "game ID".
//
// Unknown fields, an unknown version, a record that does not replay, a
// solution with an illegal move, an id that is not the position's or seen
// twice are errors naming the line (FileError). The file
// engine/puzzle/shipped.jsonl is built into the program (Shipped) and
// remade with
//
//	kulami puzzle generate --seed 1 --count 2000 -o engine/puzzle/shipped.jsonl
package puzzle
