package draw

// The package's test helpers, for its external tests (draw_test), which
// may import packages that import draw.
var (
	AssertGolden  = assertGolden
	MustGame      = mustGame
	GameWithLines = gameWithLines
)
