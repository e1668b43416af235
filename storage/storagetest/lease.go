package storagetest

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mustClaim claims w for owner at now for a minute and returns whether
// it got it.
func mustClaim(tb testing.TB, s Store, w storage.Wake, owner string, now time.Time) bool {
	tb.Helper()
	ok, err := s.Claim(tb.Context(), w, owner, now, time.Minute)
	require.NoError(tb, err)
	return ok
}

func testClaim(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	w := storage.Wake{Kind: storage.WakeGame, ChannelID: "c", At: t0}
	assert.True(t, mustClaim(t, s, w, "a", t0), "a free wake")
	assert.False(t, mustClaim(t, s, w, "b", t0.Add(30*time.Second)), "held by a")
	assert.True(t, mustClaim(t, s, w, "a", t0.Add(30*time.Second)), "a renews its own")
	assert.False(t, mustClaim(t, s, w, "b", t0.Add(89*time.Second)), "a's renewal lasts to 1m30s")
	assert.True(t, mustClaim(t, s, w, "b", t0.Add(90*time.Second)), "a's lease lapsed: b takes over")
	later := storage.Wake{Kind: storage.WakeGame, ChannelID: "c", At: t0.Add(time.Hour)}
	assert.True(t, mustClaim(t, s, later, "a", t0.Add(100*time.Second)), "another wake of the channel is free")
	other := storage.Wake{Kind: storage.WakeChallenge, ChannelID: "c", At: t0.Add(time.Hour)}
	assert.True(t, mustClaim(t, s, other, "b", t0.Add(100*time.Second)), "a challenge's wake is not its game's")
	review := storage.Wake{Kind: storage.WakeReview, ChannelID: "g/1", At: t0}
	assert.True(t, mustClaim(t, s, review, "a", t0), "a free review")
	assert.False(t, mustClaim(t, s, review, "b", t0.Add(30*time.Second)), "a review held by a")
	assert.True(t, mustClaim(t, s, review, "b", t0.Add(time.Minute)), "a's review lease lapsed: b takes over")

	_, err := s.Claim(t.Context(), w, "", t0, time.Minute)
	assert.ErrorIs(t, err, storage.ErrInvalid)
	assert.ErrorContains(t, err, "lease owner is empty")
	_, err = s.Claim(t.Context(), w, "a", t0, 0)
	assert.ErrorIs(t, err, storage.ErrInvalid)
	assert.ErrorContains(t, err, "must last a positive time")
	assert.Empty(t, counts(t, s), "leases are not exported")
}

// granted runs claim n times at once, claim i with i, and returns how
// many returned true; an error fails the test.
func granted(t *testing.T, n int, claim func(i int) (bool, error)) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for i := range n {
		wg.Go(func() {
			ok, err := claim(i)
			assert.NoError(t, err)
			mu.Lock()
			defer mu.Unlock()
			if ok {
				won++
			}
		})
	}
	wg.Wait()
	return won
}

// testClaimAtOnce: processes that claim one wake at once: one gets it.
func testClaimAtOnce(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	for round := range 5 {
		w := storage.Wake{Kind: storage.WakeGame, ChannelID: fmt.Sprint("c", round), At: t0}
		won := granted(t, 4, func(i int) (bool, error) {
			return s.Claim(t.Context(), w, fmt.Sprint("owner", i), t0, time.Minute)
		})
		assert.Equal(t, 1, won, "exactly one claim of %s is granted", w.ChannelID)
	}
}
