package jobs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"
)

// The errors of Submit and Do.
var (
	// ErrQueueFull: the job's class has as many jobs waiting as it takes.
	ErrQueueFull = errors.New("jobs: queue full")
	// ErrOwnerLimit: the job's owner has as many jobs of the class queued
	// or running as the class allows one owner.
	ErrOwnerLimit = errors.New("jobs: too many jobs of one owner")
	// ErrDuplicate: a job with the same key is queued or running.
	ErrDuplicate = errors.New("jobs: job already queued or running")
	// ErrClosed: the runner takes no more jobs (Close was called), or it
	// stopped before the job started.
	ErrClosed = errors.New("jobs: runner closed")
)

// Pool is a set of workers: at most Workers jobs of its classes run at
// once.
type Pool struct {
	Name    string
	Workers int // at least 1
}

// Class is a kind of job: its pool, its priority in the pool and its
// bounds.
type Class struct {
	Name string
	Pool string // the name of the pool whose workers run it
	// Priority orders the classes of a pool: a waiting job of a lower
	// Priority starts first.
	Priority int
	// Queue is the most jobs of the class waiting for a worker; at least 1.
	Queue int
	// PerOwner, if positive, is the most jobs of one owner queued or
	// running in the class.
	PerOwner int
}

// Config lists a Runner's pools and classes.
type Config struct {
	Pools   []Pool
	Classes []Class
	// Failed, if set, is called with a submitted job whose Run returned
	// an error (Do returns it to its caller instead).
	Failed func(j Job, err error)
}

// Job is a piece of work.
type Job struct {
	Class string
	// Key, if not empty, names the job: a job with the key of one queued
	// or running is refused with ErrDuplicate.
	Key string
	// Owner, if not empty, is whom the job is for (a user), for the
	// class's PerOwner limit.
	Owner string
	// Cost is about how long the job runs, for Position's estimate.
	Cost time.Duration
	// Run does the work. Its context is cancelled when Close gives up
	// waiting (and, for Do, when the caller's context ends); Run must then
	// return soon.
	Run func(ctx context.Context) error
	// Drop, if set, is called instead of Run for a submitted job that
	// Close drops from the queue, so that its owner can be told.
	Drop func()
}

// Place is where a job stands in its pool's line.
type Place struct {
	// Running reports whether a worker runs the job.
	Running bool
	// Ahead is how many waiting jobs start before it, as things stand (a
	// job of a higher class queued later goes ahead too).
	Ahead int
	// Wait is about how long until it starts: the Cost of the jobs ahead
	// and of those running, shared among the pool's workers.
	Wait time.Duration
}

// Runner runs jobs on bounded pools of workers. It is safe for concurrent
// use.
type Runner struct {
	failed func(Job, error)
	base   context.Context // the jobs' context: cancelled when Close gives up
	cancel context.CancelFunc

	mu      sync.Mutex
	classes map[string]*class
	order   []*class // the classes as Config lists them
	pools   []*pool
	keys    map[string]*entry // the jobs with a key, queued or running
	live    map[*entry]bool   // the jobs queued or running
	changed chan struct{}     // closed and renewed when a job leaves live
	closing bool              // Close was called: Submit refuses
	stopped bool              // Close gave up waiting, or returned: Do refuses too
}

// pool is a Pool's state.
type pool struct {
	workers, free int
	busy          time.Duration // the Cost of the jobs its workers run
	classes       []*class      // by priority
}

// class is a Class's state.
type class struct {
	Class
	pool    *pool
	queue   []*entry       // waiting, first to start first
	waiting int            // entries of queue that never ran (a yielded one does not count)
	owners  map[string]int // the jobs queued or running by owner
	started uint64         // jobs that got a worker for the first time
	waited  time.Duration  // the time those waited for it
}

