package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

// fixtures returns the record fixtures testdata/replay/*.kul.
func fixtures(tb testing.TB) []string {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "replay", "*.kul"))
	require.NoError(tb, err)
	require.NotEmpty(tb, files)
	return files
}

// TestReplayGolden replays every fixture as text and as JSON. The
// fixtures hold a finished game, an unfinished one, one that ends early
// (no legal hole), one illegal move of each reason code, and records that
// cannot be read: malformed, a bad layout, a bad tag, no layout.
func TestReplayGolden(t *testing.T) {
	reasons := map[string]bool{}
	for _, file := range fixtures(t) {
		name := strings.TrimSuffix(filepath.Base(file), ".kul")
		for _, mode := range []string{"txt", "json"} {
			t.Run(name+"."+mode, func(t *testing.T) {
				args := []string{"replay", file}
				if mode == "json" {
					args = []string{"replay", "--json", file}
				}
				o := mustRun(t, "", args...)
				golden(t, filepath.Join("replay", name+"."+mode), o.transcript(args))
				rec, err := engine.ParseRecord(mustRead(t, file))
				if err != nil {
					assertFailure(t, o, statusBadInput, "replay", file, "bad record")
					return
				}
				assert.Equal(t, statusOK, o.code)
				assert.Empty(t, o.stderr)
				if mode == "json" {
					got := mustDecode(t, o.stdout)
					if got.Error != nil {
						reasons[got.Error.Reason] = true
					}
					assertMatchesEngine(t, rec, got)
				}
			})
		}
	}
	for _, code := range []string{"game-over", "syntax", "off-board", "occupied", "not-in-line", "same-panel", "previous-panel"} {
		assert.True(t, reasons[code], "no fixture has an illegal move with reason %s", code)
	}
}

func mustRead(tb testing.TB, path string) string {
	tb.Helper()
	b, err := os.ReadFile(path)
	require.NoError(tb, err)
	return string(b)
}

// mustDecode parses the output of replay --json: exactly one line holding
// one object with exactly the documented keys.
func mustDecode(tb testing.TB, stdout string) replayResult {
	tb.Helper()
	require.True(tb, strings.HasSuffix(stdout, "\n"), "output ends with a newline: %q", stdout)
	line := strings.TrimSuffix(stdout, "\n")
	require.NotContains(tb, line, "\n", "one line")
	var keys map[string]json.RawMessage
	require.NoError(tb, json.Unmarshal([]byte(line), &keys))
	got := make([]string, 0, len(keys))
	for k := range keys {
		got = append(got, k)
	}
	assert.ElementsMatch(tb, []string{"ply", "to_move", "over", "legal", "score", "winner", "error"}, got)
	assert.NotEqual(tb, "null", string(keys["legal"]), "legal is a list, never null")

	var res replayResult
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	require.NoError(tb, dec.Decode(&res))
	return res
}

// assertMatchesEngine checks a replay --json result against the engine's
// own replay of rec. The legal holes are found by trying every cell of the
// grid, row by row, not by reading the engine's bit set.
func assertMatchesEngine(tb testing.TB, rec *engine.Record, got replayResult) {
	tb.Helper()
	pos, err := rec.Replay()
	assert.Equal(tb, pos.Ply(), got.Ply, "ply")
	assert.Equal(tb, pos.ToMove().String(), got.ToMove, "to_move")
	assert.Equal(tb, pos.IsOver(), got.Over, "over")
	legal := []string{}
	for row := range engine.MaxSide {
		for col := range engine.MaxSide {
			if c := engine.CellAt(col, row); pos.Check(c) == nil {
				legal = append(legal, c.String())
			}
		}
	}
	assert.Equal(tb, legal, got.Legal, "legal")
	s := pos.Score(rec.Rules)
	assert.Equal(tb, s[engine.Red], got.Score.Red, "score of red")
	assert.Equal(tb, s[engine.Black], got.Score.Black, "score of black")
	switch w, ok := s.Winner(); {
	case !pos.IsOver():
		assert.Nil(tb, got.Winner, "winner before the end")
	case !ok:
		require.NotNil(tb, got.Winner)
		assert.Equal(tb, "draw", *got.Winner)
	default:
		require.NotNil(tb, got.Winner)
		assert.Equal(tb, w.String(), *got.Winner)
	}
	var me *engine.MoveError
	if !errors.As(err, &me) {
		assert.Nil(tb, got.Error, "error")
		return
	}
	require.NotNil(tb, got.Error, "error")
	var re *engine.RuleError
	require.ErrorAs(tb, me.Err, &re)
	move := strings.ToValidUTF8(me.Move, "\uFFFD")
	assert.Equal(tb, replayError{Ply: me.Ply, Move: move, Reason: re.Code}, *got.Error)
}

