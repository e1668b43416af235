package ai_test

import (
	"context"
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
	pos := engine.NewPosition(engine.Square(), engine.Red)
	begin := time.Now()
	m, err := ai.AlphaBeta{Time: 200 * time.Millisecond}.Move(context.Background(), pos, engine.Full)
	require.NoError(t, err)
	assert.NoError(t, pos.Check(m.Cell))
	assert.Less(t, time.Since(begin), 400*time.Millisecond)

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
