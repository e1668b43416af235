package tournament

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNext(t *testing.T) {
	changed := t0.Add(30 * time.Minute) // before the start
	none := func(GameRef) bool { return false }
	all := func(GameRef) bool { return true }
	start := t0.Add(time.Hour)
	tests := []struct {
		name   string
		tour   func(t *testing.T) *Tournament
		opened func(GameRef) bool
		posted bool
		step   Step
		at     time.Time
	}{
		{"taking players: its start", func(t *testing.T) *Tournament { return mustTournament(t, 4, nil) }, none, false, Begin, start},
		{"when full, full: at once", func(t *testing.T) *Tournament {
			return mustTournament(t, 4, func(s *Settings) { s.Start, s.MaxPlayers = time.Time{}, 4 })
		}, none, false, Begin, changed},
		{"when full, not full: nothing", func(t *testing.T) *Tournament {
			return mustTournament(t, 3, func(s *Settings) { s.Start, s.MaxPlayers = time.Time{}, 4 })
		}, none, false, Idle, time.Time{}},
		{"paired, games not open: at once", func(t *testing.T) *Tournament { tour, _ := started(t, nil); return tour }, none, false, OpenGames, changed},
		{"games open: the round's deadline", func(t *testing.T) *Tournament { tour, _ := started(t, nil); return tour }, all, false, CloseRound, start.Add(48 * time.Hour)},
		{"round complete: pair the next at once", func(t *testing.T) *Tournament {
			tour, now := started(t, nil)
			playRound(t, tour, now)
			return tour
		}, all, false, PairRound, changed},
		{"finished: post the final standings", func(t *testing.T) *Tournament {
			tour, now := started(t, func(s *Settings) { s.Rounds = 1 })
			playRound(t, tour, now)
			return tour
		}, all, false, PostFinal, changed},
		{"finished and posted: nothing", func(t *testing.T) *Tournament {
			tour, now := started(t, func(s *Settings) { s.Rounds = 1 })
			playRound(t, tour, now)
			return tour
		}, all, true, Idle, time.Time{}},
		{"cancelled: nothing (its games go on as casual games)", func(t *testing.T) *Tournament {
			tour, now := started(t, nil)
			require.NoError(t, tour.Cancel(now))
			return tour
		}, none, false, Idle, time.Time{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			step, at := tt.tour(t).Next(Progress{Opened: tt.opened, FinalPosted: tt.posted}, changed)
			assert.Equal(t, tt.step, step)
			assert.Equal(t, tt.at, at)
		})
	}
}

func TestToOpen(t *testing.T) {
	tour, now := started(t, nil)
	open := map[GameRef]bool{{1, 1, 1}: true}
	assert.Equal(t, []GameRef{{1, 2, 1}}, tour.ToOpen(func(r GameRef) bool { return open[r] }))
	require.NoError(t, tour.Record(GameRef{1, 2, 1}, Drawn, now))
	assert.Empty(t, tour.ToOpen(func(r GameRef) bool { return open[r] }), "a game with a result is not opened")
	assert.Equal(t, "close-round", CloseRound.String())
}
