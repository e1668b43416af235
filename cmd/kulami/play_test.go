package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/engine"
)

// TestPlayGolden plays a short session that uses every command and meets
// every kind of illegal move, then quits.
func TestPlayGolden(t *testing.T) {
	script := []string{
		"help", "rules",
		"d4",    // Red, anywhere
		"e4",    // same panel
		"zz",    // not a hole
		"e7",    // not in line
		"D4",    // occupied
		"i4",    // off the 8×8 board
		"d7",    // Black
		"d5",    // the panel of the marble before the last
		"  a7 ", // Red, with blanks around
		"", "legal", "score", "record", "board",
		"undo", "undo", "undo", "undo", // the last one has nothing to take back
		"QUIT",
	}
	args := []string{"play", "--rules", "full", "--red", "alice", "--black", "bob"}
	o := mustRunAt(t, strings.Join(script, "\n")+"\n", args...)
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Empty(t, o.stderr)
	golden(t, "play/session", o.transcript(args))
}

// TestPlayExplainsIllegalMoves checks the plain-words explanation of each
// kind of illegal move, and that the legal holes follow it.
func TestPlayExplainsIllegalMoves(t *testing.T) {
	tests := []struct {
		reason string
		before []string
		move   string
		want   string
	}{
		{"syntax", nil, "hello", `Not allowed: "hello" is not a hole: write a column letter A–H and a row number 1–8, like D4, or type help for the commands.`},
		{"off-board", nil, "J10", "Not allowed: there is no hole at J10: the board has columns A–H and rows 1–8."},
		{"occupied", []string{"a8", "a5", "a1"}, "a8", "Not allowed: A8 already holds a red marble; each hole takes one marble."},
		{"not-in-line", []string{"d4"}, "e7", "Not allowed: E7 is not in line with the last marble at D4: play in row 4 or column D."},
		{"same-panel", []string{"d4"}, "e4", "Not allowed: E4 is on the same panel as the last marble at D4: play on another panel."},
		{"previous-panel", []string{"d4", "d7"}, "d5", "Not allowed: D5 is on the same panel as the marble before the last, at D4: that panel is closed for this move."},
	}
	for _, tt := range tests {
		t.Run(tt.reason, func(t *testing.T) {
			input := strings.Join(append(tt.before, tt.move), "\n") + "\n"
			o := mustRun(t, input, "play")
			require.Equal(t, statusOK, o.code, o.stderr)
			_, after, found := strings.Cut(o.stdout, tt.want+"\n")
			require.True(t, found, "explanation %q in\n%s", tt.want, o.stdout)

			rec := engine.NewRecord(engine.Square(), engine.Red, engine.Basic)
			rec.Moves = tt.before
			pos, err := rec.Replay()
			require.NoError(t, err)
			assert.Equal(t, tt.reason, reasonCode(pos.PlayMove(tt.move)), "the move breaks the rule the test names")
			if len(tt.before) > 0 {
				assert.True(t, strings.HasPrefix(after, "Legal holes: "+strings.Join(holeList(pos.Layout(), pos.Legal()), " ")+".\n"), after)
			}
		})
	}
}

// randomGame returns the moves of a random game on l, to its end.
func randomGame(l *engine.Layout, first engine.Color, seed uint64) ([]string, engine.Position) {
	r := engine.NewRand(seed)
	pos := engine.NewPosition(l, first)
	var moves []string
	for !pos.IsOver() {
		h := r.Pick(pos.Legal())
		moves = append(moves, l.Cell(h).String())
		pos.Apply(h)
	}
	return moves, pos
}

