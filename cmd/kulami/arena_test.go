package main

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestArenaGolden(t *testing.T) {
	// Greedy and random are deterministic for a seed; only the durations
	// of the slowest moves vary.
	args := []string{"arena", "--a", "greedy", "--b", "random", "--games", "6", "--seed", "7"}
	o := mustRun(t, "", args...)
	require.Equal(t, statusOK, o.code, o.stderr)
	o.stdout = regexp.MustCompile(`(slowest|mean) move: greedy \S+, random \S+`).ReplaceAllString(o.stdout, "$1 move: greedy T, random T")
	golden(t, "arena/greedy-random", o.transcript(args))
}

func TestArenaJSON(t *testing.T) {
	args := []string{"arena", "--a", "easy", "--b", "random", "--games", "5", "--seed", "3", "--time", "5s",
		"--layout", "irregular", "--rules", "full", "--json"}
	o := mustRun(t, "", args...)
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Equal(t, 1, countLines(o.stdout), "one line: %s", o.stdout)

	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(o.stdout), &m))
	for _, k := range []string{"a", "b", "games", "a_wins", "b_wins", "draws", "a_share", "ci_low", "ci_high",
		"layout", "rules", "time_ms", "playouts", "deep_cut", "seed", "a_slowest_ms", "b_slowest_ms", "a_margin", "a_mean_ms", "b_mean_ms"} {
		assert.Contains(t, m, k)
	}
	var got match
	require.NoError(t, json.Unmarshal([]byte(o.stdout), &got))
	assert.Equal(t, "easy", got.A)
	assert.Equal(t, "random", got.B)
	assert.Equal(t, 5, got.Games)
	assert.Equal(t, got.Games, got.AWins+got.BWins+got.Draws)
	assert.InDelta(t, (float64(got.AWins)+float64(got.Draws)/2)/5, got.AShare, 1e-9)
	assert.LessOrEqual(t, got.CILow, got.AShare)
	assert.GreaterOrEqual(t, got.CIHigh, got.AShare)
	assert.Equal(t, "irregular", got.Layout)
	assert.Equal(t, "full", got.Rules)
	assert.Equal(t, int64(5000), got.TimeMS)
	assert.Equal(t, uint64(3), got.Seed)
	assert.Less(t, got.ASlowestMS, int64(5000))
	assert.LessOrEqual(t, got.AMeanMS, got.ASlowestMS)
	require.NotNil(t, got.AOverMS, "easy has a budget")
	assert.Equal(t, max(0, got.ASlowestMS-5000), *got.AOverMS)
	assert.NotContains(t, m, "b_over_ms", "random has no budget")
	assert.Equal(t, 5, strings.Count(o.stderr, "\n"), "a line of progress per game: %s", o.stderr)
	assert.Contains(t, o.stderr, "game 5/5: ")
}

func TestArenaDeep(t *testing.T) {
	// Deep cut to 1-ply searches (2 from 39 marbles on: 25-23) is quick and
	// deterministic; hard and hard-old are reachable.
	o := mustRun(t, "", "arena", "--a", "deep", "--b", "random", "--deep-cut", "23", "--games", "2", "--seed", "5",
		"--time", "50ms", "--json")
	require.Equal(t, statusOK, o.code, o.stderr)
	var got match
	require.NoError(t, json.Unmarshal([]byte(o.stdout), &got))
	assert.Equal(t, 23, got.DeepCut)
	assert.Equal(t, 2, got.Games)

	o = mustRun(t, "", "arena", "--a", "hard", "--b", "deep", "--deep-cut", "20", "--games", "1", "--seed", "5",
		"--time", "50ms")
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Contains(t, o.stdout, "hard vs deep: 1 game, random layouts, rules all, 50ms a move, deep 20 plies shallower, seed 5")
	assert.Regexp(t, `game 1/1: .*; hard [0-9.]+, deep [0-9.]+\n`, o.stdout)
	assert.Regexp(t, `most over the budget of 50ms: hard [0-9]+ms\n`, o.stdout, "deep has no budget")

	o = mustRun(t, "", "arena", "--a", "hard-old", "--b", "hard", "--games", "1", "--seed", "5", "--time", "50ms")
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Regexp(t, `most over the budget of 50ms: hard-old [0-9]+ms, hard [0-9]+ms\n`, o.stdout)
}

