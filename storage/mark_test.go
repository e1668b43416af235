package storage

import (
	"errors"
	"testing"

	"github.com/kulami/kulami/engine/rating"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// FuzzParseMark feeds arbitrary text to the parser of a leaderboard
// button's mark: a mark it accepts writes a text that reads back as the
// same mark, fits a custom ID with room to spare and holds no colon;
// anything refused is ErrInvalid.
func FuzzParseMark(f *testing.F) {
	for _, p := range []Profile{
		{UserID: "123456789012345678", Standing: rating.Standing{Name: "Ann", Rating: rating.New()}},
		{UserID: "ai:hard", Standing: rating.Standing{Name: "Computer", Rating: rating.Rating{Rating: -3.5}, Tally: Tally{Wins: 300, Losses: 2}}},
	} {
		f.Add(MarkOf(&p).String())
	}
	f.Add("")
	f.Add("AAAAAAAAAAAA")
	f.Add("!!")
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMark(s)
		if err != nil {
			assert.True(t, errors.Is(err, ErrInvalid), "%v", err)
			return
		}
		text := m.String()
		again, err := ParseMark(text)
		require.NoError(t, err)
		assert.Equal(t, m, again)
		assert.LessOrEqual(t, len(text), 60)
		assert.NotContains(t, text, ":")
	})
}
