package drawtest

import (
	"bytes"
	"flag"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the golden images in testdata/")

// AssertGolden compares the PNG image got with testdata/name.png, in the
// folder of the package under test, up to CompareImages' tolerance, or
// rewrites the file with -update. On a difference it writes
// testdata/name.got.png to look at and fails the test.
func AssertGolden(tb testing.TB, name string, got []byte) {
	tb.Helper()
	path := filepath.Join("testdata", name+".png")
	if *update {
		require.NoError(tb, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(tb, err, "no golden image; run go test %s -update", packageArg())
	if bad := CompareImages(MustDecode(tb, want), MustDecode(tb, got)); bad != "" {
		require.NoError(tb, os.WriteFile(filepath.Join("testdata", name+".got.png"), got, 0o644))
		tb.Fatalf("%s differs from the golden image: %s; see testdata/%s.got.png and, if it is right, run go test %s -update", name, bad, name, packageArg())
	}
}

// MustDecode decodes the PNG image b.
func MustDecode(tb testing.TB, b []byte) image.Image {
	tb.Helper()
	im, err := png.Decode(bytes.NewReader(b))
	require.NoError(tb, err)
	return im
}

// packageArg returns how go test names the package under test, which runs
// in its own folder: its path from the module's root, as "./draw", or "."
// if the root is not found.
func packageArg() string {
	dir, err := os.Getwd()
	if err != nil {
		return "."
	}
	for root := dir; ; {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			rel, err := filepath.Rel(root, dir)
			if err != nil || rel == "." {
				return "."
			}
			return "./" + filepath.ToSlash(rel)
		}
		up := filepath.Dir(root)
		if up == root {
			return "."
		}
		root = up
	}
}
