package rating_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/engine/rating"
)

func TestLadderOf(t *testing.T) {
	alice, bob := game.Player{UserID: "1", Name: "alice"}, game.Player{UserID: "2", Name: "bob"}
	easy := game.Player{Name: "Computer", AI: "easy"}
	for _, tt := range []struct {
		name    string
		players [2]game.Player
		want    rating.Ladder
	}{
		{"people", [2]game.Player{alice, bob}, rating.Human},
		{"computer black", [2]game.Player{alice, easy}, rating.AI},
		{"computer red", [2]game.Player{easy, bob}, rating.AI},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, rating.LadderOf(tt.players))
		})
	}
}

func TestLadderOutOfRange(t *testing.T) {
	_, err := rating.Ladder(7).MarshalText()
	assert.ErrorIs(t, err, rating.ErrInvalid)
	assert.Equal(t, "Ladder(7)", rating.Ladder(7).String())
	assert.Equal(t, "ai", rating.AI.String())
}

// FuzzLadderText checks the ladders' names: a name that parses is written
// back the same, and anything else is refused with the list of names.
func FuzzLadderText(f *testing.F) {
	for _, s := range []string{"human", "ai", "Human", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var l rating.Ladder
		if err := l.UnmarshalText([]byte(s)); err != nil {
			assert.ErrorIs(t, err, rating.ErrInvalid)
			assert.ErrorContains(t, err, "is not one of human, ai")
			return
		}
		b, err := l.MarshalText()
		require.NoError(t, err)
		assert.Equal(t, s, string(b))
	})
}
