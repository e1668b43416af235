package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/bot/jobs"
)

// botConfig is the shape of the bot's runner: one search worker shared
// by moves and reviews, renders and GIFs on two workers.
func botConfig() jobs.Config {
	return jobs.Config{
		Pools: []jobs.Pool{{Name: "search", Workers: 1}, {Name: "render", Workers: 2}},
		Classes: []jobs.Class{
			{Name: "move", Pool: "search", Queue: 100},
			{Name: "review", Pool: "search", Priority: 1, Queue: 8, PerOwner: 1},
			{Name: "render", Pool: "render", Queue: 100},
			{Name: "gif", Pool: "render", Priority: 1, Queue: 2},
		},
	}
}

// gate is work that the test lets finish: Run reports that it started,
// then waits for release (or its context).
type gate struct {
	name    string
	log     *[]string
	mu      *sync.Mutex
	release chan struct{}
}

func newGate(name string, log *[]string, mu *sync.Mutex) *gate {
	return &gate{name: name, log: log, mu: mu, release: make(chan struct{})}
}

func (g *gate) run(ctx context.Context) error {
	g.mu.Lock()
	*g.log = append(*g.log, g.name)
	g.mu.Unlock()
	select {
	case <-g.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TestMoveBeforeReviews: a computer's move queued behind 8 reviews runs
// next, before any review waiting; the reviews then run in order.
func TestMoveBeforeReviews(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := jobs.New(botConfig())
		var log []string
		var mu sync.Mutex
		var gates []*gate
		for k := range 8 {
			g := newGate(fmt.Sprint("review", k), &log, &mu)
			gates = append(gates, g)
			_, err := r.Submit(jobs.Job{Class: "review", Key: g.name, Owner: fmt.Sprint("user", k), Cost: 10 * time.Second, Run: g.run})
			require.NoError(t, err)
		}
		move := newGate("move", &log, &mu)
		place, err := r.Submit(jobs.Job{Class: "move", Key: "move", Run: move.run})
		require.NoError(t, err)
		assert.Equal(t, jobs.Place{Ahead: 0, Wait: 10 * time.Second}, place, "the move is next, after the review running")
		p, ok := r.Position("review3")
		require.True(t, ok)
		assert.Equal(t, jobs.Place{Ahead: 3, Wait: 30 * time.Second}, p, "the move and reviews 1 and 2 are ahead")
		synctest.Wait()
		assert.Equal(t, []string{"review0"}, log)
		close(gates[0].release)
		synctest.Wait()
		assert.Equal(t, []string{"review0", "move"}, log, "the move runs next")
		close(move.release)
		for _, g := range gates[1:] {
			synctest.Wait()
			close(g.release)
		}
		_, err = r.Close(t.Context())
		require.NoError(t, err)
		assert.Equal(t, []string{"review0", "move", "review1", "review2", "review3", "review4", "review5", "review6", "review7"}, log)
	})
}

// TestYield: a review that yields between positions lets a move waiting
// run first, and gets the worker back before the other reviews.
func TestYield(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := jobs.New(botConfig())
		var log []string
		var mu sync.Mutex
		note := func(s string) {
			mu.Lock()
			log = append(log, s)
			mu.Unlock()
		}
		step, positions := make(chan struct{}), 3
		_, err := r.Submit(jobs.Job{Class: "review", Key: "long", Run: func(ctx context.Context) error {
			for k := range positions {
				<-step
				note(fmt.Sprint("position", k))
				if err := jobs.Yield(ctx); err != nil {
					return err
				}
			}
			return nil
		}})
		require.NoError(t, err)
		other := newGate("other review", &log, &mu)
		close(other.release)
		_, err = r.Submit(jobs.Job{Class: "review", Key: "other", Run: other.run})
		require.NoError(t, err)
		step <- struct{}{} // position 0, nothing waiting: it keeps the worker
		synctest.Wait()
		_, err = r.Submit(jobs.Job{Class: "move", Run: func(context.Context) error { note("move"); return nil }})
		require.NoError(t, err)
		synctest.Wait()
		p, ok := r.Position("long")
		require.True(t, ok)
		assert.True(t, p.Running, "the move waits for the position being searched")
		step <- struct{}{} // position 1, then it yields to the move
		step <- struct{}{} // position 2
		_, err = r.Close(t.Context())
		require.NoError(t, err)
		assert.Equal(t, []string{"position0", "position1", "move", "position2", "other review"}, log)
		assert.NoError(t, jobs.Yield(t.Context()), "outside a job Yield does nothing")
	})
}

