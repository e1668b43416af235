package ai

import (
	"math"

	"github.com/kulami/kulami/engine"
)

// node is a position in a search tree, reached by move from its parent.
// Rewards are summed from the view of the colour that played move: 1 for a
// win, ½ for a draw, 0 for a loss, mixed with the margin if
// params.marginWeight is set.
type node struct {
	visits     uint32
	amafVisits uint32  // playouts in which move was played later by the same colour
	reward     float32 // summed over visits
	amafReward float32 // summed over amafVisits
	child      int32   // index of the first child; 0 before expansion
	children   uint8
	move       engine.Hole
}

// tree is one worker's search tree with what it needs to grow it. It is
// not safe for concurrent use; root parallelism gives each worker its own.
type tree struct {
	nodes  []node // nodes[0] is the root
	root   engine.Position
	scorer *engine.Scorer
	rules  engine.Rules
	rand   engine.Rand
	path   []int32
	// wins sums the results (1, ½, 0) of this search's games through each
	// child of the root, in the order of rootChildren, for the player to
	// move, and runs counts those games: a reused tree's visits are older.
	wins [engine.NumHoles]float32
	runs [engine.NumHoles]uint32
	// kept and below are reroot's bit set of the nodes it keeps and the
	// count of kept nodes before each word of it.
	kept  []uint64
	below []int32
	stack []int32
	// panels holds the holes of each hole's panel, for playout.
	panels [engine.NumHoles]uint64
	params
}

// params are the settings of Config that shape a tree.
type params struct {
	exploration  float64
	raveBias     float64 // 0 turns RAVE off
	expandAt     uint32
	maxNodes     int
	marginWeight float32 // 0 rewards wins alone
	greed        uint64  // the chance, in 1/2⁶⁴, that a playout move is chosen by its panel gain
}

// prepare readies t to search pos: with reuse, on the subtree for pos of
// the tree it grew last if it has one (see reroot), otherwise on a fresh
// tree. It keeps the memory of old nodes.
func (t *tree) prepare(pos engine.Position, scorer *engine.Scorer, rules engine.Rules, seed uint64, p params, reuse bool) {
	if !reuse || !t.reroot(pos, rules) {
		t.nodes = append(t.nodes[:0], node{move: engine.NoHole})
		t.expand(0, pos.Legal())
	}
	if t.scorer == nil || t.scorer.Layout() != pos.Layout() {
		t.panels = panelMasks(pos.Layout())
	}
	t.root, t.scorer, t.rules, t.rand, t.params = pos, scorer, rules, engine.NewRand(seed), p
	t.wins, t.runs = [engine.NumHoles]float32{}, [engine.NumHoles]uint32{}
}

// expand gives node i one child per legal hole.
func (t *tree) expand(i int32, legal engine.Holes) {
	t.nodes[i].child = int32(len(t.nodes))
	t.nodes[i].children = uint8(legal.Len())
	for h := range legal.All() {
		t.nodes = append(t.nodes, node{move: h})
	}
}

// iterate runs one iteration of Monte Carlo tree search: select a path
// down the tree, grow it by one node, play the game out at random and
// count the result along the path.
func (t *tree) iterate() {
	p := t.root
	path := append(t.path[:0], 0)
	cur := int32(0)
	for t.nodes[cur].children > 0 {
		cur = t.pick(cur)
		p.Apply(t.nodes[cur].move)
		path = append(path, cur)
	}
	if n := &t.nodes[cur]; n.visits+1 >= t.expandAt && len(t.nodes) < t.maxNodes {
		if legal := p.Legal(); legal != 0 {
			t.expand(cur, legal)
			cur = t.pick(cur)
			p.Apply(t.nodes[cur].move)
			path = append(path, cur)
		}
	}
	t.playout(&p)
	t.path = path

	// result[c] is colour c's result, reward[c] its reward.
	var result [2]float32
	m := t.scorer.Margin(&p, t.rules)
	switch {
	case m > 0:
		result[engine.Red] = 1
	case m < 0:
		result[engine.Black] = 1
	default:
		result = [2]float32{0.5, 0.5}
	}
	toMove := t.root.ToMove()
	t.wins[path[1]-t.nodes[0].child] += result[toMove]
	t.runs[path[1]-t.nodes[0].child]++
	reward := result
	if w := t.marginWeight; w > 0 {
		share := 0.5 + float32(max(-marginScale, min(marginScale, m)))/(2*marginScale)
		reward[engine.Red] = (1-w)*result[engine.Red] + w*share
		reward[engine.Black] = (1-w)*result[engine.Black] + w*(1-share)
	}
	for _, i := range path {
		n := &t.nodes[i]
		n.visits++
		n.reward += reward[toMove.Other()] // the colour that played n.move
		if t.raveBias > 0 && n.children > 0 {
			// Every child move the colour to move played later in this
			// game gets the game's result as its AMAF sample.
			played := p.Stones(toMove)
			for c := n.child; c < n.child+int32(n.children); c++ {
				if played&(1<<t.nodes[c].move) != 0 {
					t.nodes[c].amafVisits++
					t.nodes[c].amafReward += reward[toMove]
				}
			}
		}
		toMove = toMove.Other()
	}
}

// pick returns the child of node i to search next: an unvisited child
// first (the one with the best AMAF value), otherwise the one with the
// highest upper confidence bound on a value that blends the child's own
// mean with its AMAF mean as in Gelly and Silver's RAVE, the AMAF share
// falling as the child's own visits grow.
func (t *tree) pick(i int32) int32 {
	n := &t.nodes[i]
	logN := math.Log(float64(n.visits))
	best, bestV := n.child, math.Inf(-1)
	for c := n.child; c < n.child+int32(n.children); c++ {
		ch := &t.nodes[c]
		var v float64
		if ch.visits == 0 {
			v = 1e9
			if ch.amafVisits > 0 {
				v += float64(ch.amafReward) / float64(ch.amafVisits)
			}
		} else {
			nv := float64(ch.visits)
			v = float64(ch.reward) / nv
			if t.raveBias > 0 && ch.amafVisits > 0 {
				na := float64(ch.amafVisits)
				beta := na / (nv + na + t.raveBias*nv*na)
				v = (1-beta)*v + beta*float64(ch.amafReward)/na
			}
			v += t.exploration * math.Sqrt(logN/nv)
		}
		if v > bestV {
			best, bestV = c, v
		}
	}
	return best
}

// rootChildren returns the children of the root.
func (t *tree) rootChildren() []node {
	r := &t.nodes[0]
	return t.nodes[r.child : r.child+int32(r.children)]
}
