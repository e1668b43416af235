// Kulami is the command-line tool of the kulami project: it plays Kulami
// with two people at one terminal or against the computer, replays game
// records, draws layouts, board images and animated replays, and runs the
// computer opponent for analysis (think, review) and matches (arena).
//
// Usage:
//
//	kulami play [--layout square|random|irregular|LAYOUT] [--rules basic|area|lines|full]
//	            [--first red|black] [--seed N] [--record FILE] [--red NAME] [--black NAME]
//	            [--ai easy|medium|hard] [--ai-first]
//	kulami replay [--json] [FILE|-]
//	kulami layout [square|random|irregular|LAYOUT] [--seed N]
//	kulami render [--out FILE] [--ply N] [--size PX] [--theme dark|light] [--reason TEXT] [--gif] [FILE|-]
//	kulami review [--playouts N] [--time 30s] [--workers N] [--seed N] [--json]
//	              [--chart FILE] [--theme dark|light] [FILE|-]
//	kulami think [--level easy|medium|hard] [--time 1s] [--json] [FILE|-]
//	kulami arena --a PLAYER --b PLAYER [--games N] [--time 500ms] [--layout square|random|irregular]
//	             [--rules basic|area|lines|full|all] [--deep-cut PLIES] [--seed N] [--json]
//	kulami help [COMMAND]
//
// Flags may come before or after the other arguments. Records and layout
// strings follow RECORD.md, the rules RULES.md.
//
// Kulami speaks English, French, Spanish and German: the language --lang
// names (anywhere on the command line), else the one of the locale
// (LC_ALL, LC_MESSAGES, LANG, such as fr_FR.UTF-8; lang.go). Its texts,
// the help included, are the messages cli.* of the bot's message files
// (bot/i18n), and the board images' words are the bot's (Lang.Draw). Flag
// names, layout kinds, rule sets, levels and JSON output stay as they are.
//
// main turns SIGINT and SIGTERM into a cancelled context and calls run,
// which end-to-end tests call too. Each subcommand is one entry of the
// dispatch table in main.go and one file; the terminal board printer
// (board.go, status.go) is shared by all of them.
//
// Exit status: 0 done, also when a replayed record holds an illegal move
// (replay reports it: it is a fact about the game, not a failure); 1 bad
// input (unreadable file, malformed record, failed write); 2 a mistake in
// the command line (unknown command, bad flag or argument, including a bad
// layout string given as an argument); 130 interrupted.
package main