// TestPlayToTheEnd plays whole games through stdin, with mistakes and
// commands between the moves, and checks the announced result and the
// record written against the engine.
func TestPlayToTheEnd(t *testing.T) {
	tests := []struct {
		layout string
		l      *engine.Layout
		rules  engine.Rules
		first  engine.Color
	}{
		{"square", engine.Square(), engine.Full, engine.Red},
		{"irregular", engine.RandomIrregular(5), engine.Area, engine.Black},
		{"random", engine.RandomSquare(9), engine.Lines, engine.Red},
		{"irregular", engine.RandomIrregular(0), engine.Basic, engine.Black},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprintf("%s-%s", tt.layout, tt.rules), func(t *testing.T) {
			moves, want := randomGame(tt.l, tt.first, uint64(i))
			var script []string
			for j, m := range moves {
				if j == 3 {
					script = append(script, "x9", moves[0], "score", "undo", moves[j-1])
				}
				script = append(script, strings.ToLower(m))
			}
			script = append(script, "d4", "quit") // after the end: never read

			path := filepath.Join(t.TempDir(), "game.kul")
			args := []string{"play", "--layout", tt.l.String(), "--rules", tt.rules.String(), "--first", tt.first.String(), "--record", path, "--red", "ann"}
			o := mustRunAt(t, strings.Join(script, "\n")+"\n", args...)
			require.Equal(t, statusOK, o.code, o.stderr)
			assert.Empty(t, o.stderr)

			s := want.Score(tt.rules)
			p := &printer{names: [2]string{"ann", ""}}
			ending := "Game over: " + p.endReason(&want) + "\n" + p.result(s) + "\n"
			assert.Contains(t, o.stdout, ending)
			assert.Equal(t, 1, strings.Count(o.stdout, "Game over:"))
			assert.True(t, strings.HasSuffix(o.stdout, ending+"Record written to "+path+".\n"), o.stdout[max(0, len(o.stdout)-500):])
			assert.Contains(t, o.stdout, "Not allowed: \"x9\"")
			assert.Contains(t, o.stdout, "Not allowed: "+moves[0]+" already holds")
			assert.Contains(t, o.stdout, "Took back the marble ")

			text := mustRead(t, path)
			rec, err := engine.ParseRecord(text)
			require.NoError(t, err)
			assert.Equal(t, moves, rec.Moves)
			assert.True(t, rec.Layout.Equal(tt.l))
			assert.Equal(t, tt.rules, rec.Rules)
			assert.Equal(t, tt.first, rec.First)
			w, ok := s.Winner()
			result := fmt.Sprintf("Draw %d-%d", s[engine.Red].Total, s[engine.Black].Total)
			if ok {
				result = fmt.Sprintf("%s %d-%d", w.Title(), s[w].Total, s[w.Other()].Total)
			}
			for name, value := range map[string]string{"Game": "Kulami", "Red": "ann", "Black": "?", "Date": "2026.11.22", "Result": result} {
				got, ok := rec.Tag(name)
				assert.True(t, ok, "tag %s", name)
				assert.Equal(t, value, got, "tag %s", name)
			}

			replay := mustRun(t, "", "replay", "--json", path)
			require.Equal(t, statusOK, replay.code, replay.stderr)
			got := mustDecode(t, replay.stdout)
			assert.Nil(t, got.Error)
			assert.True(t, got.Over)
			assert.Equal(t, len(moves), got.Ply)
			require.NotNil(t, got.Winner)
			if ok {
				assert.Equal(t, w.String(), *got.Winner)
			} else {
				assert.Equal(t, "draw", *got.Winner)
			}
		})
	}
}

// TestPlayStops checks the ways a game stops before its end: quit, exit,
// the end of the input (with or without a last newline). The record is
// written with the moves so far and the result "*".
func TestPlayStops(t *testing.T) {
	tests := []struct {
		name, input, why string
	}{
		{"quit", "d4\nd7\nquit\nd1\n", "You quit"},
		{"exit", "d4\nd7\nExit\n", "You quit"},
		{"end of input", "d4\nd7\n", "The input has ended"},
		{"end of input without newline", "d4\r\nd7", "The input has ended"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "game.kul")
			o := mustRunAt(t, tt.input, "play", "--record", path)
			require.Equal(t, statusOK, o.code, o.stderr)
			assert.Empty(t, o.stderr)
			assert.Contains(t, o.stdout, tt.why+": the game stops after 2 marbles.\n")
			assert.True(t, strings.HasSuffix(o.stdout, "Record written to "+path+".\n"))
			rec, err := engine.ParseRecord(mustRead(t, path))
			require.NoError(t, err)
			assert.Equal(t, []string{"D4", "D7"}, rec.Moves)
			result, _ := rec.Tag("Result")
			assert.Equal(t, "*", result)
		})
	}
}

