package tournament

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestSettingsValidate(t *testing.T) {
	ok := Settings{Name: "Autumn Swiss", Rounds: 5, DaysPerRound: 7, MaxPlayers: 16, Start: t0.Add(24 * time.Hour)}
	tests := []struct {
		name   string
		change func(*Settings)
		want   error
	}{
		{"valid", func(*Settings) {}, nil},
		{"when full", func(s *Settings) { s.Start = time.Time{} }, nil},
		{"no limit", func(s *Settings) { s.MaxPlayers = 0 }, nil},
		{"100 characters", func(s *Settings) { s.Name = strings.Repeat("é", 100) }, nil},
		{"empty name", func(s *Settings) { s.Name = "  " }, ErrName},
		{"101 characters", func(s *Settings) { s.Name = strings.Repeat("é", 101) }, ErrName},
		{"everyone", func(s *Settings) { s.Name = "cup @everyone" }, ErrNameMention},
		{"here", func(s *Settings) { s.Name = "@here cup" }, ErrNameMention},
		{"user mention", func(s *Settings) { s.Name = "<@123> cup" }, ErrNameMention},
		{"role mention", func(s *Settings) { s.Name = "<@&123> cup" }, ErrNameMention},
		{"channel mention", func(s *Settings) { s.Name = "<#123> cup" }, ErrNameMention},
		{"0 rounds", func(s *Settings) { s.Rounds = 0 }, ErrRounds},
		{"16 rounds", func(s *Settings) { s.Rounds = 16 }, ErrRounds},
		{"0 days", func(s *Settings) { s.DaysPerRound = 0 }, ErrDaysPerRound},
		{"31 days", func(s *Settings) { s.DaysPerRound = 31 }, ErrDaysPerRound},
		{"2 players", func(s *Settings) { s.MaxPlayers = 2 }, ErrMaxPlayers},
		{"257 players", func(s *Settings) { s.MaxPlayers = 257 }, ErrMaxPlayers},
		{"start in the past", func(s *Settings) { s.Start = t0.Add(-time.Minute) }, ErrStartTime},
		{"start too far", func(s *Settings) { s.Start = t0.Add(MaxStartDelay + time.Minute) }, ErrStartTime},
		{"when full without a limit", func(s *Settings) { s.Start, s.MaxPlayers = time.Time{}, 0 }, ErrStartTime},
		{"too many rounds for the limit", func(s *Settings) { s.MaxPlayers = 4 }, ErrTooManyRounds},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := ok
			tt.change(&s)
			err := s.Validate(t0)
			if tt.want == nil {
				assert.NoError(t, err)
				return
			}
			assert.ErrorIs(t, err, tt.want)
		})
	}
}

func TestRoundsErrorSaysTheMost(t *testing.T) {
	err := Settings{Name: "x", Rounds: 5, DaysPerRound: 1, MaxPlayers: 4}.Validate(t0)
	var re *RoundsError
	if assert.ErrorAs(t, err, &re) {
		assert.Equal(t, RoundsError{Rounds: 5, Max: 3}, *re)
	}
	assert.Equal(t, "tournament: 5 rounds asked, at most 3 can be paired without meeting twice", err.Error())
}

func TestMostRounds(t *testing.T) {
	for n, want := range map[int]int{3: 3, 4: 3, 5: 5, 8: 7, 256: 255} {
		assert.Equal(t, want, MostRounds(n), "%d players", n)
	}
}

func TestPointsString(t *testing.T) {
	for p, want := range map[Points]string{0: "0", 1: "½", 2: "1", 5: "2½", -3: "-1½", -1: "-½"} {
		assert.Equal(t, want, p.String())
		assert.InDelta(t, float64(p)/2, p.Float(), 0)
	}
}
