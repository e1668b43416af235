// Package ai is Kulami's computer opponent, and the baselines it is
// measured against.
//
// The opponent is one search, Monte Carlo tree search, set up three ways
// (Level: Easy, Medium, Hard). From the position to move it plays many
// games to the end with random moves (half a million to 700,000 a second
// per core, the tree search included, on the machine it was tuned on), each
// scored under the game's rule set with engine.Scorer, and grows a
// tree towards the moves whose games it wins. Moves are picked with UCT,
// blended early on with RAVE (all-moves-as-first: a hole that won when a
// colour played it at any later point counts a little for playing it
// now). Each core grows its own tree and their counts are added up at the
// end (root parallelism), so a fixed seed and playout budget give the same
// move on every run. With few marbles left it first tries an exact
// alpha-beta search to the end of the game, and a proven move is played
// with a WinChance of exactly 1, ½ or 0.
//
// Hard searches its whole budget (DefaultTime, 2 s a move), counts the
// margin of each random game a little besides its result, so that it
// prefers wide wins, plays one move in seven of its random games where it
// gains most on the panels, and from 20 marbles left runs the endgame solver on
// one core alongside the tree search, widening a proven win by as much as
// it can prove in time. Played through a Searcher, it searches on from
// the subtree of the last two moves of the tree it grew for its previous
// move. Medium stops after a few thousand playouts; Easy after a few
// hundred, and draws its move with weights that favour the moves it
// searched most, so it makes the plausible mistakes of a beginner.
// HardOld is Hard as it was before these changes, for the arena to
// measure Hard against.
//
// The baselines are Random, Greedy (the best score after one move),
// AlphaBeta (depth-first search with the score margin as evaluation, as
// deep as its time allows) and Deep (the same search to a fixed depth of 8
// to 25 plies, without a time limit: the strongest open-source Kulami
// program known, rebuilt from its description). PlayGame plays two
// players against each other.
//
// Every Player here is safe for concurrent use: a bot may ask for moves in
// many games at once. All but Searcher are plain values; a Searcher keeps
// its trees between moves (Searchers keeps those of a server's last few
// games). Each search uses every core for its budget, so a server should
// queue searches rather than run many at once, and each holds up to
// DefaultMaxNodes nodes (48 MiB) per core while it runs.
//
// Usage:
//
//	ctx, cancel := context.WithTimeout(ctx, 3*time.Second) // the most the caller waits
//	defer cancel()
//	m, err := ai.Hard.Move(ctx, pos, engine.Full)
//	if err != nil { ... } // engine.ErrGameOver, or ctx's error if cancelled
//	fmt.Printf("%s (%.0f%% to win)\n", m.Cell, 100*m.WinChance)
package ai
