package bot

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
			assert.Equal(t, tt.want, duration(i18n.English, tt.d))
		})
	}
}
