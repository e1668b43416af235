package i18n_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/kulami/kulami/bot/i18n"
)

func TestDuration(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{0, "less than a second"},
		{time.Second - 1, "less than a second"},
		{time.Second, "1 second"},
		{59 * time.Second, "59 seconds"},
		{4*time.Minute + 30*time.Second, "4 minutes 30 seconds"},
		{time.Hour + 30*time.Second, "1 hour"},
		{time.Minute, "1 minute"},
		{45 * time.Minute, "45 minutes"},
		{time.Hour, "1 hour"},
		{10*time.Hour + 59*time.Second, "10 hours"},
		{25*time.Hour + 30*time.Minute, "1 day 1 hour"},
		{50 * time.Hour, "2 days 2 hours"},
		{48*time.Hour + 5*time.Minute, "2 days"},
		{3*time.Hour + 7*time.Minute, "3 hours 7 minutes"},
	} {
		t.Run(tt.want, func(t *testing.T) {
			d := i18n.English.Duration(tt.d)
			assert.Equal(t, tt.want, d.String())
			assert.Equal(t, tt.want, d.Dative(), "English has no dative of its own")
		})
	}
}

// TestDurationDative: German says a duration after bei, mit, in… in the
// dative, which a message asks for with {{.Left.Dative}}; a message that
// writes {{.Left}} gets the plain form.
func TestDurationDative(t *testing.T) {
	for _, tt := range []struct {
		d             time.Duration
		plain, dative string
	}{
		{2 * 24 * time.Hour, "2 Tage", "2 Tagen"},
		{24*time.Hour + 3*time.Hour, "1 Tag 3 Stunden", "1 Tag 3 Stunden"},
		{12*24*time.Hour + 5*time.Hour, "12 Tage 5 Stunden", "12 Tagen 5 Stunden"},
		{0, "weniger als eine Sekunde", "weniger als einer Sekunde"},
	} {
		t.Run(tt.plain, func(t *testing.T) {
			d := i18n.German.Duration(tt.d)
			assert.Equal(t, tt.plain, d.String())
			assert.Equal(t, tt.dative, d.Dative())
		})
	}
	two := i18n.German.Duration(48 * time.Hour)
	assert.Equal(t, "2 Tage pro Zug", i18n.German.T("move_time.per_move", "Time", two), "{{.Time}} writes the plain form")
	assert.Contains(t, i18n.German.T("board.stopped", "Player", "Ann", "Left", two), "bei 2 Tagen", "{{.Left.Dative}} writes the dative")
}
