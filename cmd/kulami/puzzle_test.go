package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/puzzle"
)

// puzzleFile generates n puzzles from seed 1 into a file and returns its
// path and the puzzles.
func puzzleFile(t *testing.T, n int) (string, []puzzle.Puzzle) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "p.jsonl")
	o := mustRun(t, "", "puzzle", "generate", "--count", "3", "--workers", "2", "-o", path)
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Contains(t, o.stderr, "puzzles: 3 of 3", "progress is shown")
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	ps, err := puzzle.Read(f)
	require.NoError(t, err)
	require.Len(t, ps, n)
	return path, ps
}

func TestPuzzleGenerateIsReproducible(t *testing.T) {
	path, _ := puzzleFile(t, 3)
	o := mustRun(t, "", "puzzle", "generate", "--count", "3", "--workers", "1")
	require.Equal(t, statusOK, o.code, o.stderr)
	want, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(want), o.stdout, "the same seeds make the same file, whatever the workers")
}

func TestPuzzleListJSON(t *testing.T) {
	path, ps := puzzleFile(t, 3)
	o := mustRun(t, "", "puzzle", "list", "--json", "--file", path)
	require.Equal(t, statusOK, o.code, o.stderr)
	lines := strings.Split(strings.TrimSuffix(o.stdout, "\n"), "\n")
	require.Len(t, lines, len(ps))
	for i, line := range lines {
		var got map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &got))
		for _, k := range []string{"id", "record", "solution", "rating", "themes"} {
			assert.Contains(t, got, k)
		}
		assert.Equal(t, ps[i].ID, got["id"])
		assert.Equal(t, ps[i].SolutionText(), got["solution"])
	}
}

func TestPuzzleSolveInTheTerminal(t *testing.T) {
	path, ps := puzzleFile(t, 3)
	p := ps[0]
	var right []string
	for i := 0; i < len(p.Solution); i += 2 {
		right = append(right, p.Solution[i].String())
	}
	o := mustRun(t, "z9\n"+strings.Join(right, "\n")+"\n", "puzzle", "--file", path, "--id", p.ID)
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Contains(t, o.stdout, "Puzzle "+p.ID)
	assert.Contains(t, o.stdout, "Not allowed", "a typed illegal hole is refused")
	assert.Contains(t, o.stdout, "Right! Puzzle "+p.ID+" solved.")

	a, err := p.Start()
	require.NoError(t, err)
	pos := a.Position()
	var wrong string
	for h := range pos.Legal().All() {
		if c := pos.Layout().Cell(h); c != p.Solution[0] {
			wrong = c.String()
			break
		}
	}
	o = mustRun(t, wrong+"\n", "puzzle", "--file", path, "--id", p.ID)
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Contains(t, o.stdout, "is wrong")
	assert.Contains(t, o.stdout, "The solution was "+p.SolutionText())

	o = mustRun(t, "", "puzzle", "--file", path, "--id", "nope")
	assertFailure(t, o, statusUsage, "puzzle", `"nope"`)
}

func TestShippedPuzzlesLoad(t *testing.T) {
	o := mustRun(t, "", "puzzle", "list")
	require.Equal(t, statusOK, o.code, o.stderr)
	ps, err := puzzle.Shipped()
	require.NoError(t, err)
	assert.Equal(t, len(ps), strings.Count(o.stdout, "\n"))
}

func TestPuzzleGenerateFromRecords(t *testing.T) {
	_, ps := puzzleFile(t, 3)
	path := filepath.Join(t.TempDir(), "game.kgn")
	require.NoError(t, os.WriteFile(path, []byte(ps[0].Record.String()), 0o644))
	o := mustRun(t, "", "puzzle", "generate", path)
	require.Equal(t, statusOK, o.code, o.stderr)
	got, err := puzzle.Read(strings.NewReader(o.stdout))
	require.NoError(t, err)
	var ids []string
	for _, p := range got {
		ids = append(ids, p.ID)
		assert.Equal(t, "game game.kgn", p.Source)
	}
	assert.Contains(t, ids, ps[0].ID, "the position at the end of the record is found again")
}
