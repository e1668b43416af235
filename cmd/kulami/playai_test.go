package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

func TestPlayAgainstTheComputer(t *testing.T) {
	t.Run("computer first", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "game.kul")
		o := mustRun(t, "quit\n", "play", "--ai", "easy", "--ai-first", "--record", path)
		require.Equal(t, statusOK, o.code, o.stderr)
		assert.Contains(t, o.stdout, "Kulami against the computer: Black plays")
		assert.Contains(t, o.stdout, "Red (Computer (easy)) is thinking...\nRed (Computer (easy)) plays ")
		assert.Contains(t, o.stdout, "Black ●> ")

		b, err := os.ReadFile(path)
		require.NoError(t, err)
		rec := engine.MustParseRecord(string(b))
		require.Len(t, rec.Moves, 1, "the computer's first marble")
		name, _ := rec.Tag("Red")
		assert.Equal(t, "Computer (easy)", name)
	})
	t.Run("player first, undo", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "game.kul")
		o := mustRun(t, "D4\nundo\nundo\nquit\n", "play", "--ai", "medium", "--black", "bob", "--record", path)
		require.Equal(t, statusOK, o.code, o.stderr)
		assert.Contains(t, o.stdout, "Black (Computer (medium)) plays ")
		assert.Contains(t, o.stdout, "Took back the computer's reply at ")
		assert.Contains(t, o.stdout, "Took back the marble Red placed at D4.")
		assert.Contains(t, o.stdout, "There is no marble to take back.")
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		rec := engine.MustParseRecord(string(b))
		assert.Empty(t, rec.Moves)
		name, _ := rec.Tag("Black")
		assert.Equal(t, "Computer (medium)", name, "the computer's name wins over --black")
	})
	t.Run("no marble of yours", func(t *testing.T) {
		o := mustRun(t, "undo\nquit\n", "play", "--ai", "easy", "--ai-first")
		require.Equal(t, statusOK, o.code, o.stderr)
		assert.Contains(t, o.stdout, "There is no marble of yours to take back.")
	})
}

// everyCell types every cell of the 8×8 square, one a line, round and
// round: the first legal one is played each turn, the others refused.
type everyCell struct{ n int }

func (r *everyCell) Read(b []byte) (int, error) {
	line := engine.CellAt(r.n%8, r.n/8%8).String() + "\n"
	r.n++
	return copy(b, line), nil
}

func TestPlayAgainstTheComputerToTheEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.kul")
	o := mustRunCtx(t, context.Background(), &everyCell{}, "play", "--ai", "easy", "--rules", "full", "--record", path)
	require.Equal(t, statusOK, o.code, o.stderr)

	b, err := os.ReadFile(path)
	require.NoError(t, err)
	rec := engine.MustParseRecord(string(b))
	pos, err := rec.Replay()
	require.NoError(t, err)
	require.True(t, pos.IsOver(), "played to the end")
	result, _ := rec.Tag("Result")
	assert.NotEqual(t, "*", result)
	assert.Equal(t, len(rec.Moves)/2, strings.Count(o.stdout, "Black (Computer (easy)) is thinking..."), "the computer's turns")
}

func TestPlayAgainstTheComputerInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o := mustRunCtx(t, ctx, strings.NewReader(""), "play", "--ai", "hard", "--ai-first")
	assert.Equal(t, statusInterrupted, o.code)
	assert.Contains(t, o.stdout, "Interrupted: the game stops after")
}

func TestPlayAIErrors(t *testing.T) {
	assertFailure(t, mustRun(t, "", "play", "--ai", "expert"), statusUsage, "play", "--ai", "easy, medium or hard", "expert")
	assertFailure(t, mustRun(t, "", "play", "--ai-first"), statusUsage, "play", "--ai-first needs --ai LEVEL")
}