// TestReplayRandomGames replays a few hundred random games through run:
// on random square and irregular layouts, under every rule set, finished
// and unfinished, some with an illegal move and more moves after it.
func TestReplayRandomGames(t *testing.T) {
	const games = 300
	r := engine.NewRand(2026)
	finished, illegal := 0, 0
	for i := range games {
		seed := r.Uint64()
		l := engine.RandomIrregular(seed)
		if i%2 == 0 {
			l = engine.RandomSquare(seed)
		}
		rec := engine.NewRecord(l, engine.Color(r.Uint64()%2), engine.Rules(r.Uint64()%4))
		pos := engine.NewPosition(l, rec.First)
		stop := engine.MaxPly
		if r.Uint64()%2 == 0 {
			stop = int(r.Uint64() % engine.MaxPly)
		}
		for pos.Ply() < stop && !pos.IsOver() {
			h := r.Pick(pos.Legal())
			rec.Moves = append(rec.Moves, l.Cell(h).String())
			pos.Apply(h)
		}
		if pos.IsOver() {
			finished++
		}
		if r.Uint64()%3 == 0 {
			illegal++
			rec.Moves = append(rec.Moves, randomToken(&r, &pos), "A1", "B2")
		}
		text := rec.String()
		o := mustRun(t, text, "replay", "--json")
		require.Equal(t, statusOK, o.code, "game %d: %s", i, o.stderr)
		require.Empty(t, o.stderr)
		got := mustDecode(t, o.stdout)
		if got.Error == nil {
			assert.Equal(t, pos.Ply(), got.Ply, "game %d: the ply of the game as generated", i)
		}
		assertMatchesEngine(t, engine.MustParseRecord(text), got)
	}
	assert.Greater(t, finished, games/4, "enough finished games")
	assert.Greater(t, illegal, games/5, "enough games with an illegal move")
}

// randomToken returns a move that is most often illegal in pos: an
// occupied hole, a cell anywhere on the grid, or no coordinate at all.
func randomToken(r *engine.Rand, pos *engine.Position) string {
	switch r.Uint64() % 3 {
	case 0:
		if occ := pos.Occupied(); occ != 0 {
			return pos.Layout().Cell(r.Pick(occ)).String()
		}
	case 1:
		return engine.Cell(r.Uint64() % engine.NumCells).String()
	}
	return []string{"K1", "A0", "A11", "4D", "pass", "D-4", "é5"}[r.Uint64()%7]
}

func TestReplayStdin(t *testing.T) {
	text := mustRead(t, filepath.Join("testdata", "replay", "finished.kul"))
	fromFile := mustRun(t, "", "replay", "--json", filepath.Join("testdata", "replay", "finished.kul"))
	for _, args := range [][]string{{"replay", "--json"}, {"replay", "--json", "-"}, {"replay", "-", "--json"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			assert.Equal(t, fromFile, mustRun(t, text, args...))
		})
	}
}