// TestRefusals: the bounds of a class, the limit per owner and the
// dedupe by key refuse with their sentinel errors, and a job done frees
// its key and its owner's place.
func TestRefusals(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := jobs.New(botConfig())
		var log []string
		var mu sync.Mutex
		block := newGate("block", &log, &mu)
		_, err := r.Submit(jobs.Job{Class: "move", Run: block.run}) // holds the search worker
		require.NoError(t, err)
		synctest.Wait()
		run := func(context.Context) error { return nil }
		tests := []struct {
			name string
			job  jobs.Job
			want error
		}{
			{"first review", jobs.Job{Class: "review", Key: "g1", Owner: "alice", Run: run}, nil},
			{"same game", jobs.Job{Class: "review", Key: "g1", Owner: "bob", Run: run}, jobs.ErrDuplicate},
			{"alice's second", jobs.Job{Class: "review", Key: "g2", Owner: "alice", Run: run}, jobs.ErrOwnerLimit},
			{"no owner, no limit", jobs.Job{Class: "review", Key: "g3", Run: run}, nil},
		}
		for k := 4; k <= 10; k++ {
			tests = append(tests, struct {
				name string
				job  jobs.Job
				want error
			}{fmt.Sprint("review ", k), jobs.Job{Class: "review", Key: fmt.Sprint("g", k), Owner: fmt.Sprint("u", k), Run: run}, nil})
		}
		tests[len(tests)-1].want = jobs.ErrQueueFull // 8 wait already
		// No t.Run inside a synctest bubble.
		for _, tt := range tests {
			_, err := r.Submit(tt.job)
			assert.ErrorIs(t, err, tt.want, tt.name)
		}
		assert.Equal(t, 8, r.Len("review"))
		close(block.release)
		synctest.Wait()
		assert.Zero(t, r.Len("review"), "all ran")
		_, ok := r.Position("g1")
		assert.False(t, ok, "a job done is forgotten")
		_, err = r.Submit(jobs.Job{Class: "review", Key: "g1", Owner: "alice", Run: run})
		assert.NoError(t, err, "its key and its owner's place are free again")
		assert.Panics(t, func() { _, _ = r.Submit(jobs.Job{Class: "nope", Run: run}) })
		_, err = r.Close(t.Context())
		require.NoError(t, err)
		_, err = r.Submit(jobs.Job{Class: "review", Run: run})
		assert.ErrorIs(t, err, jobs.ErrClosed)
		assert.ErrorIs(t, r.Do(t.Context(), jobs.Job{Class: "render", Run: run}), jobs.ErrClosed)
	})
}

// TestDo: Do runs on the caller's goroutine within its pool's bound,
// returns Run's error, and gives up, taking the job out of the line, when
// its context ends first.
func TestDo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := jobs.New(botConfig())
		boom := errors.New("boom")
		assert.ErrorIs(t, r.Do(t.Context(), jobs.Job{Class: "render", Run: func(context.Context) error { return boom }}), boom)

		var running, most atomic.Int32
		release := make(chan struct{})
		var wg sync.WaitGroup
		for range 5 {
			wg.Go(func() {
				assert.NoError(t, r.Do(t.Context(), jobs.Job{Class: "render", Run: func(context.Context) error {
					n := running.Add(1)
					if n > most.Load() {
						most.Store(n)
					}
					<-release
					running.Add(-1)
					return nil
				}}))
			})
		}
		synctest.Wait()
		assert.Equal(t, 3, r.Len("render"), "two run, three wait")
		ctx, cancel := context.WithTimeout(t.Context(), time.Second)
		defer cancel()
		err := r.Do(ctx, jobs.Job{Class: "gif", Key: "gif", Run: func(context.Context) error { return nil }})
		assert.ErrorIs(t, err, context.DeadlineExceeded, "a GIF waiting gives up at its deadline")
		_, ok := r.Position("gif")
		assert.False(t, ok, "and leaves the line")
		close(release)
		wg.Wait()
		assert.Equal(t, int32(2), most.Load(), "never more than the pool's workers")
		_, err = r.Close(t.Context())
		require.NoError(t, err)
	})
}

