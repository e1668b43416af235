package i18n_test

import (
	"testing"

	"github.com/kulami/kulami/bot/i18n"
)

// BenchmarkT is one message with placeholders, as every line of a board's
// text is.
func BenchmarkT(b *testing.B) {
	for b.Loop() {
		_ = i18n.French.T("board.last_move", "Move", 12, "Player", "alice", "Hole", "D4")
	}
}

// BenchmarkN is one plural message, as a menu's placeholder is.
func BenchmarkN(b *testing.B) {
	for b.Loop() {
		_ = i18n.German.N("menu.holes", 12)
	}
}