func TestReplayInputErrors(t *testing.T) {
	tests := []struct {
		name  string
		stdin string
		want  []string
	}{
		{"empty input", "", []string{"standard input", "no Layout tag"}},
		{"too large", strings.Repeat("; a comment\n", maxRecordBytes/12+1), []string{"standard input is larger than 1,024 KiB"}},
		{"tag after the moves", "[Layout \"" + engine.SquareString + "\"]\n1. D4\n[Red \"x\"]\n", []string{"line 3", "tag after the moves"}},
		{"control characters", "[Layout \"ab\x1b[2Jcd\"]\n", []string{"Layout tag", "\\x1b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, args := range [][]string{{"replay"}, {"replay", "--json"}} {
				o := mustRun(t, tt.stdin, args...)
				assertFailure(t, o, statusBadInput, "replay", tt.want...)
				assert.NotContains(t, o.stderr, "\x1b", "no terminal escapes from the input")
			}
		})
	}
}

// TestReplayTextMarksMoves checks what the text board shows against the
// position: one [ ] and one ( ) around the last two marbles, as many ○
// and ● as each colour has marbles, and + on exactly the legal holes.
func TestReplayTextMarksMoves(t *testing.T) {
	for _, file := range fixtures(t) {
		rec, err := engine.ParseRecord(mustRead(t, file))
		if err != nil {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			pos, _ := rec.Replay()
			var b bytes.Buffer
			p := &printer{w: &b}
			p.board(&pos, playable(&pos))
			require.NoError(t, p.err)
			board := b.String()
			last, prev := pos.Last()
			if last != engine.NoHole {
				assert.Equal(t, 1, strings.Count(board, "["), "one last marble")
			}
			if prev != engine.NoHole {
				assert.Equal(t, 1, strings.Count(board, "("), "one marble before it")
			}
			assert.Equal(t, engine.NumHoles-pos.Ply(), strings.Count(board, emptyHole)+strings.Count(board, legalHole), "empty holes")
			assert.Equal(t, engine.MarblesPerPlayer-pos.MarblesLeft(engine.Red), strings.Count(board, redMarble))
			assert.Equal(t, engine.MarblesPerPlayer-pos.MarblesLeft(engine.Black), strings.Count(board, blackMarble))
			if pos.Ply() > 0 {
				assert.Equal(t, len(holeList(pos.Layout(), pos.Legal())), strings.Count(board, legalHole), "legal holes")
			}
		})
	}
}

// FuzzReplay feeds any text to replay --json. Whatever the input, replay
// either prints one well-formed JSON line that agrees with the engine and
// exits 0, or prints nothing on stdout, one line on stderr and exits 1
// exactly when the engine cannot read the record. Replay as text exits
// the same way and never passes a control character of the input (such
// as a terminal escape) to the terminal.
func FuzzReplay(f *testing.F) {
	for _, file := range fixtures(f) {
		f.Add(mustRead(f, file))
	}
	f.Add("")
	f.Add("[Layout \"" + engine.SquareString + "\"]\n1. D4 D4 {x} ; y\n")
	f.Fuzz(func(t *testing.T, text string) {
		o := mustRunCtx(t, context.Background(), strings.NewReader(text), "replay", "--json")
		board := mustRunCtx(t, context.Background(), strings.NewReader(text), "replay")
		for _, r := range board.stdout + board.stderr {
			require.False(t, r != '\n' && unicode.IsControl(r), "control character %U in\n%s", r, board.stdout+board.stderr)
		}
		rec, err := engine.ParseRecord(text)
		if err != nil {
			assertFailure(t, o, statusBadInput, "replay", "bad record")
			assertFailure(t, board, statusBadInput, "replay", "bad record")
			return
		}
		assert.Equal(t, statusOK, board.code)
		require.Equal(t, statusOK, o.code, o.stderr)
		assert.Empty(t, o.stderr)
		got := mustDecode(t, o.stdout)
		assertMatchesEngine(t, rec, got)
		assert.Equal(t, got.Over, len(got.Legal) == 0, "legal is empty exactly when the game is over")
		if got.Error != nil {
			assert.Equal(t, got.Ply+1, got.Error.Ply, "the error is the move after the position shown")
			assert.True(t, slices.Contains(rec.Moves, got.Error.Move) || !utf8.ValidString(rec.Moves[got.Error.Ply-1]))
		}
	})
}
