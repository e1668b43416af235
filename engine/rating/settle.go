package rating

// settleLimit bounds GamesToSettle: a rating that would take longer (only
// an absurd volatility does) is said to need that many games.
const settleLimit = 50

// GamesToSettle is how many more games r needs before it is no longer
// provisional, if each of them is a draw against an opponent exactly like
// the player (the same rating and RD): an estimate to tell the player, as
// real games narrow the RD a little more or less depending on the
// opponents. It is 0 for a rating that is not provisional, 13 for a
// new player, and at most settleLimit.
func GamesToSettle(r Rating) int {
	n := 0
	for ; Provisional(r) && n < settleLimit; n++ {
		r, _ = Rate(r, r, Draw)
	}
	return n
}
