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

func TestRandom(t *testing.T) {
	pos := mustRandomGame(t, engine.Square(), 2, 5)
	seen := map[engine.Hole]bool{}
	for seed := range uint64(40) {
		p := ai.Random{Seed: seed}
		m, err := p.Move(context.Background(), pos, engine.Basic)
		require.NoError(t, err)
		require.NoError(t, pos.Check(m.Cell))
		assert.Equal(t, ai.NoEstimate, m.WinChance)
		again, err := p.Move(context.Background(), pos, engine.Basic)
		require.NoError(t, err)
		assert.Equal(t, m, again, "the same seed, the same move")
		seen[m.Hole] = true
	}
	assert.Greater(t, len(seen), 3, "the seeds pick among the legal moves")
}

// marginAfter returns the score margin of the player to move after hole h,
// by Position.Score; a finished game counts above any unfinished one.
func marginAfter(pos engine.Position, h engine.Hole, rules engine.Rules) int {
	mover := pos.ToMove()
	pos.Apply(h)
	s := pos.Score(rules)
	m := s[mover].Total - s[mover.Other()].Total
	if pos.IsOver() && m != 0 {
		m += 1000 * m / max(m, -m)
	}
	return m
}

func TestGreedyPicksBestImmediateScore(t *testing.T) {
	for i, rules := range []engine.Rules{engine.Basic, engine.Area, engine.Lines, engine.Full, engine.Full, engine.Basic} {
		for _, ply := range []int{0, 1, 20, 40, 47} {
			r := engine.NewRand(uint64(i*100 + ply))
			pos := engine.NewPosition(engine.RandomIrregular(uint64(i)), engine.Red)
			for pos.Ply() < ply && !pos.IsOver() {
				pos.Apply(r.Pick(pos.Legal()))
			}
			if pos.IsOver() {
				continue
			}
			m, err := ai.Greedy{Seed: uint64(i)}.Move(context.Background(), pos, rules)
			require.NoError(t, err)
			require.NoError(t, pos.Check(m.Cell))
			got := marginAfter(pos, m.Hole, rules)
			for h := engine.Hole(0); h < engine.NumHoles; h++ {
				if pos.Legal()&(1<<h) != 0 {
					assert.GreaterOrEqual(t, got, marginAfter(pos, h, rules), "%s, ply %d: %s beats %s", rules, ply, pos.Layout().Cell(h), m.Cell)
				}
			}
		}
	}
}

func TestAlphaBetaFindsForcedWins(t *testing.T) {
	for _, e := range mustEndgames(t, 12, true) {
		t.Run(e.rules.String(), func(t *testing.T) {
			m, err := ai.AlphaBeta{Depth: engine.MaxPly - e.pos.Ply()}.Move(context.Background(), e.pos, e.rules)
			require.NoError(t, err)
			assert.Equal(t, 1, e.values[m.Hole], "move %s of %v", m.Cell, e.values)
		})
	}
}

func TestAlphaBetaBudget(t *testing.T) {
	// The budget is counted on a clock that moves on 1 ms each time the
	// search reads it (every 1,024 positions), not by how fast the machine
	// searches: the search returns once its budget is spent, not after.
	// From the empty board it would search for hours without one.
	pos := engine.NewPosition(engine.Square(), engine.Red)
	const budget = 200 * time.Millisecond
	clock := newStepClock(time.Millisecond)
	m, err := ai.AlphaBeta{Time: budget}.WithClock(clock.now).Move(context.Background(), pos, engine.Full)
	require.NoError(t, err)
	assert.NoError(t, pos.Check(m.Cell))
	assert.LessOrEqual(t, clock.elapsed(), budget, "the search stops within its budget")
	assert.Greater(t, clock.elapsed(), budget/2, "and spends it")

	// The zero AlphaBeta looks one move ahead, like Greedy.
	pos = mustRandomGame(t, engine.Square(), 8, 10)
	m, err = ai.AlphaBeta{}.Move(context.Background(), pos, engine.Basic)
	require.NoError(t, err)
	g, err := ai.Greedy{}.Move(context.Background(), pos, engine.Basic)
	require.NoError(t, err)
	assert.Equal(t, marginAfter(pos, g.Hole, engine.Basic), marginAfter(pos, m.Hole, engine.Basic))
}

