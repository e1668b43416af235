package main

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkReplay measures replay of a finished 56-marble game, from the
// record text to the output, as a script calling kulami would use it.
func BenchmarkReplay(b *testing.B) {
	text := mustRead(b, filepath.Join("testdata", "replay", "finished.kul"))
	for _, args := range [][]string{{"replay", "--json"}, {"replay"}} {
		b.Run(strings.Join(args, " "), func(b *testing.B) {
			for b.Loop() {
				if code := run(context.Background(), args, strings.NewReader(text), io.Discard, io.Discard, noEnv); code != statusOK {
					b.Fatalf("exit status %d", code)
				}
			}
		})
	}
}

// BenchmarkBoard measures drawing the board alone, which play does after
// every move.
func BenchmarkBoard(b *testing.B) {
	_, pos := mustPosition(b, "finished.kul")
	p := &printer{w: io.Discard}
	for b.Loop() {
		p.board(&pos, playable(&pos))
	}
}
