package main

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
)

// mustRenderDirect draws the position after n moves of the record in file
// with draw directly, as render should.
func mustRenderDirect(tb testing.TB, file string, n int, opt draw.Options) []byte {
	tb.Helper()
	rec, err := engine.ParseRecord(mustRead(tb, file))
	require.NoError(tb, err)
	p := engine.NewPosition(rec.Layout, rec.First)
	for _, m := range rec.Moves[:n] {
		require.NoError(tb, p.PlayMove(m))
	}
	opt.Rules = rec.Rules
	opt.Names[engine.Red], _ = rec.Tag("Red")
	opt.Names[engine.Black], _ = rec.Tag("Black")
	if opt.Text == nil { // kulami draws in its language, English here
		text := i18n.English.Draw()
		opt.Text = &text
	}
	var buf bytes.Buffer
	require.NoError(tb, draw.Render(&buf, &p, opt))
	return buf.Bytes()
}

func TestRender(t *testing.T) {
	file := filepath.Join("testdata", "replay", "finished.kul")
	rec, err := engine.ParseRecord(mustRead(t, file))
	require.NoError(t, err)
	n := len(rec.Moves)
	require.Greater(t, n, 20)
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		ply  int
		opt  draw.Options
	}{
		{"last position", []string{file}, n, draw.Options{}},
		{"earlier position", []string{file, "--ply", "17"}, 17, draw.Options{}},
		{"empty board", []string{"--ply=0", file}, 0, draw.Options{}},
		{"light and small", []string{"--theme", "LIGHT", "--size", "400", file, "--ply", "30"}, 30, draw.Options{Theme: draw.Light, Width: 400}},
		{"colour-blind marbles", []string{"--marbles", "colour-blind", file, "--ply", "30"}, 30, draw.Options{Marbles: draw.ColourBlind}},
		{"ended off the board", []string{file, "--ply", "30", "--reason", "bob resigned"}, 30, draw.Options{Over: true, Reason: "bob resigned"}},
	}
	// A record that says who won: the image names the winner and outlines
	// their card (the board at move 30 does not decide it).
	resigned := filepath.Join(dir, "resigned.kul")
	require.NoError(t, os.WriteFile(resigned, []byte(strings.TrimSpace(string(mustRead(t, file)))+" 0-1\n"), 0o644))
	black := engine.Black
	cases = append(cases, struct {
		name string
		args []string
		ply  int
		opt  draw.Options
	}{"the winner named", []string{resigned, "--ply", "30", "--reason", "alice resigned"}, 30, draw.Options{Over: true, Reason: "alice resigned", Winner: &black}})
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			file := file
			if tc.opt.Winner != nil {
				file = resigned
			}
			out := filepath.Join(dir, tc.name+".png")
			args := append([]string{"render", "--out", out}, tc.args...)
			o := mustRun(t, "", args...)
			require.Equal(t, statusOK, o.code, o.stderr)
			assert.Empty(t, o.stderr)
			assert.Contains(t, o.stdout, out)
			got, err := os.ReadFile(out)
			require.NoError(t, err)
			assert.Equal(t, mustRenderDirect(t, file, tc.ply, tc.opt), got, "case %d differs from drawing the position directly", i)
		})
	}
}

func TestRenderFromStdinToStdout(t *testing.T) {
	file := filepath.Join("testdata", "replay", "finished.kul")
	o := mustRun(t, mustRead(t, file), "render", "--out", "-", "--ply", "9", "-")
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Empty(t, o.stderr)
	assert.Equal(t, string(mustRenderDirect(t, file, 9, draw.Options{})), o.stdout)
	cfg, err := png.DecodeConfig(strings.NewReader(o.stdout))
	require.NoError(t, err)
	assert.Equal(t, draw.DefaultWidth, cfg.Width)
}

func TestRenderErrors(t *testing.T) {
	dir := t.TempDir()
	finished := filepath.Join("testdata", "replay", "finished.kul")
	illegal := filepath.Join("testdata", "replay", "illegal-occupied.kul")
	rec, err := engine.ParseRecord(mustRead(t, finished))
	require.NoError(t, err)
	n := len(rec.Moves)
	out := filepath.Join(dir, "board.png")
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"ply beyond the record", []string{finished, "--ply", "999"}, statusBadInput, []string{"--ply 999", "use 0 to " + strconv.Itoa(n)}},
		{"negative ply", []string{finished, "--ply", "-3"}, statusUsage, []string{"--ply -3", "0 or more"}},
		{"ply not a number", []string{finished, "--ply", "last"}, statusUsage, []string{"-ply", "last"}},
		{"unknown theme", []string{finished, "--theme", "blue"}, statusUsage, []string{"--theme", `"blue"`, "dark or light"}},
		{"unknown marbles", []string{finished, "--marbles", "blue"}, statusUsage, []string{"--marbles", `"blue"`, "standard or colour-blind"}},
		{"size too small", []string{finished, "--size", "50"}, statusUsage, []string{"--size 50", "use 320 to 2,400"}},
		{"size too large", []string{finished, "--size", "9000"}, statusUsage, []string{"--size 9000", "use 320 to 2,400"}},
		{"empty out", []string{finished, "--out", ""}, statusUsage, []string{"--out needs a file name"}},
		{"two records", []string{finished, finished}, statusUsage, []string{"one record"}},
		{"missing file", []string{filepath.Join(dir, "missing.kul")}, statusBadInput, []string{"missing.kul", "no such file"}},
		{"malformed record", []string{filepath.Join("testdata", "replay", "bad-layout.kul")}, statusBadInput, []string{"bad record"}},
		{"illegal move", []string{illegal}, statusBadInput, []string{"occupied", "--ply"}},
		{"unwritable out", []string{finished, "--out", filepath.Join(dir, "no", "board.png")}, statusBadInput, []string{"no such file"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"render"}, tt.args...)
			if !strings.Contains(strings.Join(tt.args, " "), "--out") {
				args = append(args, "--out", out)
			}
			o := mustRun(t, "", args...)
			assertFailure(t, o, tt.code, "render", tt.want...)
			_, err := os.Stat(out)
			assert.True(t, os.IsNotExist(err), "no image is written on an error")
		})
	}
}

func TestRenderBeforeAnIllegalMove(t *testing.T) {
	file := filepath.Join("testdata", "replay", "illegal-occupied.kul")
	rec, err := engine.ParseRecord(mustRead(t, file))
	require.NoError(t, err)
	_, err = rec.Replay()
	var me *engine.MoveError
	require.ErrorAs(t, err, &me)
	out := filepath.Join(t.TempDir(), "board.png")
	ok := strconv.Itoa(me.Ply - 1)
	o := mustRun(t, "", "render", file, "--out", out, "--ply", ok)
	require.Equal(t, statusOK, o.code, o.stderr)
	got, err := os.ReadFile(out)
	require.NoError(t, err)
	assert.Equal(t, mustRenderDirect(t, file, me.Ply-1, draw.Options{}), got)
	o = mustRun(t, "", "render", file, "--out", out, "--ply", strconv.Itoa(me.Ply))
	assertFailure(t, o, statusBadInput, "render", "move "+strconv.Itoa(me.Ply), "--ply")
}
