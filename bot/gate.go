package bot

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/kulami/kulami/storage"
)

// gates coalesce the writes of the interactions on one channel's game or
// challenge: one write at a time goes to the store, where it may wait for
// the row (a row another process or a slow transaction holds), one more
// waits for its turn in the process, holding no connection, and any
// further one is answered "busy" at once (errGameBusy). A spectator
// clicking thirty times a second on a locked game then costs one
// connection, not thirty, and the games beside it never wait for a
// connection it holds. Reads go past the gate: they never wait for a
// row's lock (on PostgreSQL plain reads, on bbolt a snapshot).
//
// The zero gates is ready; it is safe for concurrent use.
type gates struct {
	mu sync.Mutex
	m  map[string]*gate
}

// gate is the turn of one channel's writes: turn holds a token while a
// write runs; users counts the writes that run or wait.
type gate struct {
	turn  chan struct{}
	users int
}

// gateQueue is how many writes of one channel may be at the gate at once:
// the one that runs and one that waits.
const gateQueue = 2

// gateRetry is how long work that must have its turn on a game (see
// table.committedAnyway) waits before it asks again at a full gate.
const gateRetry = 20 * time.Millisecond

// errGameBusy is the refusal of a write on a channel whose game already
// has a write running and one waiting.
var errGameBusy = fmt.Errorf("%w: the game has a write under way and another waiting", storage.ErrBusy)

// enter waits for the turn of a write on channel, and returns the
// function that ends it; it returns errGameBusy at once if the channel
// has gateQueue writes already, and ctx's error if ctx is done first.
func (g *gates) enter(ctx context.Context, channel string) (leave func(), err error) {
	g.mu.Lock()
	e := g.m[channel]
	if e == nil {
		if g.m == nil {
			g.m = map[string]*gate{}
		}
		e = &gate{turn: make(chan struct{}, 1)}
		g.m[channel] = e
	}
	if e.users >= gateQueue {
		g.mu.Unlock()
		return nil, errGameBusy
	}
	e.users++
	g.mu.Unlock()
	out := func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if e.users--; e.users == 0 {
			delete(g.m, channel)
		}
	}
	select {
	case e.turn <- struct{}{}:
		return func() { <-e.turn; out() }, nil
	case <-ctx.Done():
		out()
		return nil, fmt.Errorf("wait for the game's write under way: %w", ctx.Err())
	}
}

// gated runs f, a write on channel's game or challenge, in its turn (see
// gates); g nil runs it at once.
func gated[T any](ctx context.Context, g *gates, channel string, f func(context.Context) (T, error)) (T, error) {
	if g == nil {
		return f(ctx)
	}
	leave, err := g.enter(ctx, channel)
	if err != nil {
		var zero T
		return zero, err
	}
	defer leave()
	return f(ctx)
}
