package bot

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestBackoff checks the schedule of reconnections to the gateway: at once after a drop, then
// random waits whose ceiling doubles up to a minute while the connections keep dropping or failing,
// and back to at once after a connection that stayed up for a minute.
func TestBackoff(t *testing.T) {
	t.Parallel()
	start := time.Date(2026, 11, 25, 9, 0, 0, 0, time.UTC)
	// step is one attempt to connect: it works, the connection stays up for up and drops; or it
	// fails. want is the ceiling of the wait before the next attempt.
	type step struct {
		failed bool
		up     time.Duration
		want   time.Duration
	}
	drop := func(up, want time.Duration) step { return step{up: up, want: want} }
	fail := func(want time.Duration) step { return step{failed: true, want: want} }
	tests := []struct {
		name  string
		steps []step
	}{
		{"quick drops double up to a minute", []step{
			drop(time.Second, 0), drop(time.Second, time.Second), drop(time.Second, 2*time.Second),
			drop(time.Second, 4*time.Second), drop(time.Second, 8*time.Second), drop(time.Second, 16*time.Second),
			drop(time.Second, 32*time.Second), drop(time.Second, time.Minute), drop(time.Second, time.Minute),
		}},
		{"a healthy minute starts again at once", []step{
			drop(time.Second, 0), drop(time.Second, time.Second), drop(time.Second, 2*time.Second),
			drop(time.Minute, 0), drop(time.Second, time.Second),
		}},
		{"a connection up for less than a minute is not healthy", []step{
			drop(time.Second, 0), drop(59*time.Second, time.Second), drop(59*time.Second, 2*time.Second),
		}},
		{"failed attempts double up to a minute however long they last", []step{
			drop(time.Hour, 0), fail(time.Second), fail(2 * time.Second), fail(4 * time.Second),
			fail(8 * time.Second), fail(16 * time.Second), fail(32 * time.Second), fail(time.Minute),
			fail(time.Minute), fail(time.Minute), drop(time.Second, time.Minute), drop(time.Minute, 0),
		}},
		{"a hundred quick drops wait at most a minute", func() []step {
			steps := []step{drop(0, 0), drop(0, time.Second), drop(0, 2*time.Second), drop(0, 4*time.Second),
				drop(0, 8*time.Second), drop(0, 16*time.Second), drop(0, 32*time.Second)}
			for len(steps) < 100 {
				steps = append(steps, drop(0, time.Minute))
			}
			return steps
		}()},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var asked int64 // the bound rand was last asked for
			// The largest wait allowed, to see the ceiling.
			bo := backoff{rand: func(n int64) int64 { asked = n; return n - 1 }}
			now := start
			for i, s := range tc.steps {
				if !s.failed {
					bo.opened(now)
					now = now.Add(s.up)
				}
				asked = 0
				wait := bo.next(now)
				assert.Equal(t, s.want, wait, "step %d: the wait", i)
				if s.want > 0 {
					assert.Equal(t, int64(s.want)+1, asked, "step %d: the wait is random up to the ceiling", i)
				}
				assert.LessOrEqual(t, wait, time.Minute, "step %d", i)
				now = now.Add(wait)
			}
		})
	}
	t.Run("the wait is the random draw", func(t *testing.T) {
		t.Parallel()
		bo := backoff{rand: func(n int64) int64 { return n / 3 }}
		bo.opened(start)
		assert.Zero(t, bo.next(start))
		assert.Equal(t, time.Duration(int64(time.Second+1)/3), bo.next(start))
		assert.Equal(t, time.Duration(int64(2*time.Second+1)/3), bo.next(start))
	})
}
