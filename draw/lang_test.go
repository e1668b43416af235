package draw_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/draw/drawtest"
	"github.com/kulami/kulami/engine"
)

// TestGoldenLanguages draws boards with the texts of bot/i18n: a game
// going on in French, and a finished one with every bonus in German (the
// score table, the key, the footer). Look at testdata/mid_fr.png and
// over_full_de.png after go test ./draw -update.
func TestGoldenLanguages(t *testing.T) {
	names := [2]string{"alice", "Bob the Builder"}
	fr, de := i18n.French.Draw(), i18n.German.Draw()
	mid := drawtest.MustGame(t, engine.Square(), 7, 40)
	end := drawtest.GameWithLines()
	require.True(t, end.IsOver())
	for _, tc := range []struct {
		name string
		p    engine.Position
		opt  draw.Options
	}{
		{"mid_fr", mid, draw.Options{Names: names, Rules: engine.Full, Text: &fr}},
		{"over_full_de", end, draw.Options{Names: names, Rules: engine.Full, Text: &de}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, draw.Render(&buf, &tc.p, tc.opt))
			drawtest.AssertGolden(t, tc.name, buf.Bytes())
		})
	}
}
