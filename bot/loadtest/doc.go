// Package loadtest drives the real kulamibot, in HTTP mode, with many
// games at once against the fake Discord of bot/discordtest, and measures
// what players would feel: how fast each kind of interaction is answered,
// how long a move takes to show its new board, the bot's throughput and its
// peak memory.
//
// The load is a Go test, for the fake Discord needs a testing.TB:
//
//	go test ./bot/loadtest -run TestLoad -v -timeout 30m -args \
//		-games 200 -duration 60s -latency 50ms-100ms -think 0 -layouts square,random,irregular
//
// Run builds kulamibot (or takes the binary Config.Bot names), starts it as
// a process of its own with a fresh database, so that its peak RSS
// (VmHWM) is the bot's alone, and puts a latencyProxy between the bot and
// the fake: every REST call of the bot waits a random time in the
// configured range before the fake serves it. Each game is a table: a
// channel with two users who challenge, accept and then play legal moves,
// read from the select menus of the board message the fake received, by
// clicking the menu or, now and then, typing /kulami move after its
// autocomplete; when a game ends they start the next. When the run ends
// the bot is stopped and its database is checked against what the players
// saw: every game holds exactly the moves whose boards came back, in
// order.
//
// Config.Fault injects a fault while the players play (fault.go): the
// proxy answers a share of the bot's REST calls 500 or holds them until
// the bot gives up; the bot's PostgreSQL connections are ended now and
// then, or one game's row is locked at a time; or extra users storm the
// bot with reviews or replays (inject.go); or every table starts within
// two seconds while the bot restarts (burst). Config.Burn runs busy
// loops beside the bot (burn.go). Under a fault a player told
// that a move failed looks at the channel and tries another hole, so
// that the database tells which try it stored; the report counts the
// moves stored that a player was told failed, the moves stored that no
// board posted shows, and the boards later than 3 seconds of the games
// the fault did not hold (faultLog), and the answers "busy" for games no
// fault locked.
//
// Report.Print writes the figures; Report.Problems lists what went wrong
// (failed interactions without a fault, requests Discord would refuse, a
// database that disagrees with the players), which is all a test asserts: timings depend
// on the machine and are never asserted.
package loadtest