// TestPlayInterrupted cancels the context while play waits for input: the
// record is still written and the exit status is 130.
func TestPlayInterrupted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.kul")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stdin, w := io.Pipe() // never written: play waits for ever
	defer w.Close()
	o := mustRunCtx(t, ctx, stdin, "play", "--record", path)
	assert.Equal(t, statusInterrupted, o.code)
	assert.Equal(t, "kulami play: interrupted\n", o.stderr)
	assert.Contains(t, o.stdout, "Interrupted: the game stops after 0 marbles.\n")
	rec, err := engine.ParseRecord(mustRead(t, path))
	require.NoError(t, err)
	assert.Empty(t, rec.Moves)
}

// creatingReader returns its text, but first creates the file at path, as
// someone else might while the game is played.
type creatingReader struct {
	r    io.Reader
	path string
}

func (c *creatingReader) Read(b []byte) (int, error) {
	if c.path != "" {
		if err := os.WriteFile(c.path, []byte("another game\n"), 0o644); err != nil {
			return 0, err
		}
		c.path = ""
	}
	return c.r.Read(b)
}

// TestPlayRecordNotWritten checks that a record that cannot be written is
// printed instead, and the file found in its place is left alone.
func TestPlayRecordNotWritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.kul")
	stdin := &creatingReader{strings.NewReader("d4\nd7\nquit\n"), path}
	o := mustRunCtx(t, context.Background(), stdin, "play", "--record", path)
	assert.Equal(t, statusBadInput, o.code)
	assert.Equal(t, 1, strings.Count(o.stderr, "\n"), o.stderr)
	assert.Contains(t, o.stderr, "kulami play: write the record: ")
	assert.Contains(t, o.stderr, "file exists")
	_, rec, found := strings.Cut(o.stdout, "The record could not be written; here it is:\n\n")
	require.True(t, found, o.stdout)
	parsed, err := engine.ParseRecord(rec)
	require.NoError(t, err)
	assert.Equal(t, []string{"D4", "D7"}, parsed.Moves)
	assert.Equal(t, "another game\n", mustRead(t, path))
}

// FuzzPlay feeds any input to play. Whatever is typed, play ends cleanly
// and the record it writes replays without an illegal move, to the
// position play reached.
func FuzzPlay(f *testing.F) {
	f.Add("d4\nd7\nd1\n")
	f.Add("help\nrules\nzz\nundo\nd4\ne4\nrecord\nquit\n")
	f.Add(strings.Join(func() []string { m, _ := randomGame(engine.Square(), engine.Red, 3); return m }(), "\n"))
	f.Fuzz(func(t *testing.T, input string) {
		path := filepath.Join(t.TempDir(), "game.kul")
		o := mustRun(t, input, "play", "--record", path)
		require.Equal(t, statusOK, o.code, o.stderr)
		assert.Empty(t, o.stderr)
		replay := mustRun(t, "", "replay", "--json", path)
		require.Equal(t, statusOK, replay.code, replay.stderr)
		got := mustDecode(t, replay.stdout)
		assert.Nil(t, got.Error)
		if got.Over {
			assert.Contains(t, o.stdout, "Game over: ")
		} else {
			assert.Contains(t, o.stdout, fmt.Sprintf(": the game stops after %s.\n", (&printer{lang: i18n.English}).marbles(got.Ply)))
		}
	})
}

// TestPlayOutputFails checks that the record is written even when the
// output cannot be.
func TestPlayOutputFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.kul")
	var stderr strings.Builder
	code := run(t.Context(), []string{"play", "--record", path}, strings.NewReader("d4\nd7\n"), &failingWriter{n: 3000}, &stderr, noEnv)
	assert.Equal(t, statusBadInput, code)
	assert.Equal(t, "kulami play: disk full\n", stderr.String())
	rec, err := engine.ParseRecord(mustRead(t, path))
	require.NoError(t, err)
	assert.Equal(t, []string{"D4"}, rec.Moves, "the moves played before the output failed")
}
