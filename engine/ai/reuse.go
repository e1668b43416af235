package ai

import (
	"context"
	"math/bits"
	"sync"

	"github.com/kulami/kulami/engine"
)

// Searcher is a Config that keeps its search trees from one move to the
// next: when it is asked for a move in a position that follows the one it
// searched last by at most two moves (its own and the opponent's reply),
// each worker searches on from the subtree of those moves instead of from
// nothing. A position of another game, or one the tree does not reach,
// starts a fresh tree. A Searcher holds its trees (up to Config.MaxNodes
// nodes a worker) until it is dropped, so keep one per game being played,
// and few of them.
//
// A Searcher is safe for concurrent use, but searches one position at a
// time. Its zero value searches nothing; set Config.
type Searcher struct {
	Config
	mu    sync.Mutex
	trees []*tree
}

// NewSearcher returns a Searcher with the settings of c.
func NewSearcher(c Config) *Searcher { return &Searcher{Config: c} }

// Move is Config.Move, searching on from the last search's tree where pos
// follows it.
func (s *Searcher) Move(ctx context.Context, pos engine.Position, rules engine.Rules) (Move, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.Config.move(ctx, pos, rules, &s.trees)
}

// reroot makes the subtree of pos the whole tree, if pos is the position
// t searched last or follows it by one or two moves that the tree has
// expanded, under the same rules; it reports whether it did.
func (t *tree) reroot(pos engine.Position, rules engine.Rules) bool {
	if len(t.nodes) == 0 || t.rules != rules || t.root.First() != pos.First() ||
		!t.root.Layout().Equal(pos.Layout()) {
		return false
	}
	d := pos.Ply() - t.root.Ply()
	if d < 0 || d > 2 {
		return false
	}
	last, prev := pos.Last()
	p, cur := t.root, int32(0)
	moves := [2]engine.Hole{prev, last}
	for _, h := range moves[2-d:] {
		if !p.Legal().Has(h) {
			return false
		}
		p.Apply(h)
		cur = t.childWith(cur, h)
		if cur < 0 {
			return false
		}
	}
	pl, pp := p.Last()
	if p.Stones(engine.Red) != pos.Stones(engine.Red) || p.Stones(engine.Black) != pos.Stones(engine.Black) ||
		pl != last || pp != prev || t.nodes[cur].children == 0 {
		return false
	}
	t.compact(cur)
	return true
}

// childWith returns the child of node i reached by move h, -1 if none.
func (t *tree) childWith(i int32, h engine.Hole) int32 {
	n := &t.nodes[i]
	for c := n.child; c < n.child+int32(n.children); c++ {
		if t.nodes[c].move == h {
			return c
		}
	}
	return -1
}

// compact keeps only the subtree of node r, r becoming the root. A node's
// children come after it in t.nodes, so the kept nodes are moved down in
// their order, each to its rank among them, which never overwrites a
// kept node not yet moved.
func (t *tree) compact(r int32) {
	words := (len(t.nodes) + 63) / 64
	t.kept = append(t.kept[:0], make([]uint64, words)...)
	mark := func(i int32) { t.kept[i/64] |= 1 << (i % 64) }
	mark(r)
	t.stack = append(t.stack[:0], r)
	for len(t.stack) > 0 {
		n := &t.nodes[t.stack[len(t.stack)-1]]
		t.stack = t.stack[:len(t.stack)-1]
		for c := n.child; c < n.child+int32(n.children); c++ {
			mark(c)
			if t.nodes[c].children > 0 {
				t.stack = append(t.stack, c)
			}
		}
	}
	t.below = t.below[:0]
	total := int32(0)
	for _, w := range t.kept {
		t.below = append(t.below, total)
		total += int32(bits.OnesCount64(w))
	}
	rank := func(i int32) int32 {
		return t.below[i/64] + int32(bits.OnesCount64(t.kept[i/64]&(1<<(i%64)-1)))
	}
	next := 0
	for w, word := range t.kept {
		for ; word != 0; word &= word - 1 {
			n := t.nodes[w*64+bits.TrailingZeros64(word)]
			if n.children > 0 {
				n.child = rank(n.child)
			}
			t.nodes[next] = n
			next++
		}
	}
	t.nodes = t.nodes[:total]
	t.nodes[0].move = engine.NoHole
}

// Searchers keeps the Searcher of each of the last few games it was asked
// for, so that a server playing many games at once reuses each game's
// trees between its moves while holding the trees of few games: each
// Searcher holds up to Config.MaxNodes nodes a worker (48 MiB by
// default). Its zero value keeps two games; it is safe for concurrent
// use.
type Searchers struct {
	// Games is how many games' searchers are kept; 0 means 2.
	Games  int
	mu     sync.Mutex
	recent []gameSearcher // the least recently asked for first
}

// gameSearcher is the Searcher of one game.
type gameSearcher struct {
	game uint64
	s    *Searcher
}

// For returns the Searcher of the game with the ID game, with the
// settings c: the one returned last time for game if its settings were c,
// otherwise a new one, which takes the place of the game asked for least
// recently when Games are kept.
func (ss *Searchers) For(game uint64, c Config) *Searcher {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for i, g := range ss.recent {
		if g.game == game {
			ss.recent = append(ss.recent[:i], ss.recent[i+1:]...)
			if g.s.Config != c {
				g.s = NewSearcher(c)
			}
			ss.recent = append(ss.recent, g)
			return g.s
		}
	}
	keep := ss.Games
	if keep <= 0 {
		keep = 2
	}
	if len(ss.recent) >= keep {
		ss.recent = append(ss.recent[:0], ss.recent[len(ss.recent)-keep+1:]...)
	}
	g := gameSearcher{game: game, s: NewSearcher(c)}
	ss.recent = append(ss.recent, g)
	return g.s
}
