package game_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

// totals returns a score with the given totals for Red and Black.
func totals(red, black int) engine.Score {
	var s engine.Score
	s[engine.Red].Total, s[engine.Black].Total = red, black
	return s
}

func TestResult(t *testing.T) {
	tests := []struct {
		name    string
		result  game.Result
		str     string
		red     game.Outcome
		black   game.Outcome
		unrated bool
	}{
		{"red wins on the board", game.Result{Ending: game.Normal, Winner: engine.Red, Score: totals(35, 29)},
			"Red 35-29", game.Won, game.Lost, false},
		{"black wins on the board", game.Result{Ending: game.Normal, Winner: engine.Black, Score: totals(29, 35)},
			"Black 35-29", game.Lost, game.Won, false},
		{"drawn on the board", game.Result{Ending: game.Normal, Draw: true, Score: totals(30, 30)},
			"Draw 30-30", game.Drawn, game.Drawn, false},
		{"red resigned", game.Result{Ending: game.Resigned, Winner: engine.Black, Score: totals(20, 3)},
			"Black wins, Red resigned", game.Lost, game.Won, false},
		{"black resigned", game.Result{Ending: game.Resigned, Winner: engine.Red},
			"Red wins, Black resigned", game.Won, game.Lost, false},
		{"black ran out of time", game.Result{Ending: game.TimedOut, Winner: engine.Red, Score: totals(1, 9)},
			"Red wins, Black ran out of time", game.Won, game.Lost, false},
		{"red ran out of time", game.Result{Ending: game.TimedOut, Winner: engine.Black},
			"Black wins, Red ran out of time", game.Lost, game.Won, false},
		{"draw agreed", game.Result{Ending: game.DrawAgreed, Draw: true, Score: totals(12, 4)},
			"Draw by agreement", game.Drawn, game.Drawn, false},
		{"aborted", game.Result{Ending: game.Aborted},
			"Aborted", game.NoContest, game.NoContest, true},
		{"red won by adjudication", game.Result{Ending: game.Adjudicated, Winner: engine.Red, Score: totals(10, 14)},
			"Red wins by adjudication", game.Won, game.Lost, false},
		{"black won by adjudication", game.Result{Ending: game.Adjudicated, Winner: engine.Black},
			"Black wins by adjudication", game.Lost, game.Won, false},
		{"drawn by adjudication", game.Result{Ending: game.Adjudicated, Draw: true, Score: totals(8, 8)},
			"Draw by adjudication", game.Drawn, game.Drawn, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.str, tt.result.String())
			assert.Equal(t, tt.red, tt.result.Outcome(engine.Red))
			assert.Equal(t, tt.black, tt.result.Outcome(engine.Black))
			assert.Equal(t, !tt.unrated, tt.result.Rated())
		})
	}
}

func TestResultOfAGame(t *testing.T) {
	for name, g := range sampleGames(t) {
		r := g.Result()
		if r == nil || r.Ending != game.Normal {
			continue
		}
		t.Run(name, func(t *testing.T) {
			w, l := r.Winner, r.Winner.Other()
			require.False(t, r.Draw, "the sample games are decided")
			assert.Greater(t, r.Score[w].Total, r.Score[l].Total)
			assert.Equal(t, fmt.Sprintf("%s %d-%d", w.Title(), r.Score[w].Total, r.Score[l].Total), r.String())
			assert.Equal(t, game.Won, r.Outcome(w))
			assert.Equal(t, game.Lost, r.Outcome(l))
			assert.True(t, r.Rated())
		})
	}
}

func TestResultJSON(t *testing.T) {
	r := game.Result{Ending: game.TimedOut, Winner: engine.Red, Score: totals(3, 2), At: t0}
	b, err := json.Marshal(r)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"ending":"timed-out"`)
	var back game.Result
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, r, back)
}

// textCase is a value of a type named by text and its name.
type textCase[T any] struct {
	value T
	name  string
}

// testText checks that each case's value is written as its name and its
// name read back as it, that unknown names are refused, leaving the value
// alone, and that a value without a name cannot be written.
func testText[T interface {
	~uint8
	String() string
	MarshalText() ([]byte, error)
}, P interface {
	*T
	UnmarshalText([]byte) error
}](t *testing.T, cases []textCase[T], typ string) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.name, c.value.String())
			b, err := c.value.MarshalText()
			require.NoError(t, err)
			assert.Equal(t, c.name, string(b))
			var back T
			require.NoError(t, P(&back).UnmarshalText(b))
			assert.Equal(t, c.value, back)
		})
	}
	for _, s := range []string{"", "Normal", "won ", "draw", "unknown"} {
		t.Run("unknown "+s, func(t *testing.T) {
			v := T(1)
			assert.ErrorIs(t, P(&v).UnmarshalText([]byte(s)), game.ErrInvalid)
			assert.Equal(t, T(1), v, "a refused name changed the value")
		})
	}
	t.Run("no name", func(t *testing.T) {
		v := T(len(cases))
		assert.Equal(t, fmt.Sprintf("%s(%d)", typ, len(cases)), v.String())
		_, err := v.MarshalText()
		assert.ErrorIs(t, err, game.ErrInvalid)
	})
}

func TestEndingText(t *testing.T) {
	testText(t, []textCase[game.Ending]{
		{game.Normal, "normal"}, {game.Resigned, "resigned"}, {game.TimedOut, "timed-out"},
		{game.Aborted, "aborted"}, {game.DrawAgreed, "draw-agreed"},
		{game.Unstarted, "unstarted"}, {game.Abandoned, "abandoned"}, {game.Adjudicated, "adjudicated"},
	}, "Ending")
}

func TestOutcomeText(t *testing.T) {
	testText(t, []textCase[game.Outcome]{
		{game.NoContest, "no-contest"}, {game.Won, "won"}, {game.Lost, "lost"}, {game.Drawn, "drawn"},
	}, "Outcome")
}
