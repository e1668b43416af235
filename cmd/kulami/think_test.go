package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

// mustRecord returns the record of the first n moves of the random game of
// seed on layout l, scored under rules; the game must have n moves.
func mustRecord(tb testing.TB, l *engine.Layout, rules engine.Rules, seed uint64, n int) string {
	tb.Helper()
	moves, _ := randomGame(l, engine.Red, seed)
	require.GreaterOrEqual(tb, len(moves), n, "the game of seed %d is too short", seed)
	rec := engine.NewRecord(l, engine.Red, rules)
	rec.Moves = moves[:n]
	return rec.String()
}

// mustEndgame returns the record of a random game 10 moves before its
// end, where the exact search decides.
func mustEndgame(tb testing.TB, rules engine.Rules) string {
	tb.Helper()
	for seed := uint64(1); seed < 1000; seed++ {
		if moves, _ := randomGame(engine.Square(), engine.Red, seed); len(moves) == engine.MaxPly {
			return mustRecord(tb, engine.Square(), rules, seed, engine.MaxPly-10)
		}
	}
	tb.Fatal("no random game lasted to the end")
	return ""
}

func TestThinkGolden(t *testing.T) {
	// An endgame is proven by the exact search, the same on every machine.
	for _, rules := range []engine.Rules{engine.Basic, engine.Full} {
		t.Run(rules.String(), func(t *testing.T) {
			rec := mustEndgame(t, rules)
			args := []string{"think", "--time", "10s"}
			o := mustRun(t, rec, args...)
			require.Equal(t, statusOK, o.code, o.stderr)
			golden(t, filepath.Join("think", "endgame-"+rules.String()), rec+"\n"+o.transcript(args))
		})
	}
}

func TestThinkJSON(t *testing.T) {
	for _, level := range []string{"easy", "medium", "hard"} {
		t.Run(level, func(t *testing.T) {
			l := engine.RandomIrregular(5)
			rec := mustRecord(t, l, engine.Lines, 5, 9)
			path := filepath.Join(t.TempDir(), "game.kul")
			require.NoError(t, os.WriteFile(path, []byte(rec), 0o644))

			o := mustRun(t, "", "think", path, "--level", level, "--time", "200ms", "--json")
			require.Equal(t, statusOK, o.code, o.stderr)
			assert.Empty(t, o.stderr)
			var got thinkResult
			require.NoError(t, json.Unmarshal([]byte(o.stdout), &got))
			assert.Equal(t, 1, countLines(o.stdout), "one line")

			pos, err := engine.MustParseRecord(rec).Replay()
			require.NoError(t, err)
			assert.NoError(t, pos.PlayMove(got.Move), "a legal move")
			assert.Equal(t, level, got.Level)
			assert.Equal(t, "black", got.ToMove)
			assert.InDelta(t, 0.5, got.WinChance, 0.5)
			assert.Positive(t, got.Playouts)
			assert.False(t, got.Proven)
		})
	}
}

func TestThinkText(t *testing.T) {
	o := mustRun(t, mustRecord(t, engine.Square(), engine.Basic, 3, 4), "think", "--level", "easy", "-")
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Regexp(t, `^[A-J]\d+\nRed to move; easy plays [A-J]\d+: \d+% to win \(\d+ playouts\)\n$`, o.stdout)
}

func TestThinkErrors(t *testing.T) {
	over, _ := randomGame(engine.Square(), engine.Red, 1)
	finished := engine.NewRecord(engine.Square(), engine.Red, engine.Basic)
	finished.Moves = over
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		want  []string
	}{
		{"game over", finished.String(), []string{"think"}, statusBadInput,
			[]string{"standard input: the game is over after", "no move to think about"}},
		{"illegal move", "[Layout \"" + engine.SquareString + "\"]\n1. D4 D4", []string{"think"}, statusBadInput,
			[]string{`move 2 ("D4") is illegal`, "already holds a red marble", "think needs a record of legal moves"}},
		{"bad record", "1. D4", []string{"think"}, statusBadInput, []string{"Layout"}},
		{"no file", "", []string{"think", "no-such-file.kul"}, statusBadInput, []string{"no-such-file.kul"}},
		{"two files", "", []string{"think", "a.kul", "b.kul"}, statusUsage, []string{"one record", "a.kul b.kul"}},
		{"bad level", "", []string{"think", "--level", "expert"}, statusUsage, []string{"--level", "easy, medium or hard", "expert"}},
		{"no time", "", []string{"think", "--time", "0s"}, statusUsage, []string{"--time must be more than 0"}},
		{"bad time", "", []string{"think", "--time", "soon"}, statusUsage, []string{"-time"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertFailure(t, mustRun(t, tt.stdin, tt.args...), tt.code, "think", tt.want...)
		})
	}
}

func countLines(s string) int {
	n := 0
	for _, b := range []byte(s) {
		if b == '\n' {
			n++
		}
	}
	return n
}
