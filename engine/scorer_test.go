package engine_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

var allRules = []engine.Rules{engine.Basic, engine.Area, engine.Lines, engine.Full}

// randomGame plays n random legal moves (fewer if the game ends) on l.
func randomGame(l *engine.Layout, r *engine.Rand, n int) engine.Position {
	p := engine.NewPosition(l, engine.Color(r.Uint64()&1))
	for i := 0; i < n && !p.IsOver(); i++ {
		p.Apply(r.Pick(p.Legal()))
	}
	return p
}

func TestScorerMarginEqualsScore(t *testing.T) {
	layouts := map[string]func(seed uint64) *engine.Layout{
		"square":    func(uint64) *engine.Layout { return engine.Square() },
		"random":    engine.RandomSquare,
		"irregular": engine.RandomIrregular,
	}
	for name, layout := range layouts {
		t.Run(name, func(t *testing.T) {
			r := engine.NewRand(7)
			lines, areas := 0, 0
			for seed := range uint64(40) {
				l := layout(seed)
				s := engine.NewScorer(l)
				require.Same(t, l, s.Layout())
				for range 50 {
					p := randomGame(l, &r, int(r.Uint64()%(engine.MaxPly+1)))
					for _, rules := range allRules {
						sc := p.Score(rules)
						require.Equal(t, sc[engine.Red].Total-sc[engine.Black].Total, s.Margin(&p, rules),
							"layout %s, %s, red %#x, black %#x", l, rules, p.Stones(engine.Red), p.Stones(engine.Black))
						if sc[engine.Red].Lines+sc[engine.Black].Lines > 0 {
							lines++
						}
						if sc[engine.Red].Area+sc[engine.Black].Area > 0 {
							areas++
						}
					}
				}
			}
			// The comparison is only worth something if bonuses occurred.
			assert.Greater(t, lines, 100, "positions with a lines bonus")
			assert.Greater(t, areas, 100, "positions with an area bonus")
		})
	}
}

func TestScorerLineLengths(t *testing.T) {
	// Red fills row 1 of the square (8 holes: one run of 8), black row 2
	// but for its 3rd hole (runs of 2 and 5: 5 points).
	l := engine.Square()
	var red, black uint64
	for col := range 8 {
		h, _ := l.HoleAt(engine.CellAt(col, 0))
		red |= 1 << h
		if col != 2 {
			h, _ = l.HoleAt(engine.CellAt(col, 1))
			black |= 1 << h
		}
	}
	s := engine.NewScorer(l)
	// Each bonus alone is the difference between its rule set and basic.
	assert.Equal(t, 8-5, s.MarginOf(red, black, engine.Lines)-s.MarginOf(red, black, engine.Basic))
	// Areas: red's row is one group of 8; the empty C2 splits black's row
	// into groups of 2 and 5.
	assert.Equal(t, 8-5, s.MarginOf(red, black, engine.Area)-s.MarginOf(red, black, engine.Basic))
}

func BenchmarkScore(b *testing.B) {
	for _, rules := range allRules {
		b.Run(rules.String(), func(b *testing.B) {
			ps := endPositions(b)
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				p := &ps[i%len(ps)]
				_ = p.Score(rules)
			}
		})
	}
}

func BenchmarkScorerMargin(b *testing.B) {
	for _, rules := range allRules {
		b.Run(rules.String(), func(b *testing.B) {
			ps := endPositions(b)
			s := engine.NewScorer(ps[0].Layout())
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				_ = s.Margin(&ps[i%len(ps)], rules)
			}
		})
	}
}

// endPositions returns finished random games on the square layout.
func endPositions(tb testing.TB) []engine.Position {
	tb.Helper()
	r := engine.NewRand(1)
	ps := make([]engine.Position, 256)
	for i := range ps {
		ps[i] = randomGame(engine.Square(), &r, engine.MaxPly)
		require.True(tb, ps[i].IsOver())
	}
	return ps
}
