package storage

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGroupCommit sends a burst of 200 writes together (they wait behind
// the order lock, which the test holds until all of them are queued, as
// they queue behind a slow commit) and counts the commits they cost at
// the database: one, however many of them fail, panic or are given up on
// while they wait; each write is stored, or not, as if it ran alone.
func TestGroupCommit(t *testing.T) {
	const burst = 200
	refused := errors.New("refused")
	for _, tc := range []struct {
		name string
		// fail, panics and cancel are the writes that return an error,
		// panic, or whose context is done while they wait.
		fail, panics, cancel map[int]bool
	}{
		{name: "all commit"},
		{name: "some fail", fail: map[int]bool{0: true, 57: true, 199: true}},
		{name: "one panics", panics: map[int]bool{100: true}},
		{name: "some given up", cancel: map[int]bool{3: true, 150: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(filepath.Join(t.TempDir(), "k.db"), Options{})
			require.NoError(t, err)
			defer s.Close()
			ctx := context.Background()
			before, err := s.Commits(ctx)
			require.NoError(t, err)

			s.boards.order.Lock() // the writer is busy
			errs := make([]error, burst)
			cancels := make([]context.CancelFunc, burst)
			var wg sync.WaitGroup
			for i := range burst {
				wctx, cancel := context.WithCancel(ctx)
				cancels[i] = cancel
				wg.Go(func() {
					defer func() {
						if r := recover(); r != nil {
							errs[i] = fmt.Errorf("panicked: %v", r)
						}
					}()
					_, errs[i] = s.UpdateUserSettings(wctx, fmt.Sprint("user", i), func(u *UserSettings) error {
						u.TimeZone = "Europe/Paris"
						switch {
						case tc.fail[i]:
							return refused
						case tc.panics[i]:
							panic("a bug")
						}
						return nil
					})
				})
			}
			// A bound against a hang only: the writes queue at once.
			require.Eventually(t, func() bool {
				s.writes.mu.Lock()
				defer s.writes.mu.Unlock()
				return len(s.writes.pending) == burst
			}, time.Minute, time.Millisecond, "the burst's writes did not all queue")
			for i := range tc.cancel {
				cancels[i]()
			}
			s.boards.order.Unlock()
			wg.Wait()

			after, err := s.Commits(ctx)
			require.NoError(t, err)
			assert.Equal(t, before+1, after, "commits for a burst of %d writes", burst)
			for i := range burst {
				got, err := s.UserSettings(ctx, fmt.Sprint("user", i))
				require.NoError(t, err)
				switch {
				case tc.fail[i]:
					assert.ErrorIs(t, errs[i], refused, "write %d", i)
					assert.Empty(t, got.TimeZone, "write %d failed and must store nothing", i)
				case tc.panics[i]:
					assert.ErrorContains(t, errs[i], "panicked: a bug", "write %d", i)
					assert.Empty(t, got.TimeZone, "write %d panicked and must store nothing", i)
				case tc.cancel[i]:
					assert.ErrorIs(t, errs[i], context.Canceled, "write %d", i)
					assert.Empty(t, got.TimeZone, "write %d was given up and must store nothing", i)
				default:
					assert.NoError(t, errs[i], "write %d", i)
					assert.Equal(t, "Europe/Paris", got.TimeZone, "write %d", i)
				}
			}
		})
	}
}

// TestGroupCommitAlone checks that a write that finds the writer idle
// commits at once, alone: one commit per write when they come one by one.
func TestGroupCommitAlone(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "k.db"), Options{})
	require.NoError(t, err)
	defer s.Close()
	ctx := context.Background()
	before, err := s.Commits(ctx)
	require.NoError(t, err)
	for i := range 3 {
		_, err := s.UpdateUserSettings(ctx, fmt.Sprint("user", i), func(u *UserSettings) error { u.TimeZone = "UTC"; return nil })
		require.NoError(t, err)
	}
	after, err := s.Commits(ctx)
	require.NoError(t, err)
	assert.Equal(t, before+3, after)
}
