package puzzle

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteReadRoundTrip(t *testing.T) {
	ps := generated(t, 12)
	require.NotEmpty(t, ps)
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, ps))
	got, err := Read(&buf)
	require.NoError(t, err)
	require.Len(t, got, len(ps))
	for i := range ps {
		assert.Equal(t, ps[i].ToJSON(), got[i].ToJSON())
	}
}

func TestReadRefusesBadFiles(t *testing.T) {
	ps := generated(t, 12)
	require.NotEmpty(t, ps)
	var buf bytes.Buffer
	require.NoError(t, Write(&buf, ps[:1]))
	lines := strings.SplitAfter(buf.String(), "\n")
	head, good := lines[0], lines[1]
	solution := `"solution":"` + ps[0].SolutionText() + `"`
	for _, tc := range []struct {
		name, file string
		line       int
		says       string
	}{
		{"empty", "", 1, "empty file"},
		{"no header", good, 1, "first line"},
		{"new version", `{"format":"kulami-puzzles","version":2}` + "\n", 1, "version 2"},
		{"not JSON", head + "\n{oops\n", 3, "invalid character"},
		{"unknown field", head + strings.Replace(good, `{"id"`, `{"x":1,"id"`, 1), 2, "unknown field"},
		{"twice", head + good + good, 3, "twice"},
		{"wrong id", head + strings.Replace(good, ps[0].ID, "000000000000", 1), 2, "not the position's"},
		{"illegal solution", head + strings.Replace(good, solution, `"solution":"Z9"`, 1), 2, "solution"},
		{"no solution", head + strings.Replace(good, solution, `"solution":""`, 1), 2, "0 moves"},
		{"bad goal", head + strings.Replace(good, `"goal":"`+string(ps[0].Goal)+`"`, `"goal":"lose"`, 1), 2, "goal"},
		{"bad theme", head + strings.Replace(good, `"themes":[`, `"themes":["fork",`, 1), 2, "fork"},
		{"bad record", head + strings.Replace(good, `[Layout \"`, `[Layout \"%`, 1), 2, "record"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(tc.file))
			var fe *FileError
			require.ErrorAs(t, err, &fe)
			assert.ErrorIs(t, err, ErrFormat)
			assert.Equal(t, tc.line, fe.Line)
			assert.Contains(t, err.Error(), tc.says)
		})
	}
}

func FuzzRead(f *testing.F) {
	var buf bytes.Buffer
	if err := Write(&buf, generated(f, 6)); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.String())
	f.Add(`{"format":"kulami-puzzles","version":1}` + "\n{}\n")
	f.Fuzz(func(t *testing.T, text string) {
		ps, err := Read(strings.NewReader(text))
		if err != nil {
			var fe *FileError
			require.True(t, errors.As(err, &fe), "a *FileError: %v", err)
			require.ErrorIs(t, err, ErrFormat)
			return
		}
		// What reads writes back to the same puzzles.
		var out bytes.Buffer
		require.NoError(t, Write(&out, ps))
		again, err := Read(&out)
		require.NoError(t, err)
		require.Len(t, again, len(ps))
		for i := range ps {
			require.NoError(t, ps[i].Check())
			require.Equal(t, ps[i].ToJSON(), again[i].ToJSON())
		}
	})
}
