package puzzle

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

func TestAttemptRightLineSolves(t *testing.T) {
	for _, p := range generated(t, 12) {
		t.Run(p.ID, func(t *testing.T) {
			a, err := p.Start()
			require.NoError(t, err)
			for i := 0; i < len(p.Solution); i += 2 {
				ans, err := a.Play(p.Solution[i])
				require.NoError(t, err)
				assert.True(t, ans.Right)
				if i+1 < len(p.Solution) {
					assert.Equal(t, p.Solution[i+1], ans.Defence)
					assert.False(t, a.Over())
				} else {
					assert.True(t, ans.Solved)
				}
			}
			assert.True(t, a.Over())
			_, err = a.Play(p.Solution[0])
			assert.ErrorIs(t, err, ErrSolved)
		})
	}
}

func TestAttemptWrongMoveIsRefuted(t *testing.T) {
	for _, p := range generated(t, 12) {
		t.Run(p.ID, func(t *testing.T) {
			a, err := p.Start()
			require.NoError(t, err)
			pos := a.Position()
			var wrong engine.Cell
			for h := range pos.Legal().All() {
				if c := pos.Layout().Cell(h); c != p.Solution[0] {
					wrong = c
					break
				}
			}
			ans, err := a.Play(wrong)
			require.NoError(t, err)
			assert.False(t, ans.Right)
			assert.True(t, a.Over())
			require.NoError(t, pos.Play(wrong))
			if !pos.IsOver() {
				require.True(t, ans.HasRefutation)
				assert.NoError(t, pos.Check(ans.Refutation), "the refutation is legal")
				// After the refutation the solver is below the goal.
				require.NoError(t, pos.Play(ans.Refutation))
				if !pos.IsOver() {
					assert.Less(t, newBrute(p.Record.Rules).value(pos), p.Goal.value())
				}
			}
		})
	}
}

func TestAttemptRefusesIllegalMove(t *testing.T) {
	ps := generated(t, 12)
	require.NotEmpty(t, ps)
	a, err := ps[0].Start()
	require.NoError(t, err)
	pos := a.Position()
	last, _ := pos.Last()
	_, err = a.Play(pos.Layout().Cell(last)) // occupied
	var re *engine.RuleError
	require.ErrorAs(t, err, &re)
	assert.False(t, a.Over(), "an illegal move changes nothing")
	assert.Equal(t, pos, a.Position())
}
