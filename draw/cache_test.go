package draw

import (
	"testing"

	"github.com/kulami/kulami/engine"
	"github.com/stretchr/testify/assert"
)

func TestBoardCacheIsBounded(t *testing.T) {
	c := newBoardCache(2)
	a, b, d := engine.RandomSquare(1), engine.RandomSquare(2), engine.RandomSquare(3)
	first := c.get(a, 400, Dark)
	assert.Same(t, first, c.get(a, 400, Dark), "a kept board is reused")
	c.get(b, 400, Dark)
	c.get(a, 400, Dark) // a is now the most recent
	c.get(d, 400, Dark) // evicts b
	assert.Equal(t, 2, c.len())
	assert.Same(t, first, c.get(a, 400, Dark), "the most recently used board stays")
	assert.NotSame(t, first, c.get(a, 400, Light), "the theme is part of the key")
	assert.Equal(t, 2, c.len())
}
