// Package bot is the Kulami Discord application: the /kulami command, the
// buttons and menus of its messages, and the scheduler of clocks and
// reminders. It is fed interactions by either transport, the gateway
// (RunGateway) or the HTTP endpoint (HTTPHandler), and answers them through
// the same handlers.
//
// # The path of one click
//
// An interaction arrives (gateway.go or http.go) and handle (router.go)
// finds its handler: commandHandlers by subcommand, componentHandlers by
// the action of its custom ID (customid.go). A handler parses what the
// user sent, then asks the game: update (change.go) runs one method of
// engine/game (Play, Resign, Abort, OfferDraw, …) on the stored game inside
// the store's write transaction — one durable commit for the move, the
// clock, the result and the ratings. It then renders the board (board.go,
// with package draw), posts it (respond.go for the answer to the
// interaction, discord.go for messages of the bot) and notes the new
// board's message with the store, which costs no commit. When the computer
// is to move, its move is queued as a job (ai.go) with the bot's runner
// of slow work (work.go, package jobs), which runs it off the player's
// goroutine, one search at a time and before the reviews waiting, and
// posts its board with the bot's token.
//
// A refusal (not your turn, an illegal hole, a board out of date, …) comes
// back from engine/game as a sentinel error; explain (errors.go) is the one
// place that words it for the user, in a message only they see.
//
// # Languages
//
// Every text is a message of bot/i18n, in the language of who reads it
// (lang.go): what one person sees in their interaction's locale, what the
// channel sees in the server's language (/kulami settings language, else
// the guild's locale); the scheduler takes the guild's locale as last seen
// and a direct message its recipient's.
//
// # Where things live
//
//   - challenge.go: /kulami challenge, accept, decline, withdraw, threads
//   - move.go: playing a hole (menu or /kulami move), autocomplete, /kulami board
//   - resign.go, drawoffer.go: resigning, aborting, draw offers
//   - ai.go: /kulami play, the computer's moves, /kulami hint
//   - ladder.go, history.go: leaderboard, stats; history, export
//   - settings.go: /kulami notify, /kulami settings
//   - rules.go: /kulami rules and help; commands.go: the command tree
//   - schedule.go: reminders, timeouts, expiry, lost computer moves
//   - board.go: the board message; respond.go: answering interactions,
//     whose answer moves through the states of answer.go
//   - lang.go: which language each message is in
//   - games.go: /kulami games; rematch.go: the buttons of a final board and
//     rematches; replay_gif.go: the animated replay; review.go: /kulami
//     review, its background analysis and its step buttons
//   - metrics.go: what the bot tells its Metrics for its operators
//     (package bot/metrics counts it for Prometheus)
//
// A Bot is safe for concurrent use: Discord delivers interactions
// concurrently.
package bot
