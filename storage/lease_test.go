package storage

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestClaimCommitsNothing: a bbolt store keeps its leases in memory, so
// that the scheduler's claims cost no commit; a closed store refuses a
// claim as it refuses every method.
func TestClaimCommitsNothing(t *testing.T) {
	s := mustOpen(t, Options{})
	w := Wake{Kind: WakeGame, ChannelID: "c", At: t0}
	before := commitCount(t, s)
	ok, err := s.Claim(t.Context(), w, "a", t0, time.Minute)
	require.NoError(t, err)
	assert.True(t, ok, "a free wake")
	ok, err = s.Claim(t.Context(), w, "b", t0, time.Minute)
	require.NoError(t, err)
	assert.False(t, ok, "held by a")
	assert.Equal(t, before, commitCount(t, s), "claims commit nothing")

	require.NoError(t, s.Close())
	_, err = s.Claim(t.Context(), w, "a", t0, time.Minute)
	assert.Error(t, err, "a closed store refuses a claim")
}