// TestCloseDrains: Close waits for the jobs running and queued, and they
// may still use Do meanwhile.
func TestCloseDrains(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := jobs.New(botConfig())
		var done atomic.Int32
		for k := range 4 {
			_, err := r.Submit(jobs.Job{Class: "review", Key: fmt.Sprint(k), Run: func(ctx context.Context) error {
				time.Sleep(time.Second) // fake time: synctest's clock
				err := r.Do(ctx, jobs.Job{Class: "render", Run: func(context.Context) error { return nil }})
				done.Add(1)
				return err
			}})
			require.NoError(t, err)
		}
		left, err := r.Close(t.Context())
		require.NoError(t, err)
		assert.Empty(t, left)
		assert.Equal(t, int32(4), done.Load(), "every job ran to its end")
	})
}

// TestCloseGivesUp: once Close's context ends it cancels the running
// job, drops the queued ones (telling each through Drop), wakes the
// callers of Do waiting and reports what was left.
func TestCloseGivesUp(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var failed []string
		var mu sync.Mutex
		cfg := botConfig()
		cfg.Failed = func(j jobs.Job, err error) {
			mu.Lock()
			failed = append(failed, j.Key+": "+err.Error())
			mu.Unlock()
		}
		r := jobs.New(cfg)
		var dropped []string
		for _, key := range []string{"running", "queued1", "queued2"} {
			_, err := r.Submit(jobs.Job{Class: "review", Key: key, Run: func(ctx context.Context) error {
				<-ctx.Done()
				return ctx.Err()
			}, Drop: func() { dropped = append(dropped, key) }})
			require.NoError(t, err)
		}
		doErr := make(chan error)
		go func() {
			doErr <- r.Do(context.Background(), jobs.Job{Class: "move", Key: "hint", Run: func(context.Context) error { return nil }})
		}()
		// The move's Do waits for the review running, which does not yield.
		synctest.Wait()
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		left, err := r.Close(ctx)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		var keys []string
		for _, j := range left {
			keys = append(keys, j.Key)
		}
		assert.ElementsMatch(t, []string{"running", "queued1", "queued2", "hint"}, keys)
		assert.Equal(t, []string{"queued1", "queued2"}, dropped)
		assert.ErrorIs(t, <-doErr, jobs.ErrClosed)
		assert.Equal(t, []string{"running: context canceled"}, failed)
	})
}

// TestStress runs many jobs of every class from many goroutines, some
// cancelled, some yielding, while the runner closes, and checks the
// bounds: never more jobs of a pool at once than its workers, each job
// admitted runs, and Close leaves no goroutine behind. Run it with
// -race.
func TestStress(t *testing.T) {
	cfg := botConfig()
	r := jobs.New(cfg)
	workers := map[string]int32{"move": 1, "review": 1, "render": 2, "gif": 2}
	pool := map[string]string{"move": "search", "review": "search", "render": "render", "gif": "render"}
	running := map[string]*atomic.Int32{"search": {}, "render": {}}
	var admitted, ran, dropped, refused atomic.Int32
	var over atomic.Bool
	classes := []string{"move", "review", "render", "gif"}
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			for k := range 200 {
				class := classes[rng.IntN(len(classes))]
				n := running[pool[class]]
				run := func(ctx context.Context) error {
					if n.Add(1) > workers[class] {
						over.Store(true)
					}
					defer n.Add(-1)
					ran.Add(1)
					if class == "review" {
						n.Add(-1)
						err := jobs.Yield(ctx)
						n.Add(1)
						return err
					}
					return nil
				}
				j := jobs.Job{Class: class, Key: fmt.Sprint(rng.IntN(50)), Owner: fmt.Sprint(rng.IntN(5)), Run: run, Drop: func() { dropped.Add(1) }}
				if k%2 == 0 {
					_, err := r.Submit(j)
					if err == nil {
						admitted.Add(1)
					} else {
						refused.Add(1)
					}
					continue
				}
				ctx, cancel := context.WithCancel(context.Background())
				if k%7 == 0 {
					cancel()
				}
				_ = r.Do(ctx, j)
				cancel()
			}
		})
	}
	wg.Wait()
	left, err := r.Close(context.Background())
	require.NoError(t, err)
	assert.Empty(t, left)
	assert.False(t, over.Load(), "no pool ran more jobs than its workers")
	assert.Zero(t, dropped.Load())
	assert.GreaterOrEqual(t, ran.Load(), admitted.Load(), "every job submitted ran")
	assert.Positive(t, refused.Load(), "the bounds were met")
	for _, n := range running {
		assert.Zero(t, n.Load())
	}
	// The jobs' goroutines have returned from Run; let them exit.
	assert.Eventually(t, func() bool { return !strings.Contains(stacks(), "jobs.(*Runner)") }, time.Minute, time.Millisecond, "no goroutine of the runner is left") // only goroutines that never end wait a minute
}

