package draw

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// assertGolden compares the PNG image got with testdata/name.png up to
// compareImages' tolerance, or rewrites the file with -update. On a
// difference it writes testdata/name.got.png to look at.
func assertGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".png")
	if *update {
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "no golden image; run go test ./draw -update")
	if bad := compareImages(mustDecode(t, want), mustDecode(t, got)); bad != "" {
		require.NoError(t, os.WriteFile(filepath.Join("testdata", name+".got.png"), got, 0o644))
		t.Fatalf("%s differs from the golden image: %s; see testdata/%s.got.png and, if it is right, run go test ./draw -update", name, bad, name)
	}
}
