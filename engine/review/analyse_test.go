package review_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/review"
)

// testPlayouts is the budget of the tests: enough for the endgame search
// to decide the last moves of finished.kgn, small enough to be quick.
const testPlayouts = 20000

func mustAnalyse(tb testing.TB, rec *engine.Record, opt review.Options) *review.Analysis {
	tb.Helper()
	a, err := review.Analyse(context.Background(), rec, opt)
	require.NoError(tb, err)
	return a
}

func TestAnalyseLastMovesExact(t *testing.T) {
	rec := mustRecord(t, "finished.kgn")
	require.Len(t, rec.Moves, 56)
	a := mustAnalyse(t, rec, review.Options{Playouts: testPlayouts, Seed: 1})
	require.Len(t, a.Moves, 56)

	// The verdicts on the last eight moves, which the exact search must
	// reach: black wins 28-26 whatever is played from move 48 on; red
	// threw the game away with its 47th move, H4 instead of E8.
	want := []struct {
		ply           int
		before, after float64
		cost          float64
	}{
		{47, 1, 0, 1},
		{48, 1, 1, 0},
		{49, 0, 0, 0},
		{50, 1, 1, 0},
		{51, 0, 0, 0},
		{52, 1, 1, 0},
		{53, 0, 0, 0},
		{54, 1, 1, 0},
		{55, 0, 0, 0},
		{56, 1, 1, 0},
	}
	for _, w := range want {
		m := a.Moves[w.ply-1]
		t.Run(m.Cell.String(), func(t *testing.T) {
			assert.Equal(t, w.ply, m.Ply)
			assert.True(t, m.BeforeProven, "the position before move %d is decided", w.ply)
			assert.True(t, m.AfterProven, "the position after move %d is decided", w.ply)
			assert.Equal(t, w.before, m.Before, "the mover's chance before move %d", w.ply)
			assert.Equal(t, w.after, m.After, "the mover's chance after move %d", w.ply)
			assert.Equal(t, w.cost, m.Cost, "the cost of move %d", w.ply)
			// The table agrees with a plain search of every way to go on.
			assert.Equal(t, solve(mustPosition(t, rec, w.ply-1), rec.Rules), m.Before)
			assert.Equal(t, 1-solve(mustPosition(t, rec, w.ply), rec.Rules), m.After)
		})
	}
	assert.Equal(t, 0.0, a.RedChances()[56], "black won the game")
	if c, ok := a.Moves[46].Better(); assert.True(t, ok) {
		p := mustPosition(t, rec, 46)
		h, ok := p.Layout().HoleAt(c)
		require.True(t, ok)
		p.Apply(h)
		assert.Equal(t, 0.0, solve(p, rec.Rules), "the better move %s wins for red", c)
	}
}

func TestAnalyseEveryProvenVerdictIsExact(t *testing.T) {
	rec := mustRecord(t, "finished.kgn")
	a := mustAnalyse(t, rec, review.Options{Playouts: testPlayouts, Seed: 1})
	for _, m := range a.Moves {
		if m.BeforeProven && len(rec.Moves)-m.Ply < 12 {
			assert.Equal(t, solve(mustPosition(t, rec, m.Ply-1), rec.Rules), m.Before, "move %d", m.Ply)
		}
	}
}

func TestAnalyseIsDeterministic(t *testing.T) {
	rec := mustRecord(t, "finished.kgn")
	one := mustAnalyse(t, rec, review.Options{Playouts: 2000, Seed: 7})
	var progress []int
	two := mustAnalyse(t, rec, review.Options{Playouts: 2000, Seed: 7, Workers: 2,
		Progress: func(done, total int) {
			assert.Equal(t, 57, total)
			progress = append(progress, done)
		}})
	assert.Equal(t, one, two, "the same seed gives the same analysis, on any number of workers")
	require.Len(t, progress, 57)
	for i, d := range progress {
		assert.Equal(t, i+1, d)
	}
	other := mustAnalyse(t, rec, review.Options{Playouts: 2000, Seed: 8})
	assert.NotEqual(t, one, other, "another seed, other random games")
}

func TestAnalyseJSONRoundTrip(t *testing.T) {
	rec := mustRecord(t, "finished.kgn")
	a := mustAnalyse(t, rec, review.Options{Playouts: 2000, Seed: 3})
	b, err := json.Marshal(a)
	require.NoError(t, err)
	var back review.Analysis
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, a, &back)
	again, err := json.Marshal(&back)
	require.NoError(t, err)
	assert.Equal(t, string(b), string(again), "the encoding is stable")
	assert.Contains(t, string(b), `"version":1`)
	assert.Contains(t, string(b), `{"ply":1,"color":"red","cell":"A8",`)
}

func TestAnalyseTimeBudget(t *testing.T) {
	rec := mustRecord(t, "finished.kgn")
	a := mustAnalyse(t, rec, review.Options{Time: 1})
	assert.True(t, a.Timed)
	assert.Len(t, a.Moves, 56)
	assert.Equal(t, 0.0, a.RedChances()[56], "the result is known without a search")
}

func TestAnalyseErrors(t *testing.T) {
	rec := mustRecord(t, "finished.kgn")
	bad := *rec
	bad.Moves = append(append([]string(nil), rec.Moves[:5]...), rec.Moves[0])
	_, err := review.Analyse(context.Background(), &bad, review.Options{Playouts: 100})
	require.ErrorIs(t, err, review.ErrBadRecord)
	var me *engine.MoveError
	require.ErrorAs(t, err, &me)
	assert.Equal(t, 6, me.Ply)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = review.Analyse(ctx, rec, review.Options{Playouts: 100})
	assert.ErrorIs(t, err, context.Canceled)

	ctx, cancel = context.WithCancel(context.Background())
	_, err = review.Analyse(ctx, rec, review.Options{Playouts: 100, Workers: 2, Progress: func(done, _ int) {
		if done == 3 {
			cancel()
		}
	}})
	assert.True(t, errors.Is(err, context.Canceled), "cancelled while it searches: %v", err)

	ctx, cancel = context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = review.Analyse(ctx, rec, review.Options{Playouts: 1 << 30})
	assert.ErrorIs(t, err, context.DeadlineExceeded, "ctx's deadline is not a budget: Options.Time is")
}

func TestAnalyseNoMoves(t *testing.T) {
	rec := engine.NewRecord(engine.Square(), engine.Red, engine.Full)
	a := mustAnalyse(t, rec, review.Options{})
	assert.Empty(t, a.Moves)
	assert.Empty(t, a.RedChances())
	assert.Empty(t, a.Mistakes(engine.Red, 3))
	assert.Empty(t, a.Swings(3))
	assert.Equal(t, review.DefaultPlayouts, a.Playouts)
}