// stacks is the stack of every goroutine.
func stacks() string {
	buf := make([]byte, 1<<20)
	return string(buf[:runtime.Stack(buf, true)])
}

// BenchmarkDo is the runner's cost of a job done with Do on a free pool.
func BenchmarkDo(b *testing.B) {
	r := jobs.New(botConfig())
	ctx := context.Background()
	j := jobs.Job{Class: "render", Run: func(context.Context) error { return nil }}
	for b.Loop() {
		_ = r.Do(ctx, j)
	}
}

// BenchmarkSubmit is the runner's cost of a job submitted and run on a
// goroutine of its own, with the pool kept busy.
func BenchmarkSubmit(b *testing.B) {
	r := jobs.New(jobs.Config{Pools: []jobs.Pool{{Name: "p", Workers: 2}}, Classes: []jobs.Class{{Name: "c", Pool: "p", Queue: 1 << 20}}})
	var wg sync.WaitGroup
	j := jobs.Job{Class: "c", Run: func(context.Context) error { wg.Done(); return nil }}
	for b.Loop() {
		wg.Add(1)
		_, _ = r.Submit(j)
	}
	wg.Wait()
}

// TestStats: the figures of each class count the jobs waiting and
// running, and the time the jobs started waited for a worker.
func TestStats(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		r := jobs.New(botConfig())
		var log []string
		var mu sync.Mutex
		first, second := newGate("first", &log, &mu), newGate("second", &log, &mu)
		_, err := r.Submit(jobs.Job{Class: "review", Owner: "a", Run: first.run})
		require.NoError(t, err)
		_, err = r.Submit(jobs.Job{Class: "review", Owner: "b", Run: second.run})
		require.NoError(t, err)
		synctest.Wait()
		assert.Equal(t, []jobs.ClassStats{
			{Class: "move"},
			{Class: "review", Waiting: 1, Running: 1, Started: 1},
			{Class: "render"},
			{Class: "gif"},
		}, r.Stats(), "one review runs at once, the other waits")
		time.Sleep(10 * time.Second)
		close(first.release)
		synctest.Wait()
		close(second.release)
		_, err = r.Close(t.Context())
		require.NoError(t, err)
		assert.Equal(t, jobs.ClassStats{Class: "review", Started: 2, Waited: 10 * time.Second}, r.Stats()[1], "the second waited for the first")
	})
}

func TestIdle(t *testing.T) {
	r := jobs.New(jobs.Config{Pools: []jobs.Pool{{Name: "p", Workers: 1}}, Classes: []jobs.Class{{Name: "c", Pool: "p", Queue: 2}}})
	release := make(chan struct{})
	_, err := r.Submit(jobs.Job{Class: "c", Run: func(context.Context) error { <-release; return nil }})
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	assert.ErrorIs(t, r.Idle(ctx), context.Canceled, "a job runs: not idle")
	close(release)
	assert.NoError(t, r.Idle(t.Context()), "idle once the job is done")
}
