package ai_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/ai"
)

// fixed is a reproducible search: a playout budget, no clock.
func fixed(playouts int) ai.Config {
	c := ai.HardOld()
	c.Time, c.Playouts, c.Workers, c.Seed = 0, playouts, 2, 1
	return c
}

func TestSearchRefuses(t *testing.T) {
	over := mustRandomGame(t, engine.Square(), 1, 0)
	over.Playout(new(engine.Rand))
	require.True(t, over.IsOver())
	open := engine.NewPosition(engine.Square(), engine.Red)
	done, cancel := context.WithCancel(context.Background())
	cancel()

	tests := []struct {
		name   string
		player ai.Player
		ctx    context.Context
		pos    engine.Position
		want   error
	}{
		{"game over", fixed(100), context.Background(), over, engine.ErrGameOver},
		{"cancelled", fixed(100), done, open, context.Canceled},
		{"no budget", ai.Config{Workers: 1}, context.Background(), open, ai.ErrNoBudget},
		{"random, game over", ai.Random{}, context.Background(), over, engine.ErrGameOver},
		{"greedy, cancelled", ai.Greedy{}, done, open, context.Canceled},
		{"alpha-beta, game over", ai.AlphaBeta{Depth: 2}, context.Background(), over, engine.ErrGameOver},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := tt.player.Move(tt.ctx, tt.pos, engine.Basic)
			assert.ErrorIs(t, err, tt.want)
		})
	}
}

func TestSearchDeterministic(t *testing.T) {
	for _, rules := range allRules {
		t.Run(rules.String(), func(t *testing.T) {
			pos := mustRandomGame(t, engine.RandomIrregular(uint64(rules)), uint64(rules), 12)
			c := fixed(4000)
			first, err := c.Move(context.Background(), pos, rules)
			require.NoError(t, err)
			for range 3 {
				again, err := c.Move(context.Background(), pos, rules)
				require.NoError(t, err)
				assert.Equal(t, first, again)
			}
			assert.NoError(t, pos.Check(first.Cell), "a legal move")
			assert.InDelta(t, 0.5, first.WinChance, 0.5)
			assert.False(t, first.Proven)
			assert.LessOrEqual(t, first.Playouts, 4000)
			assert.Greater(t, first.Playouts, 1000, "early stop only once the choice is settled")
		})
	}
}

func TestSearchSeedsDiffer(t *testing.T) {
	// Easy's temperature draws among good moves: other seeds, other moves.
	pos := engine.NewPosition(engine.Square(), engine.Red)
	pos.Apply(27)
	seen := map[engine.Cell]bool{}
	for seed := range uint64(20) {
		c := ai.Easy.Config()
		c.Time, c.Workers, c.Seed = 0, 1, seed
		m, err := c.Move(context.Background(), pos, engine.Basic)
		require.NoError(t, err)
		require.NoError(t, pos.Check(m.Cell))
		seen[m.Cell] = true
	}
	assert.Greater(t, len(seen), 2, "moves drawn: %v", seen)
}

func TestSearchTimeBudget(t *testing.T) {
	// The empty board: 64 moves, too many for the search to settle early.
	pos := engine.NewPosition(engine.Square(), engine.Red)
	tests := []struct {
		name   string
		budget time.Duration // of the Config
		ctx    time.Duration // deadline of the context; 0 for none
	}{
		{"config", 300 * time.Millisecond, 0},
		{"context deadline", ai.DefaultTime, 300 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The search reads a clock that moves on 1 ms at each
			// reading, from now: the budget is counted in the search's
			// own readings, however fast the machine.
			clock := newStepClock(time.Millisecond)
			ctx := context.Background()
			if tt.ctx > 0 {
				var cancel context.CancelFunc
				// A deadline on the search's clock: context.WithDeadline
				// would end it by the system's.
				ctx, cancel = context.WithCancel(ctx)
				defer cancel()
				ctx = deadlineOnly{ctx, clock.start.Add(tt.ctx)}
			}
			c := ai.Hard.Config().WithClock(clock.now)
			c.Time = tt.budget
			m, err := c.Move(ctx, pos, engine.Full)
			require.NoError(t, err)
			assert.NoError(t, pos.Check(m.Cell))
			// The search aims 30 ms before the budget of 300 ms, and a
			// runaway search would take 2 s (DefaultTime) or more.
			assert.LessOrEqual(t, clock.elapsed(), 300*time.Millisecond, "stops within the budget")
			assert.Greater(t, clock.elapsed(), 200*time.Millisecond, "and spends it")
			assert.Positive(t, m.Playouts)
		})
	}
}

