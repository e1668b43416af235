package ai_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
)

func TestSearcherPlaysGames(t *testing.T) {
	// One Searcher plays both sides of two games on different layouts,
	// so its tree is rerooted by one move, by none (the next game's
	// first position) and thrown away; every move is legal and counts
	// only the playouts of its own search.
	c := fixed(3000)
	c.SpendAll = true
	s := ai.NewSearcher(c)
	for _, seed := range []uint64{1, 2} {
		pos := engine.NewPosition(engine.RandomIrregular(seed), engine.Red)
		for !pos.IsOver() {
			m, err := s.Move(context.Background(), pos, engine.Full)
			require.NoError(t, err)
			require.NoError(t, pos.Check(m.Cell), "move %d", pos.Ply()+1)
			if !m.Proven && pos.Legal().Len() > 1 {
				assert.Equal(t, 3000, m.Playouts, "move %d", pos.Ply()+1)
				assert.InDelta(t, 0.5, m.WinChance, 0.5)
			}
			require.NoError(t, pos.Play(m.Cell))
		}
	}
}

func TestSearchersKeepTheRecentGames(t *testing.T) {
	var ss ai.Searchers
	c := ai.Hard.Config()
	first := ss.For(1, c)
	assert.Same(t, first, ss.For(1, c), "the same game, the same settings")
	second := ss.For(2, c)
	assert.NotSame(t, first, second)
	assert.Same(t, first, ss.For(1, c), "two games are kept")
	ss.For(3, c) // drops game 2, asked for least recently
	assert.Same(t, first, ss.For(1, c))
	assert.NotSame(t, second, ss.For(2, c), "game 2 was dropped")

	other := c
	other.Time /= 2
	changed := ss.For(1, other)
	assert.NotSame(t, first, changed, "new settings, a new searcher")
	assert.Equal(t, other, changed.Config)

	one := ai.Searchers{Games: 1}
	a := one.For(1, c)
	one.For(2, c)
	assert.NotSame(t, a, one.For(1, c), "one game kept")
}

func TestHardWithPlayoutsIsReproducible(t *testing.T) {
	// With a playout budget and no clock, Hard plays the same game every
	// time, its endgame solver included: the arena's --playouts relies on
	// it, to compare players without the machine's load in the result.
	play := func() string {
		c := ai.Hard.Config()
		c.Time, c.Playouts, c.Seed = 0, 2000, 7
		players := [2]ai.Player{ai.NewSearcher(c), ai.NewSearcher(c)}
		g, err := ai.PlayGame(context.Background(), engine.RandomIrregular(3), engine.Red, engine.Full, players)
		require.NoError(t, err)
		return g.Record.String()
	}
	first := play()
	for range 3 {
		assert.Equal(t, first, play())
	}
}
