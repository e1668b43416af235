package ai

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kulami/kulami/engine"
)

// grown returns a tree grown by iterations playouts from the position
// after plies random moves on a random irregular layout.
func grown(t *testing.T, seed uint64, plies, iterations int, rules engine.Rules) *tree {
	t.Helper()
	pos := randomGame(seed, plies)
	tr := new(tree)
	tr.prepare(pos, engine.NewScorer(pos.Layout()), rules, seed, Hard.Config().params(), false)
	for range iterations {
		tr.iterate()
	}
	return tr
}

// randomGame returns the position after plies random moves from the empty
// board of a random irregular layout, red first, or the finished game if
// it ends sooner.
func randomGame(seed uint64, plies int) engine.Position {
	pos := engine.NewPosition(engine.RandomIrregular(seed), engine.Red)
	r := engine.NewRand(seed)
	for range plies {
		if pos.IsOver() {
			break
		}
		pos.Apply(r.Pick(pos.Legal()))
	}
	return pos
}

// subtree writes the subtree of node i, depth first, one node a line.
func (t *tree) subtree(i int32) []string {
	n := t.nodes[i]
	out := []string{fmt.Sprintf("%d %d %g %d %g %d", n.move, n.visits, n.reward, n.amafVisits, n.amafReward, n.children)}
	for c := n.child; c < n.child+int32(n.children); c++ {
		out = append(out, t.subtree(c)...)
	}
	return out
}

// mostVisited returns the most visited child of node i.
func (t *tree) mostVisited(i int32) int32 {
	n := t.nodes[i]
	best := n.child
	for c := n.child; c < n.child+int32(n.children); c++ {
		if t.nodes[c].visits > t.nodes[best].visits {
			best = c
		}
	}
	return best
}

func TestRerootKeepsTheSubtree(t *testing.T) {
	for _, plies := range []int{0, 1, 20, 40} {
		t.Run(fmt.Sprint(plies), func(t *testing.T) {
			tr := grown(t, uint64(plies)+1, plies, 20000, engine.Full)
			a := tr.mostVisited(0)
			b := tr.mostVisited(a)
			require.NotZero(t, tr.nodes[b].children, "the reply's node must be expanded")
			want := tr.subtree(b)
			pos := tr.root
			pos.Apply(tr.nodes[a].move)
			pos.Apply(tr.nodes[b].move)

			require.True(t, tr.reroot(pos, engine.Full))
			got := tr.subtree(0)
			require.NotEmpty(t, got)
			assert.Equal(t, want[1:], got[1:], "the subtree, node by node")
			_, wantRoot, _ := strings.Cut(want[0], " ")
			_, gotRoot, _ := strings.Cut(got[0], " ")
			assert.Equal(t, wantRoot, gotRoot, "the root's statistics")
			assert.Equal(t, engine.NoHole, tr.nodes[0].move)
			assert.Len(t, tr.nodes, len(want), "only the subtree is kept")
			for i, n := range tr.nodes {
				if n.children > 0 {
					assert.Greater(t, n.child, int32(i), "children come after their parent")
				}
			}
		})
	}
}

func TestRerootRefuses(t *testing.T) {
	base := grown(t, 7, 10, 5000, engine.Basic)
	a := base.mostVisited(0)
	b := base.mostVisited(a)
	c := base.mostVisited(b)
	follow := func(moves ...int32) engine.Position {
		p := base.root
		for _, i := range moves {
			p.Apply(base.nodes[i].move)
		}
		return p
	}
	otherFirst := engine.NewPosition(base.root.Layout(), engine.Black)
	tests := []struct {
		name  string
		pos   engine.Position
		rules engine.Rules
		ok    bool
	}{
		{"the same position", follow(), engine.Basic, true},
		{"one move on", follow(a), engine.Basic, true},
		{"two moves on", follow(a, b), engine.Basic, true},
		{"three moves on", follow(a, b, c), engine.Basic, false},
		{"other rules", follow(a, b), engine.Full, false},
		{"another game", engine.NewPosition(engine.RandomIrregular(8), engine.Red), engine.Basic, false},
		{"the other colour first", otherFirst, engine.Basic, false},
		{"an earlier position", randomGame(7, 9), engine.Basic, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := *base
			tr.nodes = append([]node(nil), base.nodes...)
			assert.Equal(t, tt.ok, tr.reroot(tt.pos, tt.rules))
		})
	}
}

func TestSearcherSearchesOnFromItsTree(t *testing.T) {
	// After a move and the reply, the root of a worker's tree already has
	// the visits its subtree had: the search goes on from there.
	c := Hard.Config()
	c.Time, c.Playouts, c.Workers, c.Seed, c.SpendAll = 0, 20000, 1, 1, true
	s := NewSearcher(c)
	pos := randomGame(3, 12)
	m, err := s.Move(context.Background(), pos, engine.Basic)
	require.NoError(t, err)
	tr := s.trees[0]
	mine := tr.childWith(0, m.Hole)
	require.GreaterOrEqual(t, mine, int32(0))
	reply := tr.mostVisited(mine)
	kept := tr.nodes[reply].visits
	require.Positive(t, kept)
	pos.Apply(m.Hole)
	pos.Apply(tr.nodes[reply].move)

	_, err = s.Move(context.Background(), pos, engine.Basic)
	require.NoError(t, err)
	assert.Equal(t, kept+20000, s.trees[0].nodes[0].visits, "the reused visits and this search's")
}

// BenchmarkReroot measures what reuse costs a move before its search
// starts: rerooting a worker's tree of 200,000 playouts (about what a
// core grows in a second) to the subtree of its most searched move and
// reply.
func BenchmarkReroot(b *testing.B) {
	pos := randomGame(5, 10)
	base := new(tree)
	base.prepare(pos, engine.NewScorer(pos.Layout()), engine.Full, 5, Hard.Config().params(), false)
	for range 200000 {
		base.iterate()
	}
	a := base.mostVisited(0)
	next := pos
	next.Apply(base.nodes[a].move)
	next.Apply(base.nodes[base.mostVisited(a)].move)
	tr := *base
	tr.nodes = make([]node, 0, len(base.nodes))
	for b.Loop() {
		b.StopTimer()
		tr.nodes = append(tr.nodes[:0], base.nodes...)
		tr.root = base.root
		b.StartTimer()
		if !tr.reroot(next, engine.Full) {
			b.Fatal("the reply's subtree was not kept")
		}
	}
	b.ReportMetric(float64(len(base.nodes)), "nodes")
	b.ReportMetric(float64(len(tr.nodes)), "kept")
}