// entry is a job admitted to the runner.
type entry struct {
	job      Job
	r        *Runner
	class    *class
	ctx      context.Context
	queued   time.Time     // when it was admitted
	start    chan struct{} // for Do and Yield: closed when a worker takes it; nil for a submitted job not yet run
	holds    bool          // it has a worker
	ran      bool          // a worker took it once
	gone     bool          // Close took it out of the queue
	released bool          // counted off (release)
}

// ctxKey keys a job's entry in the context Run is given.
type ctxKey struct{}

// New returns a runner of cfg's pools and classes. It panics if a class
// names no pool of cfg, or a bound is not positive: a programming error.
func New(cfg Config) *Runner {
	base, cancel := context.WithCancel(context.Background())
	r := &Runner{failed: cfg.Failed, base: base, cancel: cancel, classes: map[string]*class{}, keys: map[string]*entry{}, live: map[*entry]bool{}, changed: make(chan struct{})}
	pools := map[string]*pool{}
	for _, p := range cfg.Pools {
		if p.Workers < 1 {
			panic(fmt.Sprintf("jobs: pool %q has %d workers", p.Name, p.Workers))
		}
		pools[p.Name] = &pool{workers: p.Workers, free: p.Workers}
		r.pools = append(r.pools, pools[p.Name])
	}
	for _, c := range cfg.Classes {
		p := pools[c.Pool]
		if p == nil || c.Queue < 1 {
			panic(fmt.Sprintf("jobs: class %q has pool %q and queue %d", c.Name, c.Pool, c.Queue))
		}
		cl := &class{Class: c, pool: p, owners: map[string]int{}}
		r.classes[c.Name] = cl
		r.order = append(r.order, cl)
		p.classes = append(p.classes, cl)
	}
	for _, p := range r.pools {
		slices.SortStableFunc(p.classes, func(a, b *class) int { return cmp.Compare(a.Priority, b.Priority) })
	}
	return r
}

// Submit queues j to run on a goroutine of its own once a worker of its
// class's pool is free, and returns its place in the line. It returns
// ErrDuplicate, ErrOwnerLimit, ErrQueueFull or ErrClosed, without queuing
// j, if j cannot be taken. It panics if j's class is unknown.
func (r *Runner) Submit(j Job) (Place, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closing {
		return Place{}, ErrClosed
	}
	e, err := r.admit(j, r.base)
	if err != nil {
		return Place{}, err
	}
	r.dispatch(e.class.pool)
	return r.place(e), nil
}

// Do runs j once a worker of its class's pool is free, on the caller's
// goroutine, and returns Run's error. Like Submit it refuses a job it
// cannot take, and panics if j's class is unknown; it returns ctx's
// error if ctx ends before j starts. It
// serves jobs until Close returns, so that jobs being drained may use it.
func (r *Runner) Do(ctx context.Context, j Job) error {
	r.classOf(j.Class) // panics, unlocked, if unknown
	jctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(r.base, cancel)()
	r.mu.Lock()
	if r.stopped {
		r.mu.Unlock()
		return ErrClosed
	}
	e, err := r.admit(j, jctx)
	if err != nil {
		r.mu.Unlock()
		return err
	}
	e.start = make(chan struct{})
	r.dispatch(e.class.pool)
	r.mu.Unlock()
	if err := r.wait(ctx, e); err != nil {
		r.finish(e)
		return err
	}
	err = j.Run(e.ctx)
	r.finish(e)
	return err
}

// Yield gives the worker of the job whose Run was given ctx to a job of a
// higher class waiting in its pool, if there is one, and waits to get a
// worker back before the jobs of its own class. A long job calls it now
// and then. It returns ctx's error, or ErrClosed if Close gave up on the
// job, if the job gets no worker back; outside a job it does nothing.
func Yield(ctx context.Context) error {
	e, _ := ctx.Value(ctxKey{}).(*entry)
	if e == nil {
		return nil
	}
	r := e.r
	r.mu.Lock()
	p := e.class.pool
	if !e.holds || !slices.ContainsFunc(p.classes, func(c *class) bool { return c.Priority < e.class.Priority && len(c.queue) > 0 }) {
		r.mu.Unlock()
		return nil
	}
	r.leave(e)
	e.start = make(chan struct{})
	e.class.queue = slices.Insert(e.class.queue, 0, e)
	r.dispatch(p)
	r.mu.Unlock()
	return r.wait(ctx, e)
}

