package storage

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWakesSurviveReopen(t *testing.T) {
	s := mustOpen(t, Options{})
	path := s.Path()
	cfg := squareConfig(alice, bob)
	cfg.MoveTime = 2 * time.Hour // the first reminder at t0+1h
	require.NoError(t, s.CreateGame(t.Context(), mustNewGame(t, "g", cfg)))
	require.NoError(t, s.Close())

	s = mustOpenPath(t, path, Options{})
	due, err := s.Due(t.Context(), t0.Add(time.Hour))
	require.NoError(t, err)
	require.Len(t, due, 1)
	assert.Equal(t, Wake{WakeGame, "g", t0.Add(time.Hour)}, Wake{due[0].Kind, due[0].ChannelID, due[0].At.UTC()})
}
