package i18n_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/draw"
	"github.com/kulami/kulami/draw/drawtest"
	"github.com/kulami/kulami/engine"
)

// TestDrawEnglish: the board's English texts from en.toml are draw's own
// defaults, so an English server's images are unchanged; only the caption
// of a game over without a result differs, which draw's default leaves
// with an unfilled {name}.
func TestDrawEnglish(t *testing.T) {
	got, want := i18n.English.Draw(), draw.English
	assert.Equal(t, "Game over", got.GameOver)
	got.GameOver = want.GameOver
	assert.Equal(t, "1,234", got.Number(1234))
	assert.True(t, got.One(1))
	assert.False(t, got.One(0))
	got.Number, got.One = nil, nil
	assert.Equal(t, want, got)
	chart := i18n.English.Chart("Red", "Black")
	assert.Equal(t, "25%", chart.Percent(0.25))
	chart.Percent = nil
	assert.Equal(t, draw.DefaultChartTexts(), chart)
}

// TestDrawFrench: a French board says "0 plaque", singular, and writes
// large numbers with a space.
func TestDrawFrench(t *testing.T) {
	fr := i18n.French.Draw()
	assert.Equal(t, draw.Plural{One: "{n} plaque", Other: "{n} plaques"}, fr.Panels)
	assert.True(t, fr.One(0))
	assert.Equal(t, "1\u00a0234", fr.Number(1234))
	assert.Equal(t, "Coup {n} · à {name} ({a}) de jouer · décompte {b}", fr.Playing)
}

// TestGoldenLanguages draws boards with these texts: a game going on in
// French, and a finished one with every bonus in each language (the score
// table, whose columns fit their heads, the key, the footer). Look at
// testdata/*.png after go test ./bot/i18n -update.
func TestGoldenLanguages(t *testing.T) {
	names := [2]string{"alice", "Bob the Builder"}
	en, fr, es, de := i18n.English.Draw(), i18n.French.Draw(), i18n.Spanish.Draw(), i18n.German.Draw()
	mid := drawtest.MustGame(t, engine.Square(), 7, 40)
	end := drawtest.GameWithLines()
	require.True(t, end.IsOver())
	for _, tc := range []struct {
		name string
		p    engine.Position
		opt  draw.Options
	}{
		{"mid_fr", mid, draw.Options{Names: names, Rules: engine.Full, Text: &fr}},
		{"over_full_en", end, draw.Options{Names: names, Rules: engine.Full, Text: &en}},
		{"over_full_fr", end, draw.Options{Names: names, Rules: engine.Full, Text: &fr}},
		{"over_full_es", end, draw.Options{Names: names, Rules: engine.Full, Text: &es}},
		{"over_full_de", end, draw.Options{Names: names, Rules: engine.Full, Text: &de}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, draw.Render(&buf, &tc.p, tc.opt))
			drawtest.AssertGolden(t, tc.name, buf.Bytes())
		})
	}
}
