package review

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
)

// DefaultPlayouts is the search per position when Options sets no budget:
// a 56-move game in 20 to 30 s on one core (BenchmarkReview56; doc.go has
// the figures behind the choice).
const DefaultPlayouts = 300000

// ErrBadRecord is wrapped by the error of Analyse for a record whose moves
// cannot be replayed.
var ErrBadRecord = errors.New("review: the record's moves cannot be replayed")

// Options set the budget of an analysis. The zero Options searches each
// position for DefaultPlayouts random games, one position at a time.
type Options struct {
	// Playouts is the most random games searched per position; 0 means
	// DefaultPlayouts, unless Time is set.
	Playouts int
	// Time is the budget of the whole analysis; 0 means none. Each search
	// gets an equal share of the time left, so the analysis depends on the
	// machine's speed and load (Analysis.Timed reports it).
	Time time.Duration
	// Workers is how many positions are searched at once, one core each;
	// 0 means 1, so that an analysis leaves the other cores to games
	// being played. The analysis does not depend on it.
	Workers int
	// Seed makes the searches reproducible.
	Seed uint64
	// Progress, if set, is called after each position is searched with
	// the number done and the total, never by two goroutines at once.
	Progress func(done, total int)
}

// eval is the search's verdict on one position, for the player to move.
type eval struct {
	best   engine.Cell
	chance float64
	proven bool
}

// Analyse analyses every move of rec, a game scored under rec.Rules: for
// each position before a move it asks the computer opponent (ai.Hard's
// search, on one core, with opt's budget) for its best move and the
// chance of the player to move, exact when an endgame search proves it.
// The chance after a move is the next position's from the other side, or
// the result once the game is over; so one search per position suffices.
//
// It returns an error wrapping ErrBadRecord if a move of rec is illegal,
// and ctx's error if ctx is done before the analysis is: a deadline of
// ctx is a limit, not a budget (Options.Time is one).
func Analyse(ctx context.Context, rec *engine.Record, opt Options) (*Analysis, error) {
	positions, err := replay(rec)
	if err != nil {
		return nil, err
	}
	if opt.Playouts <= 0 && opt.Time <= 0 {
		opt.Playouts = DefaultPlayouts
	}
	evals := make([]eval, len(positions))
	if err := searchAll(ctx, positions, evals, rec.Rules, opt); err != nil {
		return nil, err
	}
	a := &Analysis{Version: Version, Playouts: opt.Playouts, Seed: opt.Seed, Timed: opt.Time > 0, Moves: make([]Move, len(rec.Moves))}
	for i := range a.Moves {
		p, next := &positions[i], &evals[i+1]
		e := evals[i]
		last, _ := positions[i+1].Last()
		m := Move{
			Ply: i + 1, Color: p.ToMove(), Cell: p.Layout().Cell(last),
			Best: e.best, Before: round(e.chance), BeforeProven: e.proven,
			After: round(1 - next.chance), AfterProven: next.proven,
		}
		if m.Cell != m.Best {
			m.Cost = round(max(0, m.Before-m.After))
		}
		a.Moves[i] = m
	}
	return a, nil
}

// replay returns the positions of rec from the empty board to the last
// move.
func replay(rec *engine.Record) ([]engine.Position, error) {
	p := engine.NewPosition(rec.Layout, rec.First)
	out := make([]engine.Position, 0, len(rec.Moves)+1)
	out = append(out, p)
	for i, m := range rec.Moves {
		if err := p.PlayMove(m); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrBadRecord, &engine.MoveError{Ply: i + 1, Move: m, Err: err})
		}
		out = append(out, p)
	}
	return out, nil
}

// searchAll fills evals with the verdicts on positions, opt.Workers at a
// time.
func searchAll(ctx context.Context, positions []engine.Position, evals []eval, rules engine.Rules, opt Options) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	begin := time.Now()
	workers := max(1, opt.Workers)
	total := len(positions)
	var mu sync.Mutex // guards next, done and the calls to Progress
	next, done := 0, 0
	var wg sync.WaitGroup
	for range min(workers, total) {
		wg.Go(func() {
			for {
				mu.Lock()
				i := next
				next++
				var share time.Duration
				if opt.Time > 0 {
					waves := (total - i + workers - 1) / workers
					share = (opt.Time - time.Since(begin)) / time.Duration(max(1, waves))
				}
				mu.Unlock()
				if i >= total {
					return
				}
				e, err := evaluate(ctx, positions[i], rules, opt, share)
				if err != nil {
					cancel(err)
					return
				}
				evals[i] = e
				mu.Lock()
				done++
				if opt.Progress != nil {
					opt.Progress(done, total)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return context.Cause(ctx)
}

// evaluate returns the verdict on p: its result if the game is over,
// otherwise the search's, within share of time if share is set.
func evaluate(ctx context.Context, p engine.Position, rules engine.Rules, opt Options, share time.Duration) (eval, error) {
	if p.IsOver() {
		chance := 0.5
		if w, ok := p.Score(rules).Winner(); ok {
			chance = redChance(w, 1)
			if p.ToMove() == engine.Black {
				chance = 1 - chance
			}
		}
		return eval{chance: chance, proven: true}, nil
	}
	if err := ctx.Err(); err != nil {
		return eval{}, err
	}
	c := ai.Hard.Config()
	c.Time, c.Playouts, c.Workers, c.Seed = 0, opt.Playouts, 1, opt.Seed
	if opt.Time > 0 {
		c.Time = max(share, time.Millisecond)
	}
	m, err := c.Move(ctx, p, rules)
	if err == nil {
		err = ctx.Err() // a deadline of ctx cut the search short
	}
	if err != nil {
		return eval{}, err
	}
	return eval{best: m.Cell, chance: m.WinChance, proven: m.Proven}, nil
}

// round rounds a chance to four decimals, which is finer than any search
// can tell and keeps the stored JSON short.
func round(x float64) float64 { return math.Round(x*1e4) / 1e4 }
