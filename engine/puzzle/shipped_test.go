package puzzle

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

// boardOf names the kind of board of l.
func boardOf(l *engine.Layout) Board {
	switch {
	case l.Equal(engine.Square()):
		return Square
	case l.IsSquare():
		return Random
	}
	return Irregular
}

func TestShippedPuzzles(t *testing.T) {
	// Shipped reads every puzzle with Check: the record replays and
	// every move of the solution is legal in turn.
	ps, err := Shipped()
	require.NoError(t, err)
	require.NotEmpty(t, ps)
	boards := map[Board]int{}
	rules := map[engine.Rules]int{}
	for i := range ps {
		require.NoError(t, ps[i].Check(), ps[i].ID)
		boards[boardOf(ps[i].Record.Layout)]++
		rules[ps[i].Record.Rules]++
	}
	t.Logf("%d puzzles; boards %v; rules %v", len(ps), boards, rules)
	assert.Len(t, boards, len(Boards), "every kind of board")
	assert.Len(t, rules, len(rulesInTurn), "every rule set")
}

func TestShippedSampleReprovedByBruteForce(t *testing.T) {
	ps, err := Shipped()
	require.NoError(t, err)
	left := func(p *Puzzle) int {
		pos, err := p.Position()
		require.NoError(t, err)
		return engine.MaxPly - pos.Ply()
	}
	// The brute force is fast enough for the puzzles closest to the end:
	// re-prove the 100 of them with the fewest marbles left.
	slices.SortStableFunc(ps, func(a, b Puzzle) int { return left(&a) - left(&b) })
	for i := range ps[:min(100, len(ps))] {
		t.Run(ps[i].ID, func(t *testing.T) { reprove(t, &ps[i]) })
	}
}

func TestBrokenSetNamesFileAndLine(t *testing.T) {
	lines := bytes.SplitAfter(shipped, []byte("\n"))
	require.Greater(t, len(lines), 3)
	broken := slices.Concat(lines[0], lines[1], []byte("{\"id\":\"x\"}\n"), lines[2])
	_, err := readNamed(ShippedFile, broken)
	var fe *FileError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, 3, fe.Line)
	assert.True(t, strings.HasPrefix(err.Error(), ShippedFile+": line 3: "), err.Error())
}