func TestArenaPlayouts(t *testing.T) {
	// By playouts, hard and hard-old play the same match every time; they
	// have no time budget to go over.
	args := []string{"arena", "--a", "hard", "--b", "hard-old", "--playouts", "400", "--games", "2", "--seed", "3",
		"--layout", "irregular", "--json"}
	o := mustRun(t, "", args...)
	require.Equal(t, statusOK, o.code, o.stderr)
	var got match
	require.NoError(t, json.Unmarshal([]byte(o.stdout), &got))
	assert.Equal(t, 400, got.Playouts)
	assert.Nil(t, got.AOverMS, "hard has no time budget")
	assert.Nil(t, got.BOverMS, "hard-old has no time budget")
	games := regexp.MustCompile(`(?m)^game .*$`).FindAllString(o.stderr, -1)
	require.Len(t, games, 2)
	for range 2 {
		again := mustRun(t, "", args...)
		require.Equal(t, statusOK, again.code, again.stderr)
		assert.Equal(t, games, regexp.MustCompile(`(?m)^game .*$`).FindAllString(again.stderr, -1), "the same games")
	}

	// Alpha-beta keeps thinking by --time; the header says who plays by what.
	o = mustRun(t, "", "arena", "--a", "alphabeta", "--b", "hard", "--playouts", "400", "--time", "20ms", "--games", "1", "--seed", "3")
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Contains(t, o.stdout, "alphabeta vs hard: 1 game, random layouts, rules all, 20ms a move, 400 random games a move for hard, seed 3")
	assert.Regexp(t, `most over the budget of 20ms: alphabeta [0-9]+ms\n`, o.stdout, "hard has no time budget")

	o = mustRun(t, "", "--lang", "fr", "arena", "--a", "hard-old", "--b", "hard", "--playouts", "1", "--games", "1", "--seed", "3")
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Contains(t, o.stdout, "hard-old contre hard\u00a0: 1 partie, dispositions random, règles all, 1 partie aléatoire par coup pour hard-old, hard, graine 3")
	assert.NotContains(t, o.stdout, "dépassement", "no time budget")
}

func TestArenaLayoutString(t *testing.T) {
	o := mustRun(t, "", "arena", "--a", "random", "--b", "random", "--games", "2", "--seed", "1",
		"--layout", ".aaa.bb.../cccddbbeee/cccdd..ff./...gg..ff./hiiggjjkk./hiigg.lkkm/hiinnnlo.m/....pppo../....pppqq./.......qq.")
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Equal(t, 2, strings.Count(o.stdout, ".aaa.bb.../cccddbbeee/"), "both games on the layout given")
}

func TestArenaInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	o := mustRunCtx(t, ctx, strings.NewReader(""), "arena", "--a", "hard", "--b", "greedy", "--seed", "1")
	assert.Equal(t, statusInterrupted, o.code)
	assert.Contains(t, o.stdout, "hard wins 0, greedy wins 0, draws 0", "the games so far are counted")
	assert.Equal(t, "kulami arena: interrupted\n", o.stderr)
}

func TestArenaErrors(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"no a", []string{"--b", "greedy"}, []string{"--a is missing", "easy, medium, hard, hard-old, random, greedy, alphabeta, deep"}},
		{"no b", []string{"--a", "greedy"}, []string{"--b is missing"}},
		{"unknown player", []string{"--a", "wizard", "--b", "greedy"}, []string{`--a: unknown player "wizard"`, "alphabeta"}},
		{"no games", []string{"--a", "hard", "--b", "greedy", "--games", "0"}, []string{"--games must be more than 0, not 0"}},
		{"no time", []string{"--a", "hard", "--b", "greedy", "--time", "-1s"}, []string{"--time must be more than 0"}},
		{"negative cut", []string{"--a", "deep", "--b", "greedy", "--deep-cut", "-1"}, []string{"--deep-cut must be 0 or more, not -1"}},
		{"negative playouts", []string{"--a", "hard", "--b", "hard-old", "--playouts", "-5"}, []string{"--playouts must be 0 (to think for --time) or more, not -5"}},
		{"bad rules", []string{"--a", "hard", "--b", "greedy", "--rules", "chess"}, []string{"--rules", "basic, area, lines or full", "or all"}},
		{"bad layout", []string{"--a", "hard", "--b", "greedy", "--layout", "round"}, []string{`unknown layout "round"`}},
		{"bad layout string", []string{"--a", "hard", "--b", "greedy", "--layout", "ab/cd"}, []string{"bad layout"}},
		{"argument", []string{"--a", "hard", "--b", "greedy", "extra"}, []string{`only flags, but got "extra"`}},
		{"bad seed", []string{"--a", "hard", "--b", "greedy", "--seed", "-1"}, []string{"a whole number from 0 to"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assertFailure(t, mustRun(t, "", append([]string{"arena"}, tt.args...)...), statusUsage, "arena", tt.want...)
		})
	}
}

func TestWilson(t *testing.T) {
	tests := []struct {
		points    float64
		n         int
		low, high float64
	}{
		{5, 10, 0.2366, 0.7634},
		{95, 100, 0.8883, 0.9785},
		{20, 20, 0.8389, 1},
		{0, 20, 0, 0.1611},
		{0.5, 1, 0.0546, 0.9454},
		{0, 0, 0, 1},
	}
	for _, tt := range tests {
		low, high := wilson(tt.points, tt.n)
		assert.InDelta(t, tt.low, low, 1e-4, "%v of %d", tt.points, tt.n)
		assert.InDelta(t, tt.high, high, 1e-4, "%v of %d", tt.points, tt.n)
	}
}
