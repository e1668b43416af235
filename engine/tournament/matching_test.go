package tournament

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bruteMatching returns the largest cardinality of a matching of the graph
// and, among matchings of that cardinality, the largest weight.
func bruteMatching(n int, edges []edge) (int, int64) {
	w := make(map[[2]int]int64)
	for _, e := range edges {
		w[[2]int{min(e.u, e.v), max(e.u, e.v)}] = e.w
	}
	used := make([]bool, n)
	var best struct {
		card int
		w    int64
	}
	var rec func(v, card int, sum int64)
	rec = func(v, card int, sum int64) {
		for v < n && used[v] {
			v++
		}
		if v == n {
			if card > best.card || card == best.card && sum > best.w {
				best.card, best.w = card, sum
			}
			return
		}
		used[v] = true
		rec(v+1, card, sum) // v unmatched
		for u := v + 1; u < n; u++ {
			if x, ok := w[[2]int{v, u}]; ok && !used[u] {
				used[u] = true
				rec(v+1, card+1, sum+x)
				used[u] = false
			}
		}
		used[v] = false
	}
	rec(0, 0, 0)
	return best.card, best.w
}

// checkMatching requires mate to be a matching of the graph and returns
// its cardinality and weight.
func checkMatching(t *testing.T, n int, edges []edge, mate []int) (int, int64) {
	t.Helper()
	require.Len(t, mate, n)
	w := make(map[[2]int]int64)
	for _, e := range edges {
		w[[2]int{min(e.u, e.v), max(e.u, e.v)}] = e.w
	}
	card, sum := 0, int64(0)
	for v, u := range mate {
		if u == -1 {
			continue
		}
		require.Equal(t, v, mate[u], "mate is symmetric")
		x, ok := w[[2]int{min(u, v), max(u, v)}]
		require.True(t, ok, "matched along an edge %d-%d", v, u)
		if v < u {
			card++
			sum += x
		}
	}
	return card, sum
}

func TestMaxWeightMatchingAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 5000 {
		n := 1 + rng.IntN(10)
		density := rng.Float64()
		maxW := []int64{1, 3, 10, 1000, 1 << 40}[rng.IntN(5)]
		var edges []edge
		for u := range n {
			for v := u + 1; v < n; v++ {
				if rng.Float64() < density {
					edges = append(edges, edge{u, v, rng.Int64N(maxW + 1)})
				}
			}
		}
		rng.Shuffle(len(edges), func(a, b int) { edges[a], edges[b] = edges[b], edges[a] })
		mate := maxWeightMatching(n, edges)
		card, sum := checkMatching(t, n, edges, mate)
		wantCard, wantSum := bruteMatching(n, edges)
		if !assert.Equal(t, [2]int64{int64(wantCard), wantSum}, [2]int64{int64(card), sum}, "graph %d: %d vertices, edges %v", i, n, edges) {
			return
		}
	}
}

func TestMaxWeightMatchingSmall(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		edges []edge
		want  []int
	}{
		{"empty", 0, nil, []int{}},
		{"single edge", 2, []edge{{0, 1, 1}}, []int{1, 0}},
		{"cardinality before weight", 4, []edge{{0, 1, 1}, {1, 2, 10}, {2, 3, 1}}, []int{1, 0, 3, 2}},
		{"blossom", 6, []edge{{0, 1, 8}, {0, 2, 9}, {1, 2, 10}, {2, 3, 7}, {0, 5, 5}, {3, 4, 6}}, []int{5, 2, 1, 4, 3, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, maxWeightMatching(tt.n, tt.edges))
		})
	}
}
