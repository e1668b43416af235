package puzzle

import (
	"context"
	"sync"
)

// Progress is reported by Run after each game.
type Progress struct {
	Games   int // games played so far
	Puzzles int // puzzles kept so far
}

// Run plays the games of seeds from, from+1, … on workers goroutines
// until it has count puzzles, and returns them in the order of their
// seeds, without repeats: the same from and count give the same puzzles
// whatever the number of workers. It calls progress, if not nil, after
// each game in seed order.
func (g Generator) Run(ctx context.Context, from uint64, count, workers int, progress func(Progress)) ([]Puzzle, error) {
	ctx, cancel := context.WithCancel(ctx)
	type result struct {
		found []Puzzle
		err   error
	}
	var mu sync.Mutex
	next := from
	results := make(map[uint64]chan result)
	take := func() (uint64, chan result) {
		mu.Lock()
		defer mu.Unlock()
		s := next
		next++
		ch, ok := results[s]
		if !ok {
			ch = make(chan result, 1)
			results[s] = ch
		}
		return s, ch
	}
	wait := func(s uint64) chan result {
		mu.Lock()
		defer mu.Unlock()
		ch, ok := results[s]
		if !ok {
			ch = make(chan result, 1)
			results[s] = ch
		}
		return ch
	}
	var wg sync.WaitGroup
	defer wg.Wait() // after cancel, which stops the workers
	defer cancel()
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				s, ch := take()
				found, err := g.Game(ctx, s)
				ch <- result{found, err}
			}
		}()
	}
	var ps []Puzzle
	seen := map[string]bool{}
	for s, games := from, 1; ; s, games = s+1, games+1 {
		var r result
		select {
		case r = <-wait(s):
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if r.err != nil {
			return nil, r.err
		}
		mu.Lock()
		delete(results, s)
		mu.Unlock()
		for _, p := range r.found {
			if !seen[p.ID] && len(ps) < count {
				seen[p.ID] = true
				ps = append(ps, p)
			}
		}
		if progress != nil {
			progress(Progress{Games: games, Puzzles: len(ps)})
		}
		if len(ps) >= count {
			return ps, nil
		}
	}
}
