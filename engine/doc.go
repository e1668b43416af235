// Package engine implements the rules of Kulami: layouts of the 17 panels,
// positions, legal moves, scoring and game records.
//
// The rules are those of the project's spec (RULES.md), layouts and records
// follow RECORD.md. The package knows nothing of Discord, images or storage
// and imports only the standard library.
//
// A Layout is immutable and safe for concurrent use. A Position is a small
// value (copy it freely); a single Position is not safe for concurrent use.
//
// Usage:
//
//	l, err := engine.ParseLayout("aabccdee/aabccdee/aabfffee/ghhiijjk/ghhiijjk/llmmmnoo/llpqqnoo/llpqqnoo")
//	if err != nil { ... }
//	p := engine.NewPosition(l, engine.Red)
//	if err := p.PlayMove("d4"); err != nil {
//		var re *engine.RuleError
//		errors.As(err, &re) // re.Code == "occupied", "not-in-line", ...
//	}
//	score := p.Score(engine.Full)
//	winner, decided := score.Winner()
package engine
