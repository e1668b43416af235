package ai_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
)

func TestParseLevel(t *testing.T) {
	tests := []struct {
		in      string
		want    ai.Level
		wantErr string
	}{
		{in: "easy", want: ai.Easy},
		{in: "Medium", want: ai.Medium},
		{in: "HARD", want: ai.Hard},
		{in: "", wantErr: `level must be easy, medium or hard, not ""`},
		{in: "expert", wantErr: `level must be easy, medium or hard, not "expert"`},
		{in: " hard", wantErr: `level must be easy, medium or hard, not " hard"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			l, err := ai.ParseLevel(tt.in)
			if tt.wantErr != "" {
				assert.EqualError(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, l)
		})
	}
}

func TestLevelText(t *testing.T) {
	for _, l := range ai.Levels {
		b, err := l.MarshalText()
		require.NoError(t, err)
		var back ai.Level
		require.NoError(t, back.UnmarshalText(b))
		assert.Equal(t, l, back)
	}
	var l ai.Level
	assert.Error(t, l.UnmarshalText([]byte("grandmaster")))
	assert.Equal(t, "Level(0)", l.String())
}

func TestLevelConfig(t *testing.T) {
	assert.Equal(t, ai.Config{}, ai.Level(0).Config(), "no level, no search")
	for _, l := range ai.Levels {
		c := l.Config()
		assert.Equal(t, ai.DefaultTime, c.Time, "%s: every level's ceiling", l)
	}
	assert.Zero(t, ai.Hard.Config().Playouts, "hard searches its whole budget")
	assert.Less(t, ai.Easy.Config().Playouts, ai.Medium.Config().Playouts)
	assert.Positive(t, ai.Easy.Config().Temperature, "easy errs on purpose")

	_, err := ai.Level(0).Move(context.Background(), engine.NewPosition(engine.Square(), engine.Red), engine.Basic)
	assert.ErrorIs(t, err, ai.ErrNoBudget)
}

// TestLevelsOrdered plays a short match between neighbouring levels, on
// fixed playout budgets so that it is reproducible: each level must win
// more games than it loses against the one below.
func TestLevelsOrdered(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 12 games")
	}
	fixed := func(l ai.Level, playouts int) ai.Config {
		c := l.Config()
		c.Time, c.Workers = 0, 2
		if playouts > 0 {
			c.Playouts = playouts
		}
		return c
	}
	easy, medium, hard := fixed(ai.Easy, 0), fixed(ai.Medium, 0), fixed(ai.Hard, 5000)
	for _, m := range []struct {
		name         string
		strong, weak ai.Player
	}{
		{"medium-easy", medium, easy},
		{"hard-medium", hard, medium},
	} {
		t.Run(m.name, func(t *testing.T) {
			wins, losses := 0, 0
			for i := range 6 {
				strong := engine.Color(i % 2)
				var players [2]ai.Player
				players[strong], players[strong.Other()] = m.strong, m.weak
				g, err := ai.PlayGame(context.Background(), engine.RandomSquare(uint64(i)), engine.Red, allRules[i%4], players)
				require.NoError(t, err)
				if w, ok := g.Score.Winner(); ok && w == strong {
					wins++
				} else if ok {
					losses++
				}
			}
			assert.Greater(t, wins, losses, "%d wins, %d losses", wins, losses)
		})
	}
}

func FuzzParseLevel(f *testing.F) {
	for _, s := range []string{"easy", "MEDIUM", "Hard", "", "hardest", "ｅasy"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ai.ParseLevel(s)
		if err != nil {
			assert.Contains(t, err.Error(), "easy, medium or hard")
			return
		}
		assert.True(t, strings.EqualFold(s, l.String()), "%q parsed as %s", s, l)
		again, err := ai.ParseLevel(l.String())
		require.NoError(t, err)
		assert.Equal(t, l, again)
	})
}
