// Package bot is the Kulami Discord application: the /kulami command, the
// buttons and menus of its messages, and the scheduler of clocks and
// reminders. It is fed interactions by either transport, the gateway
// (RunGateway) or the HTTP endpoint (HTTPHandler), and answers them through
// the same handlers.
//
// # The path of one click
//
// An interaction arrives (gateway.go or http.go) and Bot.handle
// (router.go) finds its handler: the router's tables, built in New from
// the methods of the handler groups, by subcommand or by the action of its
// custom ID (customid.go). A handler parses what the user sent, then asks
// the game: table.update (change.go) runs one method of engine/game (Play,
// Resign, Abort, OfferDraw, …) on the stored game inside the store's write
// transaction, where nothing but the game changes — one durable commit for
// the move, the clock, the result and the ratings. It then shows the board
// (table.show: views.boardMessage in board.go renders it with package
// draw), posts it (respond.go for the answer to the interaction, the
// outbound type of discord.go for messages of the bot) and notes the new
// board's message with the store, which costs no commit. Once the change
// has committed, a failure is never worded as a refusal: a board Discord
// fails (5xx) is tried again at once and after a back-off, then owed
// (table.owe: the game is due to the scheduler a minute later, the debt's
// durable bound), and the player is told the change is stored
// (storedError); the process tries the board, and that follow-up if
// Discord failed it too, again on the job runner from a second on,
// backing off to 8 s (mend.go), so both come seconds after Discord
// answers again; a board
// posted whose note the store fails (tried twice) is shown, so it is
// answered as a success and left owed: the scheduler's repair finds it in
// the channel and notes it (errUnnoted). When the
// computer is to move, the table queues its move as a job (ai.go) with the
// bot's runner of slow work (work.go, package jobs), which runs it off the
// player's goroutine, one search at a time and before the reviews waiting,
// and posts its board with the bot's token.
//
// # Where the bot cannot post
//
// Installed to a user's account, the commands work in DMs, group DMs and
// servers that never added the bot (place.go tells where an interaction
// comes from). A game there is answer-only: kept under the guild key
// everywhere ("", its own ladder), with the same handlers, table and
// store as any other, but each board, challenge and offer is the answer
// to a player's interaction, a new message that pings whose turn it
// becomes (answer.announce), and never a message of the bot's own; the
// courier (anywhere.go) retires an old board by its interaction's token
// while Discord allows, and the notices (notice.go) tell the players by
// DM, each in their language, what the scheduler does (reminders,
// timeouts, claims, a board owed). The Refresh button
// of such a board shows the game as the store has it.
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
// Each type has one job and holds only what it uses (the small store
// interfaces of store.go, the clock, the parts it calls); none has more
// than 30 methods (shape_test.go). They stay in package bot: the
// interaction, message and error types are shared by every handler, and
// subpackages would export them for nothing.
//
//   - mend.go: the tries again of what Discord failed after a change
//     committed (a board owed, the follow-up saying so)
//   - bot.go: Bot, the public surface and the wiring (New, Register,
//     Close); gateway.go and http.go: RunGateway and HTTPHandler;
//     router.go: Bot.handle, dispatch and the router's tables
//   - handlers, a type per feature: challenges (challenge.go: /kulami
//     challenge, accept, decline, withdraw, threads; rematch.go: the
//     buttons of a final board and rematches), with channels
//     (challenge.go) for the permission check; playing (move.go: playing a
//     hole, autocomplete, /kulami board; resign.go, drawoffer.go:
//     resigning, aborting, draw offers); computer (ai.go: /kulami play and
//     hint); records (ladder.go, history.go, games.go: leaderboard, stats,
//     history, export, games); reviews (review.go: /kulami review, its
//     background analysis and its step buttons; replay_gif.go: the
//     animated replay, kept in replay_cache.go; cooldown.go: the pause
//     between one user's requests); preferences (settings.go: /kulami notify,
//     settings, with the time zones of zones.go and zonenames.go);
//     vacations (vacation.go: /kulami vacation, the games it stops, the
//     scheduler's notice and end of a vacation; newgame.go: the one way
//     every new game starts, where its players live and who is away);
//     tournaments
//     (tournament.go: the group /kulami tournament and the buttons of an
//     announcement; tournament_post.go: the announcement, scheduled event
//     and standings; tournament_store.go: the tournaments' store within
//     an interaction's deadlines); puzzles (puzzle.go: the command
//     /puzzle, a puzzle solved move by move in a message only its player
//     sees; puzzle_stats.go: stats and the puzzle leaderboard;
//     puzzle_post.go: the daily post and its channel; puzzle_store.go:
//     the puzzles' store within an interaction's deadlines); rules.go:
//     /kulami rules and help;
//     commands.go: the command tree
//   - table (change.go, and the computer's moves in ai.go): one change to
//     a stored game (update, asked for by a player's asker or byBot),
//     its new board, the computer's move jobs
//   - scheduler (schedule.go): reminders, timeouts, expiry, lost computer
//     moves, the time given back after an outage (outage.go: the resume,
//     and the giver of the games due before it reached them, beside the
//     passes), the tournaments' work
//     (rounds, tournament_round.go: the step engine/tournament says is
//     due: the start, each round's games, the round's deadline, the next
//     round, the final standings; with their threads, posts and pings),
//     vacations running low or out (handed to vacations), the daily
//     puzzle's posts (handed to puzzles); poked through wakeup
//   - views (board.go, work.go): the board message, rendered within the
//     runner's render bound (as are the review's chart and the replay
//     GIF: the images drawn at once are a core's worth, whatever the
//     storm); the other messages are functions of the language and the
//     data (challengeMessage, reviewMessage, leaderboardMessage, …)
//   - Linked Roles live in their own package, bot/linkedroles, on a
//     store port of their own: the bot only tells them (rolelinks.go:
//     RoleLinks) of the rated games (table), the seasons won (scheduler)
//     and the puzzles that counted (puzzles), shows their line in
//     /kulami settings, and mounts their pages on HTTPHandler
//   - outbound (discord.go): the bot's own messages, DMs, retired boards
//     and edited challenges; respond.go: answering interactions, whose
//     answer moves through the states of answer.go
//   - notices (notice.go): the one way out for everything that pings a
//     player (boards, reminders, claims, time given, vacations, aborts,
//     tournaments, seasons): the reader's quiet hours by engine/game's
//     rule (out of the pings, or a silent message), the reader's
//     language where a message is to one person, the place's links
//   - courier (anywhere.go): what answer-only games say, as answers, and
//     their Refresh; place.go: where an interaction comes from, and the
//     everywhere key
//   - deadline.go: the deadlines of an interaction's storage calls
//     (a slow call is deferred and finished, never refused for its
//     slowness); gate.go: the turns of the writes on one game (one at the
//     store, one waiting, further ones "busy" at once); replay.go: the
//     deliveries seen, and the bridge over a slow deliveries table
//   - locales (lang.go): which language each message is in
//   - errors.go: the one table from errors to the user's words
//   - metrics.go: what the bot tells its Metrics for its operators
//     (package bot/metrics counts it for Prometheus)
//
// A Bot is safe for concurrent use: Discord delivers interactions
// concurrently.
package bot