// Position returns the place of the job with key, or false if no such job
// is queued or running.
func (r *Runner) Position(key string) (Place, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.keys[key]
	if e == nil {
		return Place{}, false
	}
	return r.place(e), true
}

// Len returns the number of jobs of class waiting for a worker.
func (r *Runner) Len(class string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.classOf(class).queue)
}

// ClassStats is what a class of jobs has done, for monitoring.
type ClassStats struct {
	Class   string
	Waiting int // jobs waiting for a worker now
	Running int // jobs a worker runs now
	// Started is how many jobs got a worker (a yielded job counts once),
	// and Waited the time they waited for it, in all, since New.
	Started uint64
	Waited  time.Duration
}

// Stats returns the figures of every class, in the order of New's Config.
func (r *Runner) Stats() []ClassStats {
	r.mu.Lock()
	defer r.mu.Unlock()
	running := map[*class]int{}
	for e := range r.live {
		if e.holds {
			running[e.class]++
		}
	}
	out := make([]ClassStats, 0, len(r.order))
	for _, c := range r.order {
		out = append(out, ClassStats{Class: c.Name, Waiting: len(c.queue), Running: running[c], Started: c.started, Waited: c.waited})
	}
	return out
}

// Close stops taking jobs (Submit returns ErrClosed) and waits until the
// jobs queued and running are done. If ctx ends first, it cancels the
// running jobs' context, drops the queued ones (calling the Drop of those
// submitted), waits for the running ones to return and returns ctx's
// error with the jobs it dropped or cancelled.
func (r *Runner) Close(ctx context.Context) ([]Job, error) {
	r.mu.Lock()
	r.closing = true
	r.mu.Unlock()
	if r.idle(ctx.Done()) {
		r.mu.Lock()
		r.stopped = true
		r.mu.Unlock()
		return nil, nil
	}
	r.mu.Lock()
	r.stopped = true
	var left, dropped []Job
	for _, p := range r.pools {
		for _, c := range p.classes {
			for _, e := range c.queue {
				e.gone = true
				left = append(left, e.job)
				if e.start == nil { // submitted, never ran: no goroutine finishes it
					r.release(e)
					dropped = append(dropped, e.job)
				} else { // Do or Yield waits for it: wake it up
					close(e.start)
				}
			}
			c.queue, c.waiting = nil, 0
		}
	}
	for e := range r.live {
		if e.holds {
			left = append(left, e.job)
		}
	}
	r.mu.Unlock()
	r.cancel()
	for _, j := range dropped {
		if j.Drop != nil {
			j.Drop()
		}
	}
	r.idle(nil)
	return left, ctx.Err()
}

// idle waits until no job is admitted, or done is closed; it reports
// whether the runner is idle.
// Idle waits until no job is queued or running, or ctx ends (then it
// returns ctx.Err()), for a caller that must see the work done: a test,
// or a flush before a stop.
func (r *Runner) Idle(ctx context.Context) error {
	if !r.idle(ctx.Done()) {
		return ctx.Err()
	}
	return nil
}

func (r *Runner) idle(done <-chan struct{}) bool {
	for {
		r.mu.Lock()
		n, changed := len(r.live), r.changed
		r.mu.Unlock()
		if n == 0 {
			return true
		}
		select {
		case <-changed:
		case <-done:
			return false
		}
	}
}

