package bot

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/bot/i18n"
	"github.com/kulami/kulami/storage"
)

// TestExplainBusy: a call the database could not serve in time (a game
// row locked too long, no connection free) is a refusal worded in every
// language, not a fault.
func TestExplainBusy(t *testing.T) {
	err := fmt.Errorf("update game in channel 1: %w: a row it needs stayed locked", storage.ErrBusy)
	msg, expected := explain(i18n.English, err)
	assert.Equal(t, "This game is being updated; try again in a moment.", msg)
	assert.True(t, expected)
	for _, lang := range i18n.Langs() {
		t.Run(lang.Name(), func(t *testing.T) {
			got, _ := explain(lang, err)
			assert.Equal(t, lang.T("error.busy"), got)
			if lang != i18n.English {
				assert.NotEqual(t, msg, got, "translated")
			}
		})
	}
}
