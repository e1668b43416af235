package bot

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestReplaysBudget: the replays kept fit the budget of bytes, the least
// recently used going first; a replay not drawn yet costs nothing; a
// language has its own replay.
func TestReplaysBudget(t *testing.T) {
	rs := newReplays(10)
	ka, kb := replayKey{guild: "1", game: 1, lang: "en"}, replayKey{guild: "1", game: 2, lang: "en"}
	a := rs.Get(ka, newReplay)
	rs.Size(a, 6)
	b := rs.Get(kb, newReplay)
	assert.Same(t, a.Value, rs.Get(ka, newReplay).Value, "kept")
	rs.Size(b, 6)
	_, used := rs.Stats()
	assert.Equal(t, 6, used)
	assert.Same(t, b.Value, rs.Get(kb, newReplay).Value, "the last drawn is kept")
	assert.NotSame(t, a.Value, rs.Get(ka, newReplay).Value, "the least recently used went to fit the budget")
	assert.NotSame(t, b.Value, rs.Get(replayKey{guild: "1", game: 2, lang: "de"}, newReplay).Value, "a replay a language")
}
