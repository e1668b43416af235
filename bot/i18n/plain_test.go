package i18n_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/bot/i18n"
)

// TestPlain: the plain form of a message has none of its Markdown (an
// adjudicated game's « a été **arbitrée** » showed its asterisks on the
// board image), but its values keep theirs, and it says the same words
// as T.
func TestPlain(t *testing.T) {
	for _, l := range i18n.Langs() {
		t.Run(string(l), func(t *testing.T) {
			md := l.T("outcome.adjudicated", "Winner", "a*b", "Loser", "c__d")
			plain := l.Plain("outcome.adjudicated", "Winner", "a*b", "Loser", "c__d")
			assert.Contains(t, md, "**", "the message has Markdown to leave out")
			assert.NotContains(t, strings.NewReplacer("a*b", "", "c__d", "").Replace(plain), "*")
			assert.Contains(t, plain, "a*b")
			assert.Contains(t, plain, "c__d")
			assert.Equal(t, strings.ReplaceAll(md, "**", ""), plain)
			assert.Contains(t, l.Plain("outcome.all_placed", "Marbles", 1234), l.Number(1234), "numbers as T writes them")
		})
	}
}
