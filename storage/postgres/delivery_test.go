package postgres

import (
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/storage"
	"github.com/kulami/kulami/storage/postgres/pgtest"
)

// TestFirstDeliveryAcrossProcesses: two stores on one database, as two
// processes behind a load balancer have, see the same interaction: the
// first delivery counts, every other within keep is refused, whichever
// process it reaches, also when both come at once; after keep the ID is
// forgotten (pruned).
func TestFirstDeliveryAcrossProcesses(t *testing.T) {
	dsn := pgtest.Schema(t)
	stores := [2]*Store{mustOpenDSN(t, dsn), mustOpenDSN(t, dsn)}
	const keep = 15 * time.Minute
	ctx := t.Context()

	first, err := stores[0].FirstDelivery(ctx, "111", t0, keep)
	require.NoError(t, err)
	assert.True(t, first, "the first delivery counts")
	for i, s := range stores {
		again, err := s.FirstDelivery(ctx, "111", t0.Add(time.Duration(i+1)*time.Minute), keep)
		require.NoError(t, err)
		assert.False(t, again, "delivered again to store %d within keep: refused", i)
	}
	other, err := stores[1].FirstDelivery(ctx, "222", t0, keep)
	require.NoError(t, err)
	assert.True(t, other, "another interaction counts")

	var wg sync.WaitGroup
	var firsts atomic.Int32
	for i := range 8 {
		wg.Go(func() {
			ok, err := stores[i%2].FirstDelivery(ctx, "333", t0, keep)
			assert.NoError(t, err)
			if ok {
				firsts.Add(1)
			}
		})
	}
	wg.Wait()
	assert.Equal(t, int32(1), firsts.Load(), "of deliveries at once to both processes, one counts")

	later := t0.Add(keep + 2*time.Minute)
	_, err = stores[0].FirstDelivery(ctx, "444", later, keep) // prunes
	require.NoError(t, err)
	var n int
	require.NoError(t, stores[0].pool.QueryRow(ctx, `SELECT count(*) FROM deliveries WHERE id IN ('111', '222', '333')`).Scan(&n))
	assert.Zero(t, n, "the deliveries older than keep are pruned")
	again, err := stores[1].FirstDelivery(ctx, "111", later, keep)
	require.NoError(t, err)
	assert.True(t, again, "an ID older than keep is forgotten")
}

// BenchmarkFirstDelivery records one new interaction per iteration on the
// test server: what replay protection adds to an HTTP interaction on
// PostgreSQL.
func BenchmarkFirstDelivery(b *testing.B) {
	s := mustOpen(b, storage.Options{})
	now := time.Now()
	for i := 0; b.Loop(); i++ {
		if _, err := s.FirstDelivery(b.Context(), strconv.Itoa(i), now, 15*time.Minute); err != nil {
			b.Fatal(err)
		}
	}
}
