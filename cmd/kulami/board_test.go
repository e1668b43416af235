package main

import (
	"bytes"
	"errors"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

// mustPosition replays a record fixture.
func mustPosition(tb testing.TB, fixture string) (*engine.Record, engine.Position) {
	tb.Helper()
	rec, err := engine.ParseRecord(mustRead(tb, filepath.Join("testdata", "replay", fixture)))
	require.NoError(tb, err)
	pos, err := rec.Replay()
	require.NoError(tb, err)
	return rec, pos
}

// drawAll draws what replay draws of pos with the printer p.
func drawAll(p *printer, rec *engine.Record, pos *engine.Position) {
	p.board(pos, playable(pos))
	p.legend()
	p.lastMoves(pos)
	p.score(pos, rec.Rules)
	p.status(pos, rec.Rules)
}

var ansiCode = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestBoardColor checks that colour only adds ANSI codes: without them the
// text is the same as without colour.
func TestBoardColor(t *testing.T) {
	for _, fixture := range []string{"unfinished.kul", "early-end.kul"} {
		t.Run(fixture, func(t *testing.T) {
			rec, pos := mustPosition(t, fixture)
			var plain, color bytes.Buffer
			drawAll(&printer{w: &plain}, rec, &pos)
			drawAll(&printer{w: &color, color: true}, rec, &pos)
			assert.NotContains(t, plain.String(), "\x1b")
			assert.Contains(t, color.String(), ansiRed+redMarble+ansiReset)
			assert.Contains(t, color.String(), ansiBold+blackMarble+ansiReset)
			assert.Equal(t, plain.String(), ansiCode.ReplaceAllString(color.String(), ""))
			golden(t, "color/"+strings.TrimSuffix(fixture, ".kul"), color.String())
		})
	}
}

// failingWriter fails every write after the first n bytes.
type failingWriter struct{ n int }

var errDiskFull = errors.New("disk full")

func (w *failingWriter) Write(b []byte) (int, error) {
	if len(b) > w.n {
		n := w.n
		w.n = 0
		return n, errDiskFull
	}
	w.n -= len(b)
	return len(b), nil
}

func TestPrinterKeepsFirstError(t *testing.T) {
	rec, pos := mustPosition(t, "finished.kul")
	w := &failingWriter{n: 100}
	p := &printer{w: w}
	drawAll(p, rec, &pos)
	assert.ErrorIs(t, p.err, errDiskFull)
}

func TestReplayWriteError(t *testing.T) {
	for _, args := range [][]string{{"replay"}, {"replay", "--json"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stderr bytes.Buffer
			stdin := strings.NewReader(mustRead(t, filepath.Join("testdata", "replay", "finished.kul")))
			code := run(t.Context(), args, stdin, &failingWriter{n: 10}, &stderr, noEnv)
			assert.Equal(t, statusBadInput, code)
			assert.Equal(t, "kulami replay: disk full\n", stderr.String())
		})
	}
}
