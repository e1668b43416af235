package tournament

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJSONRoundTrip(t *testing.T) {
	start := t0.Add(time.Hour)
	phases := map[string]func(*Tournament){
		"registration": func(*Tournament) {},
		"playing": func(tour *Tournament) {
			require.NoError(t, tour.Start(start))
			require.NoError(t, tour.Adjudicate(GameRef{1, 1, 1}, Drawn, "hard evaluation", start))
		},
		"between": func(tour *Tournament) {
			require.NoError(t, tour.Start(start))
			playRound(t, tour, start)
		},
		"cancelled": func(tour *Tournament) { require.NoError(t, tour.Cancel(start)) },
	}
	for name, setup := range phases {
		t.Run(name, func(t *testing.T) {
			tour := mustTournament(t, 5, func(s *Settings) { s.Duplicate, s.Layout, s.MoveTime = true, "standard", time.Hour })
			setup(tour)
			b, err := json.Marshal(tour)
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(string(b), `{"version":1,`), "%s", b)
			var back Tournament
			require.NoError(t, json.Unmarshal(b, &back))
			assert.Equal(t, tour.s, back.s)
			byValue, err := json.Marshal(*tour)
			require.NoError(t, err)
			assert.JSONEq(t, string(b), string(byValue))
		})
	}
}

func TestUnmarshalJSONRefuses(t *testing.T) {
	tests := map[string]string{
		"not JSON":          `{`,
		"no version":        `{"settings":{"name":"x","rounds":1,"days_per_round":1},"phase":"registration"}`,
		"future version":    `{"version":2,"phase":"registration"}`,
		"unknown phase":     `{"version":1,"phase":"paused"}`,
		"unknown result":    `{"version":1,"settings":{"rounds":1},"phase":"playing","players":[{"id":"a"},{"id":"b"}],"rounds":[{"number":1,"pairings":[{"board":1,"first":"a","second":"b","games":[{"first":"a","second":"b","result":"won"}]}]}]}`,
		"unknown player":    `{"version":1,"settings":{"rounds":1},"phase":"playing","players":[{"id":"a"}],"rounds":[{"number":1,"pairings":[{"board":1,"first":"a","second":"b","games":[{"first":"a","second":"b","result":"pending"}]}]}]}`,
		"player twice":      `{"version":1,"phase":"registration","players":[{"id":"a"},{"id":"a"}]}`,
		"rounds in phase":   `{"version":1,"settings":{"rounds":1},"phase":"registration","players":[{"id":"a"},{"id":"b"}],"rounds":[{"number":1,"bye":"a"}]}`,
		"too many rounds":   `{"version":1,"settings":{"rounds":0},"phase":"between","rounds":[{"number":1}]}`,
		"games of a pair":   `{"version":1,"settings":{"rounds":1,"duplicate":true},"phase":"playing","players":[{"id":"a"},{"id":"b"}],"rounds":[{"number":1,"pairings":[{"board":1,"first":"a","second":"b","games":[{"first":"a","second":"b","result":"pending"}]}]}]}`,
		"misnumbered round": `{"version":1,"settings":{"rounds":2},"phase":"between","rounds":[{"number":2,"completed":"2026-01-01T00:00:00Z"}]}`,
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			var tour Tournament
			assert.ErrorIs(t, tour.UnmarshalJSON([]byte(in)), ErrFormat)
		})
	}
}

// FuzzUnmarshalJSON checks that whatever UnmarshalJSON accepts writes back
// to the same tournament, and that its standings and pairing do not fail.
func FuzzUnmarshalJSON(f *testing.F) {
	start := t0.Add(time.Hour)
	for _, duplicate := range []bool{false, true} {
		tour := mustTournament(f, 5, func(s *Settings) { s.Duplicate = duplicate })
		b, err := json.Marshal(tour)
		require.NoError(f, err)
		f.Add(b)
		require.NoError(f, tour.Start(start))
		require.NoError(f, tour.Forfeit(GameRef{1, 1, 1}, tour.Rounds()[0].Pairings[0].First, start))
		playRound(f, tour, start)
		b, err = json.Marshal(tour)
		require.NoError(f, err)
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var tour Tournament
		if json.Unmarshal(in, &tour) != nil {
			return
		}
		out, err := json.Marshal(&tour)
		require.NoError(t, err)
		var back Tournament
		require.NoError(t, json.Unmarshal(out, &back), "%s", out)
		assert.Equal(t, tour.s, back.s)
		assert.Len(t, tour.Standings(), len(tour.Players()))
		if phase, _ := tour.State(); phase == Between && tour.Active() <= 16 {
			assert.NoError(t, tour.PairNext(t0))
		}
	})
}
