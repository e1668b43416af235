package bot

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestReplaysBudget: the replays kept fit the budget of bytes, the least
// recently used going first; a replay not drawn yet costs nothing.
func TestReplaysBudget(t *testing.T) {
	rs := newReplays(10)
	a := rs.get(replayKey{guild: "1", game: 1, lang: "en"})
	a.gif = make([]byte, 6)
	rs.drawn(a)
	b := rs.get(replayKey{guild: "1", game: 2, lang: "en"})
	assert.Same(t, a, rs.get(a.key), "kept")
	b.gif = make([]byte, 6)
	rs.drawn(b)
	assert.Equal(t, 6, rs.used)
	assert.Same(t, b, rs.get(b.key), "the last drawn is kept")
	assert.NotSame(t, a, rs.get(a.key), "the least recently used went to fit the budget")
	assert.NotSame(t, a, rs.get(replayKey{guild: "1", game: 1, lang: "de"}), "a replay a language")
}