func TestSearchCancel(t *testing.T) {
	// The search's clock stands still: its budget never runs out, and only
	// the cancellation can stop it (a search that missed it would never
	// return).
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(50*time.Millisecond, cancel)
	frozen := time.Now()
	c := ai.Hard.Config().WithClock(func() time.Time { return frozen })
	c.Time = time.Minute
	_, err := c.Move(ctx, engine.NewPosition(engine.Square(), engine.Red), engine.Basic)
	assert.ErrorIs(t, err, context.Canceled, "stops when cancelled")
}

func TestSearchSmallTree(t *testing.T) {
	c := fixed(3000)
	c.MaxNodes = 100
	pos := mustRandomGame(t, engine.Square(), 4, 10)
	m, err := c.Move(context.Background(), pos, engine.Full)
	require.NoError(t, err)
	assert.NoError(t, pos.Check(m.Cell))
}

func TestSearchForcedMove(t *testing.T) {
	// Find a position with a single legal move.
	for seed := uint64(0); ; seed++ {
		require.Less(t, seed, uint64(1000))
		r := engine.NewRand(seed)
		pos := engine.NewPosition(engine.Square(), engine.Red)
		for !pos.IsOver() && pos.Legal()&(pos.Legal()-1) != 0 {
			pos.Apply(r.Pick(pos.Legal()))
		}
		if pos.IsOver() || engine.MaxPly-pos.Ply() <= ai.Hard.Config().SolvePlies {
			continue
		}
		clock := newStepClock(time.Millisecond) // the budget counted in the search's readings of its clock
		c := ai.Hard.Config().WithClock(clock.now)
		m, err := c.Move(context.Background(), pos, engine.Basic)
		require.NoError(t, err)
		assert.Less(t, clock.elapsed(), c.Time/2, "a forced move takes no thought")
		assert.Equal(t, pos.Legal(), engine.Holes(1)<<m.Hole)
		assert.LessOrEqual(t, m.Playouts, 1000)
		assert.InDelta(t, 0.5, m.WinChance, 0.5)
		return
	}
}

func TestSolverAgreesWithBruteForce(t *testing.T) {
	// Hard solves alongside the tree search, HardOld before it.
	next := ai.Hard.Config()
	next.Time, next.Playouts, next.Workers, next.Seed = 0, 20000, 2, 1
	for _, e := range mustEndgames(t, 24, false) {
		for _, c := range []ai.Config{fixed(20000), next} { // the solver may visit 20,000 nodes
			t.Run(fmt.Sprint(e.rules, c.SolveAlongside), func(t *testing.T) {
				m, err := c.Move(context.Background(), e.pos, e.rules)
				require.NoError(t, err)
				require.True(t, m.Proven, "13 marbles left are within SolvePlies")
				assert.Equal(t, float64(e.best+1)/2, m.WinChance)
				if e.best >= 0 {
					assert.Equal(t, e.best, e.values[m.Hole], "the move keeps the result")
				}
			})
		}
	}
}

func TestSearchFindsTacticalWins(t *testing.T) {
	// Without the solver, the tree search alone must find the winning move
	// where another move throws the game away.
	for _, e := range mustEndgames(t, 12, true) {
		t.Run(e.rules.String(), func(t *testing.T) {
			c := fixed(20000)
			c.SolvePlies = 0
			m, err := c.Move(context.Background(), e.pos, e.rules)
			require.NoError(t, err)
			assert.Equal(t, 1, e.values[m.Hole], "move %s of %v", m.Cell, e.values)
		})
	}
}

func BenchmarkSearch(b *testing.B) {
	for _, rules := range allRules {
		b.Run(rules.String(), func(b *testing.B) {
			pos := mustRandomGame(b, engine.Square(), 1, 10)
			c := fixed(20000)
			c.Workers = 1
			for b.Loop() {
				m, err := c.Move(context.Background(), pos, rules)
				require.NoError(b, err)
				b.ReportMetric(float64(m.Playouts), "playouts/op")
			}
		})
	}
}