// admit checks j against the bounds and queues it; r.mu is held.
func (r *Runner) admit(j Job, ctx context.Context) (*entry, error) {
	c := r.classOf(j.Class)
	switch {
	case j.Key != "" && r.keys[j.Key] != nil:
		return nil, ErrDuplicate
	case j.Owner != "" && c.PerOwner > 0 && c.owners[j.Owner] >= c.PerOwner:
		return nil, ErrOwnerLimit
	case c.waiting >= c.Queue:
		return nil, ErrQueueFull
	}
	e := &entry{job: j, r: r, class: c, queued: time.Now()}
	e.ctx = context.WithValue(ctx, ctxKey{}, e)
	if j.Key != "" {
		r.keys[j.Key] = e
	}
	if j.Owner != "" {
		c.owners[j.Owner]++
	}
	c.queue = append(c.queue, e)
	c.waiting++
	r.live[e] = true
	return e, nil
}

// classOf returns the class named name; it panics if there is none. The
// classes do not change after New: r.mu need not be held.
func (r *Runner) classOf(name string) *class {
	c := r.classes[name]
	if c == nil {
		panic(fmt.Sprintf("jobs: no class %q", name))
	}
	return c
}

// dispatch gives p's free workers to its waiting jobs, highest class
// first; r.mu is held.
func (r *Runner) dispatch(p *pool) {
	for p.free > 0 {
		i := slices.IndexFunc(p.classes, func(c *class) bool { return len(c.queue) > 0 })
		if i < 0 {
			return
		}
		c := p.classes[i]
		e := c.queue[0]
		c.queue = c.queue[1:]
		if !e.ran {
			c.waiting--
			e.ran = true
			c.started++
			c.waited += time.Since(e.queued)
		}
		p.free--
		p.busy += e.job.Cost
		e.holds = true
		if e.start != nil {
			close(e.start)
		} else {
			go r.run(e)
		}
	}
}

// leave takes e's worker back; r.mu is held.
func (r *Runner) leave(e *entry) {
	if e.holds {
		e.holds = false
		e.class.pool.free++
		e.class.pool.busy -= e.job.Cost
	}
}

// run runs a submitted job on its own goroutine.
func (r *Runner) run(e *entry) {
	defer r.finish(e) // after Failed: Close waits for it too
	if err := e.job.Run(e.ctx); err != nil && r.failed != nil {
		r.failed(e.job, err)
	}
}

// wait waits for a worker to take e, queued by Do or Yield. If ctx ends
// or Close gives up first, it takes e out of the queue and returns the
// reason; e then holds no worker.
func (r *Runner) wait(ctx context.Context, e *entry) error {
	r.mu.Lock()
	start := e.start
	r.mu.Unlock()
	select {
	case <-start:
	case <-ctx.Done():
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case e.holds:
		return nil
	case e.gone:
		return ErrClosed
	}
	c := e.class
	if i := slices.Index(c.queue, e); i >= 0 {
		c.queue = slices.Delete(c.queue, i, i+1)
		if !e.ran {
			c.waiting--
		}
	}
	return ctx.Err()
}

// finish ends e: its worker goes to the next job.
func (r *Runner) finish(e *entry) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.leave(e)
	r.release(e)
	r.dispatch(e.class.pool)
}

// release counts e off, once: its key, its owner's count and its place
// among the live jobs; r.mu is held.
func (r *Runner) release(e *entry) {
	if e.released {
		return
	}
	e.released = true
	if e.job.Key != "" && r.keys[e.job.Key] == e {
		delete(r.keys, e.job.Key)
	}
	if e.job.Owner != "" {
		c := e.class
		if c.owners[e.job.Owner]--; c.owners[e.job.Owner] <= 0 {
			delete(c.owners, e.job.Owner)
		}
	}
	delete(r.live, e)
	close(r.changed)
	r.changed = make(chan struct{})
}

// place is e's place in its pool's line; r.mu is held.
func (r *Runner) place(e *entry) Place {
	if e.holds {
		return Place{Running: true}
	}
	var pl Place
	var cost time.Duration
	p := e.class.pool
	for _, c := range p.classes {
		for _, q := range c.queue {
			if q == e {
				pl.Wait = (cost + p.busy) / time.Duration(p.workers)
				return pl
			}
			pl.Ahead++
			cost += q.job.Cost
		}
	}
	return Place{}
}
