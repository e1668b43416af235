package main

import (
	"context"
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/review"
)

func TestReview(t *testing.T) {
	file := filepath.Join("testdata", "replay", "finished.kul")
	chart := filepath.Join(t.TempDir(), "chart.png")
	o := mustRun(t, "", "review", file, "--playouts", "2000", "--chart", chart)
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Empty(t, o.stderr)
	lines := strings.Split(o.stdout, "\n")
	assert.Equal(t, "Review of 56 moves, full rules (2,000 playouts a position; * proven by an exact search)", lines[0])
	assert.True(t, strings.HasPrefix(lines[2], "start          red "), lines[2])
	assert.Equal(t, "  1. red   A8  red ", lines[3][:19])
	// The end is decided, whatever the search: black wins from move 47 on.
	assert.Equal(t, " 47. red   H4  red    0%* win chance −100%, better E8", lines[49])
	assert.Equal(t, " 56. black C7  red    0%*", lines[58])
	assert.Contains(t, o.stdout, "\nMistakes of Red (alice):\n")
	assert.Contains(t, o.stdout, "\n  47. H4 lost 100% of win chance: a proven win before, a proven loss after; better E8\n")
	assert.Contains(t, o.stdout, "\nMistakes of Black (bob):\n")
	assert.Contains(t, o.stdout, "\nThe biggest swings: ")
	assert.True(t, strings.HasSuffix(o.stdout, "\nwrote "+chart+": red's chance to win over the game\n"))

	f, err := os.Open(chart)
	require.NoError(t, err)
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	require.NoError(t, err)
	assert.Equal(t, [2]int{800, 400}, [2]int{cfg.Width, cfg.Height})
}

func TestReviewJSON(t *testing.T) {
	file := filepath.Join("testdata", "replay", "finished.kul")
	o := mustRun(t, mustRead(t, file), "review", "--json", "--playouts", "500", "--seed", "9", "--workers", "2", "-")
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Equal(t, 1, strings.Count(o.stdout, "\n"), "one line")
	var got review.Analysis
	require.NoError(t, json.Unmarshal([]byte(o.stdout), &got))

	rec, err := engine.ParseRecord(mustRead(t, file))
	require.NoError(t, err)
	want, err := review.Analyse(context.Background(), rec, review.Options{Playouts: 500, Seed: 9})
	require.NoError(t, err)
	assert.Equal(t, want, &got, "the analysis of the package, with the same seed")
}

func TestReviewNoMoves(t *testing.T) {
	o := mustRun(t, mustRead(t, filepath.Join("testdata", "replay", "empty-game.kul")), "review", "--playouts", "1000") // what it searches proves nothing here
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Contains(t, o.stdout, "There are no moves to review.")
}

func TestReviewErrors(t *testing.T) {
	finished := filepath.Join("testdata", "replay", "finished.kul")
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"no playouts", []string{finished, "--playouts", "0"}, statusUsage, []string{"--playouts", "more than 0"}},
		{"negative time", []string{finished, "--time", "-1s"}, statusUsage, []string{"--time", "-1s"}},
		{"no workers", []string{finished, "--workers", "0"}, statusUsage, []string{"--workers"}},
		{"bad seed", []string{finished, "--seed", "x"}, statusUsage, []string{"seed"}},
		{"bad theme", []string{finished, "--theme", "blue"}, statusUsage, []string{"--theme", "dark or light"}},
		{"bad marbles", []string{finished, "--marbles", "grey"}, statusUsage, []string{"--marbles", "standard or colour-blind"}},
		{"two records", []string{finished, finished}, statusUsage, []string{"one record"}},
		{"missing file", []string{"missing.kul"}, statusBadInput, []string{"missing.kul", "no such file"}},
		{"illegal move", []string{filepath.Join("testdata", "replay", "illegal-occupied.kul")}, statusBadInput, []string{"occupied", "is illegal", "already holds a"}},
		{"unwritable chart", []string{finished, "--playouts", "100", "--chart", filepath.Join(t.TempDir(), "no", "c.png")}, statusBadInput, []string{"no such file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := mustRun(t, "", append([]string{"review"}, tt.args...)...)
			assertFailure(t, o, tt.code, "review", tt.want...)
		})
	}
}
