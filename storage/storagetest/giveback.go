package storagetest

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/storage"
)

// testGiveBack: a game that falls due before the resume's batch reaches
// it is given its time at once (GiveBack), once; the batches then pass it
// by, even when both run at the same time; the reminders of the games
// given back are due ten a second (the pace BeginResume was given), in
// the order given.
func testGiveBack(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	const n = 2*storage.ResumeBatch + 50
	channel := func(i int) string { return fmt.Sprintf("c%04d", i) }
	_, err := s.Import(t.Context(), func(_ context.Context, fn func(storage.Record) error) error {
		for i := range n {
			cfg := squareConfig(alice, bob)
			cfg.MoveTime = 72 * time.Hour
			g := mustNewGame(t, channel(i), cfg)
			g.ID = uint64(i + 1)
			if err := fn(storage.GameRecords.Record(g)); err != nil {
				return err
			}
		}
		return fn(storage.AliveRecords.Record(&[]time.Time{t0.Add(time.Hour)}[0]))
	})
	require.NoError(t, err)

	given, err := s.GiveBack(t.Context(), []string{channel(n - 1)}, extend)
	require.NoError(t, err)
	assert.Empty(t, given, "no resume under way: nothing to give")

	now := t0.Add(2 * time.Hour)
	down, under, err := s.BeginResume(t.Context(), now, time.Minute, 10)
	require.NoError(t, err)
	require.True(t, under)
	assert.Equal(t, time.Hour, down)
	r, err := s.Resuming(t.Context())
	require.NoError(t, err)
	require.NotNil(t, r)
	given, err = s.GiveBack(t.Context(), []string{"c-none", channel(n - 1)}, extend)
	require.NoError(t, err)
	require.Equal(t, []string{channel(n - 1)}, given, "the last game, given its hour before its batch; a channel without a game passed by")
	g, err := s.Game(t.Context(), channel(n-1))
	require.NoError(t, err)
	assert.Zero(t, r.Owed(g), "owed nothing more")
	assert.True(t, g.Deadline().Equal(t0.Add(73*time.Hour)), "%v", g.Deadline())
	assert.True(t, g.GivenBack.Remind.Equal(now), "the first reminder is due at once: %v", g.GivenBack.Remind)
	given, err = s.GiveBack(t.Context(), []string{channel(n - 1)}, extend)
	require.NoError(t, err)
	assert.Empty(t, given, "never twice")

	// The batches and the due games' GiveBack at the same time.
	var wg sync.WaitGroup
	var total atomic.Int32
	wg.Go(func() {
		k, err := s.Resume(t.Context(), extend)
		assert.NoError(t, err)
		total.Add(int32(k))
	})
	for i := n - 2; i >= 0; i -= 3 {
		wg.Go(func() { // a pass of the scheduler, with two games due
			changed, err := s.GiveBack(t.Context(), []string{channel(i), channel(i / 2)}, extend)
			assert.NoError(t, err)
			total.Add(int32(len(changed)))
		})
	}
	wg.Wait()
	assert.Equal(t, int32(n-1), total.Load(), "every other game given its hour once, by one or the other")
	slots := map[int64]int{}
	for i := range n {
		g, err := s.Game(t.Context(), channel(i))
		require.NoError(t, err)
		require.True(t, g.Deadline().Equal(t0.Add(73*time.Hour)), "game %d got the hour once: %v", i, g.Deadline())
		slots[g.GivenBack.Remind.Sub(now).Milliseconds()]++
	}
	require.Len(t, slots, n/10, "the reminders spread over a second each ten")
	for at, k := range slots {
		assert.Equal(t, 10, k, "ten reminders due %d ms after the restart", at)
		assert.True(t, at >= 0 && at < int64(n/10)*1000 && at%1000 == 0, "%d ms", at)
	}
	r, err = s.Resuming(t.Context())
	require.NoError(t, err)
	assert.Nil(t, r, "the resume is done")
}
