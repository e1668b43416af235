package main

import (
	"bytes"
	"image/gif"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/engine"
)

func TestRenderGIF(t *testing.T) {
	file := filepath.Join("testdata", "replay", "finished.kul")
	dir := t.TempDir()
	tests := []struct {
		name   string
		args   []string
		frames int
		width  int
	}{
		{"whole game", nil, 56, draw.DefaultAnimationWidth},
		{"up to a move", []string{"--ply", "10"}, 10, draw.DefaultAnimationWidth},
		{"wider", []string{"--size", "640", "--theme", "light"}, 56, 640},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, tt.name+".gif")
			o := mustRun(t, "", append([]string{"render", "--gif", file, "--out", out}, tt.args...)...)
			require.Equal(t, statusOK, o.code, o.stderr)
			assert.Contains(t, o.stdout, "wrote "+out+": the game after ")
			b, err := os.ReadFile(out)
			require.NoError(t, err)
			g, err := gif.DecodeAll(bytes.NewReader(b))
			require.NoError(t, err)
			assert.Len(t, g.Image, tt.frames)
			assert.Equal(t, tt.width, g.Config.Width)
			assert.Less(t, len(b), 1<<20)
		})
	}
}

func TestRenderGIFToStdout(t *testing.T) {
	file := filepath.Join("testdata", "replay", "finished.kul")
	o := mustRun(t, "", "render", "--gif", "--out", "-", "--ply", "3", file)
	require.Equal(t, statusOK, o.code, o.stderr)
	rec, err := engine.ParseRecord(mustRead(t, file))
	require.NoError(t, err)
	var want bytes.Buffer
	require.NoError(t, writeGIF(&want, rec, 3, draw.Options{Width: draw.DefaultAnimationWidth, Names: [2]string{"alice", "bob"}}))
	assert.Equal(t, want.String(), o.stdout)
}

func TestRenderGIFDefaultsToGameGIF(t *testing.T) {
	file, err := filepath.Abs(filepath.Join("testdata", "replay", "finished.kul"))
	require.NoError(t, err)
	t.Chdir(t.TempDir())
	o := mustRun(t, "", "render", "--gif", "--ply", "2", file)
	require.Equal(t, statusOK, o.code, o.stderr)
	assert.Equal(t, "wrote game.gif: the game after 2 of 56 moves\n", o.stdout)
	_, err = os.Stat("game.gif")
	assert.NoError(t, err)
}

func TestRenderGIFOfNoMoves(t *testing.T) {
	out := filepath.Join(t.TempDir(), "g.gif")
	o := mustRun(t, "", "render", "--gif", "--ply", "0", "--out", out, filepath.Join("testdata", "replay", "finished.kul"))
	assertFailure(t, o, statusBadInput, "render", "one move at least")
	_, err := os.Stat(out)
	assert.True(t, os.IsNotExist(err))
}