func TestPlayGame(t *testing.T) {
	for _, rules := range allRules {
		t.Run(rules.String(), func(t *testing.T) {
			l := engine.RandomIrregular(uint64(rules))
			g, err := ai.PlayGame(context.Background(), l, engine.Black, rules,
				[2]ai.Player{ai.Random{Seed: 1}, ai.Greedy{Seed: 2}})
			require.NoError(t, err)
			require.True(t, g.Final.IsOver())
			assert.Equal(t, g.Final.Score(rules), g.Score)

			// The record replays to the same end.
			back, err := engine.ParseRecord(g.Record.String())
			require.NoError(t, err)
			p, err := back.Replay()
			require.NoError(t, err)
			assert.Equal(t, g.Final.Stones(engine.Red), p.Stones(engine.Red))
			assert.Equal(t, g.Final.Stones(engine.Black), p.Stones(engine.Black))
			assert.Equal(t, engine.Black, back.First)
			assert.Equal(t, rules, back.Rules)
			res, ok := back.Tag("Result")
			require.True(t, ok)
			w, decided := g.Score.Winner()
			if decided {
				assert.Regexp(t, "^"+w.Title()+` \d+-\d+$`, res)
			} else {
				assert.Regexp(t, `^Draw \d+-\d+$`, res)
			}
		})
	}
}

// illegal always plays A1.
type illegal struct{}

func (illegal) Move(context.Context, engine.Position, engine.Rules) (ai.Move, error) {
	return ai.Move{Cell: engine.CellAt(0, 0)}, nil
}

func TestPlayGameRefusesIllegalMoves(t *testing.T) {
	_, err := ai.PlayGame(context.Background(), engine.Square(), engine.Red, engine.Basic,
		[2]ai.Player{illegal{}, illegal{}})
	assert.ErrorIs(t, err, engine.ErrOccupied)
	assert.ErrorContains(t, err, "black's move 2 (A1)")
}

func TestDeepDepth(t *testing.T) {
	tests := []struct{ placed, depth int }{
		{0, 8}, {4, 8}, {5, 10}, {9, 10}, {10, 12}, {14, 12}, {15, 13}, {20, 13}, {21, 14}, {24, 14},
		{25, 15}, {28, 15}, {29, 16}, {32, 16}, {33, 18}, {35, 18}, {36, 20}, {38, 20}, {39, 25}, {55, 25},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.depth, ai.DeepDepth(tt.placed), "%d marbles placed", tt.placed)
	}
}

// fixedDepth returns the value for the player to move of pos searched
// depth plies by plain minimax, with Deep's evaluation: the margin by
// Position.Score, a finished game ±1000 (0 for a draw).
func fixedDepth(pos engine.Position, rules engine.Rules, depth int) int {
	legal := pos.Legal()
	if legal == 0 || depth == 0 {
		s := pos.Score(rules)
		m := s[pos.ToMove()].Total - s[pos.ToMove().Other()].Total
		if legal == 0 {
			return 1000 * max(-1, min(1, m))
		}
		return m
	}
	best := -1 << 30
	for h := range legal.All() {
		p := pos
		p.Apply(h)
		best = max(best, -fixedDepth(p, rules, depth-1))
	}
	return best
}

func TestDeepPlaysTheMinimaxMove(t *testing.T) {
	// Cut to 3 plies, Deep plays a move of the best 3-ply minimax value.
	for i, ply := range []int{0, 12, 30, 36, 40, 44} {
		rules := allRules[i%4]
		t.Run(fmt.Sprint(ply, rules), func(t *testing.T) {
			var pos engine.Position
			for seed := uint64(i); pos.Layout() == nil || pos.IsOver(); seed += 10 {
				require.Less(t, seed, uint64(1000), "no game lasts %d moves", ply)
				pos = engine.NewPosition(engine.RandomIrregular(seed), engine.Red)
				r := engine.NewRand(seed)
				for pos.Ply() < ply && !pos.IsOver() {
					pos.Apply(r.Pick(pos.Legal()))
				}
			}
			d := ai.Deep{Shallower: ai.DeepDepth(ply) - 3}
			m, err := d.Move(context.Background(), pos, rules)
			require.NoError(t, err)
			require.NoError(t, pos.Check(m.Cell))
			assert.Equal(t, fixedDepth(pos, rules, 3), -fixedDepth(after(pos, m.Hole), rules, 2))
		})
	}
}

func TestDeepStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	// 12 plies from the empty board take over 5 s, so the search is
	// still running when the cancellation comes, however late the timer
	// fires on a loaded machine (8 plies take about 100 ms, and a timer
	// late by that much failed this test).
	_, err := ai.Deep{Shallower: -4}.Move(ctx, engine.NewPosition(engine.Square(), engine.Red), engine.Full)
	assert.ErrorIs(t, err, context.Canceled)
}

// after returns pos after hole h.
func after(pos engine.Position, h engine.Hole) engine.Position {
	pos.Apply(h)
	return pos
}
