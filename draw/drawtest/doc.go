// Package drawtest provides what tests of board images need, in draw and
// in the packages that use it (as net/http/httptest does for net/http):
// golden images compared up to a small tolerance, and the positions they
// show.
//
// A test draws an image and compares it with testdata/<name>.png in its
// own package's folder:
//
//	func TestGolden(t *testing.T) {
//		p := drawtest.MustGame(t, engine.Square(), 7, 40)
//		var buf bytes.Buffer
//		require.NoError(t, draw.Render(&buf, &p, draw.Options{}))
//		drawtest.AssertGolden(t, "mid", buf.Bytes())
//	}
//
// go test with -update (a flag this package defines, so a test binary that
// imports it has it) rewrites the golden images instead; look at them
// before committing. drawtest does not import draw, so that draw's own
// tests can use it.
package drawtest
