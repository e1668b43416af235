// Package rating implements the Glicko-2 rating system for games between two
// players, as described by Mark Glickman in "Example of the Glicko-2 system"
// (glicko.net, 2013, revised 2022): steps 1 to 8, the Illinois algorithm for
// the new volatility, system constant τ = 0.5 (Tau), scale factor 173.7178 and
// convergence tolerance 1e-6.
//
// A Rating has a rating, a rating deviation (RD, the uncertainty: a 95%
// interval is Rating ± 2·RD) and a volatility. Glicko-2 suits players who play
// rarely: a rating that has not been confirmed for a while is uncertain, and
// an uncertain rating moves faster than an established one.
//
// The package imports only the standard library, engine and engine/game
// (for the results it counts), holds no state and is safe for concurrent
// use; ratings are plain values, JSON-friendly for storage.
//
// # Ladders and standings
//
// The package also owns what a finished game does to its players'
// records, so that storage only persists the outcome inside its
// transaction. LadderOf says which Ladder a game counts on: games against
// the computer count on the AI ladder, never on the human one. Count
// takes both players' Standing on that ladder before a game and returns
// them after it: aborted, unstarted and abandoned games count for nothing
// (game.Result.Rated); a rated one grows each rating deviation by the time
// since the player's last game (Decay), updates both ratings (Rate), adds
// the outcome to the Tally, lengthens or ends the Streak and may set a new
// BestWin.
//
// # Seasons
//
// A Season is a calendar quarter in UTC (UTC, not the server's zone, so
// that every process and every guild agrees on when a season ends, and a
// bot moved to another zone keeps its seasons). Ratings carry over: the
// ladders above never restart. Beside them, each season has a seasonal
// ladder of its own for each Ladder, which ranks only the games played in
// it: a finished game counts in the season of its end (Played.Season),
// on its ladder, by Count, exactly as on the all-time ladder, but from
// the players' standings in that season, and every player starts each
// season from the zero Standing, that is New() (1500, RD 350): a fresh
// Glicko-2 start, not the player's carried-over rating. So a season's
// leaderboard is its own Glicko-2 over its games, ordered like the
// all-time one, with the same marks for provisional ratings, and the
// rating deviation grows (Decay) only for time away within the season.
//
// Why a fresh Glicko-2 rather than points or the carried-over rating.
// Started from each player's all-time rating, a season's ratings would
// be the all-time ratings again (the same games rated from the same
// start), so the season would rank nothing new. Points (1, ½, 0) reward
// the number of games over their quality: in slow play, where a game
// lasts days, whoever has the most free time tops the season, and a win
// against the weakest player is worth a win against the strongest.
// Glicko-2 from a fresh start counts whom a player beat in the season
// and how sure that is, and reuses Count, so the season needs no rule of
// its own; its cost is that a season's first games give high,
// provisional ratings, which the leaderboard marks ("1662?").
//
// # Choices
//
// Rating periods. The paper rates all games of a period (ideally 10–15 per
// player) at once. A Discord bot wants the new rating right after each game,
// so Rate treats one game as a rating period of its own for both players,
// computed from both players' ratings before the game, the way lichess
// updates both ratings after every game. Each game thus adds the
// volatility's share of uncertainty (step 6) before its information is
// counted (step 7), so the RD of regular players settles near 60 instead of
// shrinking towards 0, and their ratings keep moving a little with each game
// (lichess scales that share by the time since the last game instead, and
// keeps a minimum RD of 45). Update rates a whole period for callers that batch games; Update with no
// games and Decay are the paper's "did not compete" case, where only the RD
// grows. A caller that wants RD to grow with time away, not just per game,
// applies Decay for the periods elapsed before rating the next game: lichess
// counts 0.21436 periods a day, which brings an established RD of 60 back to
// 110 (provisional) after a year without games.
//
// Clamping. The Glicko-2 paper puts no bound on RD. This package clamps it
// to MaxRD (350, a new player's RD), as the Glicko-1 paper does and as
// lichess clamps to its own initial RD, so that neither a long absence nor a
// surprising result makes a player less known than a newcomer. Rating and
// volatility are not clamped.
//
// Provisional. A rating with RD ≥ ProvisionalRD (110, lichess's threshold
// for showing "1500?") is provisional; a new player leaves that state after
// 10 to 15 games.
// GamesToSettle tells a player how many more games that takes, counting
// draws against an opponent exactly like them (13 for a new player): an
// estimate, as stronger or surer opponents narrow the RD faster.
//
// Why not a library. The Go implementations we found were an early one with
// a pointer-based API (github.com/Kashomon/goglicko), stubs, or ones that
// change the algorithm itself (github.com/treepeck/glicko: fractional periods
// and user-set bounds, under the MPL). None was clearly better than the
// hundred-odd lines of code here, which follow the paper step by step and are
// checked against its worked example; and engine packages import only the
// standard library and each other.
//
// # Usage
//
//	a, b := rating.New(), rating.New()
//	a, b = rating.Rate(a, b, rating.Win) // a beat b
//	if rating.Provisional(a) {
//		// show "1662?" on the leaderboard
//	}
//
//	// Inside the transaction that stores a finished game:
//	after, changes, counted := rating.Count(before, rating.Played{ID: id,
//		Players: g.Players(), IDs: ids, Result: g.Result()}, period)
package rating
