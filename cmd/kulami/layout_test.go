package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

func TestLayoutGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"square", []string{"layout"}},
		{"square-named", []string{"layout", "square"}},
		{"random-7", []string{"layout", "random", "--seed", "7"}},
		{"irregular-7", []string{"layout", "--seed=7", "irregular"}},
		{"irregular-12345", []string{"layout", "irregular", "--seed", "12345"}},
		// The irregular example of RECORD.md, a full 10×10.
		{"string", []string{"layout", ".aaa.bb.../cccddbbeee/cccdd..ff./...gg..ff./hiiggjjkk./hiigg.lkkm/hiinnnlo.m/....pppo../....pppqq./.......qq."}},
		// Not in canonical order: printed canonical.
		{"string-relabelled", []string{"layout", "zzyxxwvv/zzyxxwvv/zzyuuuvv/tssrrqqp/tssrrqqp/oonnnmll/ookjjmll/ookjjmll"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := mustRun(t, "", tt.args...)
			require.Equal(t, statusOK, o.code, o.stderr)
			assert.Empty(t, o.stderr)
			golden(t, "layout/"+tt.name, o.transcript(tt.args))
			again := mustRun(t, "", tt.args...)
			assert.Equal(t, o, again, "the same output every time")
		})
	}
}

var layoutLine = regexp.MustCompile(`(?m)^Layout: (\S+)$`)
var seedLine = regexp.MustCompile(`(?m)^Seed: (\d+) \(kulami layout (\w+) --seed (\d+) makes it again\)$`)

// TestLayoutSeedFromClock checks that a layout made without --seed tells
// its seed, and that the seed makes the same layout again.
func TestLayoutSeedFromClock(t *testing.T) {
	for _, kind := range []string{kindRandom, kindIrregular} {
		t.Run(kind, func(t *testing.T) {
			o := mustRun(t, "", "layout", kind)
			require.Equal(t, statusOK, o.code, o.stderr)
			m := seedLine.FindStringSubmatch(o.stdout)
			require.NotNil(t, m, "a seed line in %s", o.stdout)
			assert.Equal(t, m[1], m[3])
			assert.Equal(t, kind, m[2])
			again := mustRun(t, "", "layout", kind, "--seed", m[1])
			assert.Equal(t, o, again)

			l := layoutLine.FindStringSubmatch(o.stdout)
			require.NotNil(t, l)
			_, err := engine.ParseLayout(l[1])
			assert.NoError(t, err, "the printed layout string is valid")
		})
	}
}

// TestLayoutPicture checks the picture of random layouts against the
// layout: a row per board row, labelled on both sides, the same width
// every line, and a border between two cells exactly when they lie on
// different panels.
func TestLayoutPicture(t *testing.T) {
	for seed := range uint64(40) {
		l := engine.RandomIrregular(seed)
		if seed%2 == 0 {
			l = engine.RandomSquare(seed)
		}
		o := mustRun(t, "", "layout", l.String())
		require.Equal(t, statusOK, o.code, o.stderr)
		lines := strings.Split(strings.TrimSuffix(o.stdout, "\n"), "\n")
		require.Len(t, lines, 2+1+2*l.Height()+1+1, "layout, blank line, letters, borders and rows, letters")
		pic := lines[2:]
		letters := pic[0]
		assert.Equal(t, letters, pic[len(pic)-1], "letters above and below")
		for col := range l.Width() {
			assert.Equal(t, byte('A'+col), letters[3+4*col+2], "letter of column %d", col)
		}
		for row := range l.Height() {
			line := []rune(pic[2+2*row])
			label := string(line[:3])
			assert.Equal(t, strings.TrimSpace(label), strings.TrimSpace(string(line[len(line)-2:])), "row label on both sides")
			for col := 1; col < l.Width(); col++ {
				a, aok := l.PanelAt(engine.CellAt(col-1, row))
				b, bok := l.PanelAt(engine.CellAt(col, row))
				border := line[3+4*col] == '│'
				assert.Equal(t, aok != bok || a != b, border, "seed %d: border left of %s", seed, engine.CellAt(col, row))
			}
		}
		for row := 1; row < l.Height(); row++ {
			line := []rune(pic[1+2*row])
			for col := range l.Width() {
				a, aok := l.PanelAt(engine.CellAt(col, row-1))
				b, bok := l.PanelAt(engine.CellAt(col, row))
				border := 3+4*col+2 < len(line) && line[3+4*col+2] == '─'
				assert.Equal(t, aok != bok || a != b, border, "seed %d: border above %s", seed, engine.CellAt(col, row))
			}
		}
	}
}