func TestSolverWidensWins(t *testing.T) {
	// With 8 marbles left, Hard's solver proves a win by more than 2, 4, 8…
	// points while it can: the move it plays wins by more than the largest
	// of those below the widest win.
	found := 0
	for seed := uint64(1); found < 12; seed++ {
		require.Less(t, seed, uint64(1000), "too few won endgames")
		pos := mustRandomGame(t, engine.RandomIrregular(seed), seed, 0)
		r := engine.NewRand(seed)
		for pos.Ply() < engine.MaxPly-8 && !pos.IsOver() {
			pos.Apply(r.Pick(pos.Legal()))
		}
		rules := allRules[seed%4]
		if pos.IsOver() || bruteMargin(pos, rules) <= 0 {
			continue
		}
		found++
		margins := map[engine.Hole]int{}
		widest := 0
		for h := range pos.Legal().All() {
			p := pos
			p.Apply(h)
			margins[h] = -bruteMargin(p, rules)
			widest = max(widest, margins[h])
		}
		proven := 0
		for more := 2; more < widest; more *= 2 {
			proven = more
		}
		c := ai.Hard.Config()
		c.Time, c.Playouts, c.Workers, c.Seed = 0, 1<<30, 2, 1
		require.Positive(t, c.MarginWeight, "Hard wants to win well")
		m, err := c.Move(context.Background(), pos, rules)
		require.NoError(t, err)
		require.True(t, m.Proven)
		assert.Equal(t, 1.0, m.WinChance)
		assert.Greater(t, margins[m.Hole], proven, "seed %d: %s of %v, widest %d", seed, m.Cell, margins, widest)
	}
}

func TestHardKeepsItsBudget(t *testing.T) {
	// Hard stops within its budget, in the tree search and in the endgame
	// solver alike (from SolvePlies marbles left), by the clock it reads:
	// here one that moves on 1 ms at each reading, so that the check does
	// not depend on how fast the machine searches. How late it stops by
	// the wall clock on a given machine is a measurement:
	// BenchmarkHardOverBudget.
	const budget = ai.DefaultTime
	for _, ply := range budgetPlies {
		t.Run(fmt.Sprint(ply), func(t *testing.T) {
			pos := mustRandomGame(t, engine.RandomIrregular(uint64(ply)), uint64(ply), ply)
			clock := newStepClock(time.Millisecond)
			c := ai.Hard.Config().WithClock(clock.now)
			c.Time = budget
			m, err := c.Move(context.Background(), pos, engine.Full)
			require.NoError(t, err)
			require.NoError(t, pos.Check(m.Cell))
			assert.LessOrEqual(t, clock.elapsed(), budget)
		})
	}
}

// budgetPlies are the plies of the positions whose budget is checked:
// the tree search alone, and with the endgame solver.
var budgetPlies = []int{0, 30, 34, 36, 46}

// BenchmarkHardOverBudget measures how long after its budget Hard
// returns, by the wall clock, at each of budgetPlies: the search aims
// safetyMargin before its deadline, for the machine's hiccups, and should
// not run over by more than 50 ms on an idle machine (over-ms, the most
// of the runs).
func BenchmarkHardOverBudget(b *testing.B) {
	const budget = ai.DefaultTime
	for _, ply := range budgetPlies {
		b.Run(fmt.Sprint(ply), func(b *testing.B) {
			pos := mustRandomGame(b, engine.RandomIrregular(uint64(ply)), uint64(ply), ply)
			c := ai.Hard.Config()
			c.Time = budget
			var over time.Duration
			for b.Loop() {
				begin := time.Now()
				m, err := c.Move(context.Background(), pos, engine.Full)
				over = max(over, time.Since(begin)-budget)
				require.NoError(b, err)
				require.NoError(b, pos.Check(m.Cell))
			}
			b.ReportMetric(float64(over)/float64(time.Millisecond), "over-ms")
		})
	}
}

func TestHardSpendsItsBudget(t *testing.T) {
	// HardOld stops once its most searched move cannot be overtaken; Hard
	// searches on, since more playouts change the values of close moves.
	pos := mustRandomGame(t, engine.RandomIrregular(5), 5, 30)
	early, err := fixed(20000).Move(context.Background(), pos, engine.Basic)
	require.NoError(t, err)
	require.Less(t, early.Playouts, 20000, "a position HardOld settles early")
	next := ai.Hard.Config()
	next.Time, next.Playouts, next.Workers, next.Seed = 0, 20000, 2, 1
	m, err := next.Move(context.Background(), pos, engine.Basic)
	require.NoError(t, err)
	assert.Equal(t, 20000, m.Playouts)
}
