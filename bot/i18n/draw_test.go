package i18n_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/draw"
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
	assert.Equal(t, draw.DefaultChartTexts(), i18n.English.Chart())
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
