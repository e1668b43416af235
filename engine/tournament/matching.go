package tournament

import "slices"

// edge is an undirected edge of a matching problem with an integer weight.
type edge struct {
	u, v int
	w    int64
}

// maxWeightMatching returns a maximum-weight matching among those of
// maximum cardinality of the graph with n vertices and the given edges: the
// mate of each vertex, or -1 when it is left unmatched. Weights are
// integers below 2^60; there is at most one edge between two vertices and
// none from a vertex to itself.
//
// It is Edmonds' blossom algorithm in the primal–dual form of Galil
// ("Efficient algorithms for finding maximum matching in graphs", ACM
// Computing Surveys 18(1), 1986), O(n³), with the data layout Joris van
// Rantwijk describes for his implementation (jorisvr.nl, "Maximum
// weighted matching"): vertices 0..n-1, non-trivial blossoms n..2n-1, each
// edge k seen from its two endpoints 2k and 2k+1. Dual variables are kept
// doubled so that integer weights need integer arithmetic only.
func maxWeightMatching(n int, edges []edge) []int {
	m := &matcher{n: n, edges: edges}
	return m.solve()
}

// matcher is the state of one run of maxWeightMatching.
type matcher struct {
	n     int
	edges []edge

	endpoint  []int   // endpoint[p]: the vertex at end p of edge p/2
	neighbend [][]int // neighbend[v]: the remote endpoints of v's edges
	mate      []int   // mate[v]: the remote endpoint of v's matched edge, or -1
	// label[b]: 0 free, 1 S (outer), 2 T (inner), 5 S being scanned; for
	// vertices and top-level blossoms.
	label           []int
	labelend        []int // the endpoint through which b got its label, or -1
	inblossom       []int // the top-level blossom holding vertex v
	blossomparent   []int
	blossomchilds   [][]int
	blossombase     []int
	blossomendps    [][]int
	bestedge        []int   // least-slack edge to a different S-blossom, or -1
	blossombestedge [][]int // least-slack edges of an S-blossom to other S-blossoms
	unused          []int   // unused blossom numbers
	dual            []int64
	allowedge       []bool
	queue           []int
}

func (m *matcher) slack(k int) int64 {
	e := m.edges[k]
	return m.dual[e.u] + m.dual[e.v] - 2*e.w
}

// leaves appends the vertices inside blossom b to dst.
func (m *matcher) leaves(dst []int, b int) []int {
	if b < m.n {
		return append(dst, b)
	}
	for _, t := range m.blossomchilds[b] {
		dst = m.leaves(dst, t)
	}
	return dst
}

func (m *matcher) assignLabel(w, t, p int) {
	b := m.inblossom[w]
	m.label[w], m.label[b] = t, t
	m.labelend[w], m.labelend[b] = p, p
	m.bestedge[w], m.bestedge[b] = -1, -1
	if t == 1 {
		m.queue = m.leaves(m.queue, b)
		return
	}
	base := m.blossombase[b]
	m.assignLabel(m.endpoint[m.mate[base]], 1, m.mate[base]^1)
}

// scanBlossom traces back from v and w to find either a new blossom's base
// or, returning -1, an augmenting path.
func (m *matcher) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := m.inblossom[v]
		if m.label[b]&4 != 0 {
			base = m.blossombase[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelend[b] == -1 {
			v = -1
		} else {
			v = m.endpoint[m.labelend[b]]
			b = m.inblossom[v]
			v = m.endpoint[m.labelend[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	return base
}

// addBlossom makes a new blossom with the given base through the S-S
// edge k.
func (m *matcher) addBlossom(base, k int) {
	v, w := m.edges[k].u, m.edges[k].v
	bb, bv, bw := m.inblossom[base], m.inblossom[v], m.inblossom[w]
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.blossombase[b] = base
	m.blossomparent[b] = -1
	m.blossomparent[bb] = b
	var path, endps []int
	for bv != bb {
		m.blossomparent[bv] = b
		path = append(path, bv)
		endps = append(endps, m.labelend[bv])
		v = m.endpoint[m.labelend[bv]]
		bv = m.inblossom[v]
	}
	path = append(path, bb)
	slices.Reverse(path)
	slices.Reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		m.blossomparent[bw] = b
		path = append(path, bw)
		endps = append(endps, m.labelend[bw]^1)
		w = m.endpoint[m.labelend[bw]]
		bw = m.inblossom[w]
	}
	m.blossomchilds[b] = path
	m.blossomendps[b] = endps
	m.label[b] = 1
	m.labelend[b] = m.labelend[bb]
	m.dual[b] = 0
	for _, v := range m.leaves(nil, b) {
		if m.label[m.inblossom[v]] == 2 {
			m.queue = append(m.queue, v)
		}
		m.inblossom[v] = b
	}
	bestedgeto := make([]int, 2*m.n)
	for i := range bestedgeto {
		bestedgeto[i] = -1
	}
	for _, bv := range path {
		var lists [][]int
		if m.blossombestedge[bv] == nil {
			for _, v := range m.leaves(nil, bv) {
				ks := make([]int, len(m.neighbend[v]))
				for i, p := range m.neighbend[v] {
					ks[i] = p / 2
				}
				lists = append(lists, ks)
			}
		} else {
			lists = [][]int{m.blossombestedge[bv]}
		}
		for _, list := range lists {
			for _, k := range list {
				j := m.edges[k].v // the end outside b, if either is
				if m.inblossom[j] == b {
					j = m.edges[k].u
				}
				bj := m.inblossom[j]
				if bj != b && m.label[bj] == 1 && (bestedgeto[bj] == -1 || m.slack(k) < m.slack(bestedgeto[bj])) {
					bestedgeto[bj] = k
				}
			}
		}
		m.blossombestedge[bv] = nil
		m.bestedge[bv] = -1
	}
	best := []int{}
	for _, k := range bestedgeto {
		if k != -1 {
			best = append(best, k)
		}
	}
	m.blossombestedge[b] = best
	m.bestedge[b] = -1
	for _, k := range best {
		if m.bestedge[b] == -1 || m.slack(k) < m.slack(m.bestedge[b]) {
			m.bestedge[b] = k
		}
	}
}

// expandBlossom dissolves blossom b, relabelling its children when it is a
// T-blossom expanded during a stage.
func (m *matcher) expandBlossom(b int, endstage bool) {
	for _, s := range m.blossomchilds[b] {
		m.blossomparent[s] = -1
		switch {
		case s < m.n:
			m.inblossom[s] = s
		case endstage && m.dual[s] == 0:
			m.expandBlossom(s, endstage)
		default:
			for _, v := range m.leaves(nil, s) {
				m.inblossom[v] = s
			}
		}
	}
	if !endstage && m.label[b] == 2 {
		childs, endps := m.blossomchilds[b], m.blossomendps[b]
		at := func(j int) int { return (j%len(childs) + len(childs)) % len(childs) }
		entrychild := m.inblossom[m.endpoint[m.labelend[b]^1]]
		j := slices.Index(childs, entrychild)
		var jstep, endptrick int
		if j&1 != 0 {
			j -= len(childs)
			jstep, endptrick = 1, 0
		} else {
			jstep, endptrick = -1, 1
		}
		p := m.labelend[b]
		for j != 0 {
			m.label[m.endpoint[p^1]] = 0
			m.label[m.endpoint[endps[at(j-endptrick)]^endptrick^1]] = 0
			m.assignLabel(m.endpoint[p^1], 2, p)
			m.allowedge[endps[at(j-endptrick)]/2] = true
			j += jstep
			p = endps[at(j-endptrick)] ^ endptrick
			m.allowedge[p/2] = true
			j += jstep
		}
		bv := childs[at(j)]
		m.label[m.endpoint[p^1]], m.label[bv] = 2, 2
		m.labelend[m.endpoint[p^1]], m.labelend[bv] = p, p
		m.bestedge[bv] = -1
		j += jstep
		for childs[at(j)] != entrychild {
			bv := childs[at(j)]
			if m.label[bv] == 1 {
				j += jstep
				continue
			}
			v := -1
			for _, x := range m.leaves(nil, bv) {
				if m.label[x] != 0 {
					v = x
					break
				}
			}
			if v != -1 {
				m.label[v] = 0
				m.label[m.endpoint[m.mate[m.blossombase[bv]]]] = 0
				m.assignLabel(v, 2, m.labelend[v])
			}
			j += jstep
		}
	}
	m.label[b], m.labelend[b] = -1, -1
	m.blossomchilds[b], m.blossomendps[b] = nil, nil
	m.blossombase[b] = -1
	m.blossombestedge[b] = nil
	m.bestedge[b] = -1
	m.unused = append(m.unused, b)
}

// augmentBlossom swaps matched and unmatched edges inside blossom b along
// the path from vertex v to the base, making v the new base.
func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.blossomparent[t] != b {
		t = m.blossomparent[t]
	}
	if t >= m.n {
		m.augmentBlossom(t, v)
	}
	childs, endps := m.blossomchilds[b], m.blossomendps[b]
	at := func(j int) int { return (j%len(childs) + len(childs)) % len(childs) }
	i := slices.Index(childs, t)
	j := i
	var jstep, endptrick int
	if i&1 != 0 {
		j -= len(childs)
		jstep, endptrick = 1, 0
	} else {
		jstep, endptrick = -1, 1
	}
	for j != 0 {
		j += jstep
		t = childs[at(j)]
		p := endps[at(j-endptrick)] ^ endptrick
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p])
		}
		j += jstep
		t = childs[at(j)]
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p^1])
		}
		m.mate[m.endpoint[p]] = p ^ 1
		m.mate[m.endpoint[p^1]] = p
	}
	m.blossomchilds[b] = append(slices.Clone(childs[i:]), childs[:i]...)
	m.blossomendps[b] = append(slices.Clone(endps[i:]), endps[:i]...)
	m.blossombase[b] = m.blossombase[m.blossomchilds[b][0]]
}

// augmentMatching flips the augmenting path through edge k.
func (m *matcher) augmentMatching(k int) {
	v, w := m.edges[k].u, m.edges[k].v
	for _, sp := range [2][2]int{{v, 2*k + 1}, {w, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inblossom[s]
			if bs >= m.n {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelend[bs] == -1 {
				break
			}
			t := m.endpoint[m.labelend[bs]]
			bt := m.inblossom[t]
			s = m.endpoint[m.labelend[bt]]
			j := m.endpoint[m.labelend[bt]^1]
			if bt >= m.n {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelend[bt]
			p = m.labelend[bt] ^ 1
		}
	}
}

func (m *matcher) init() {
	n := m.n
	var maxw int64
	for _, e := range m.edges {
		maxw = max(maxw, e.w)
	}
	m.endpoint = make([]int, 2*len(m.edges))
	m.neighbend = make([][]int, n)
	for k, e := range m.edges {
		m.endpoint[2*k], m.endpoint[2*k+1] = e.u, e.v
		m.neighbend[e.u] = append(m.neighbend[e.u], 2*k+1)
		m.neighbend[e.v] = append(m.neighbend[e.v], 2*k)
	}
	fill := func(n, x int) []int {
		s := make([]int, n)
		for i := range s {
			s[i] = x
		}
		return s
	}
	m.mate = fill(n, -1)
	m.label = make([]int, 2*n)
	m.labelend = fill(2*n, -1)
	m.inblossom = make([]int, n)
	m.blossombase = fill(2*n, -1)
	for v := range n {
		m.inblossom[v] = v
		m.blossombase[v] = v
	}
	m.blossomparent = fill(2*n, -1)
	m.blossomchilds = make([][]int, 2*n)
	m.blossomendps = make([][]int, 2*n)
	m.bestedge = fill(2*n, -1)
	m.blossombestedge = make([][]int, 2*n)
	for b := 2*n - 1; b >= n; b-- {
		m.unused = append(m.unused, b)
	}
	m.dual = make([]int64, 2*n)
	for v := range n {
		m.dual[v] = maxw
	}
	m.allowedge = make([]bool, len(m.edges))
}

func (m *matcher) solve() []int {
	m.init()
	n := m.n
	for range n {
		// A stage: look for one augmenting path.
		clear(m.label)
		for i := range m.bestedge {
			m.bestedge[i] = -1
		}
		for b := n; b < 2*n; b++ {
			m.blossombestedge[b] = nil
		}
		clear(m.allowedge)
		m.queue = m.queue[:0]
		for v := range n {
			if m.mate[v] == -1 && m.label[m.inblossom[v]] == 0 {
				m.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(m.queue) > 0 && !augmented {
				v := m.queue[len(m.queue)-1]
				m.queue = m.queue[:len(m.queue)-1]
				dv := m.dual[v] // duals change only between scans
				for _, p := range m.neighbend[v] {
					k := p / 2
					w := m.endpoint[p]
					if m.inblossom[v] == m.inblossom[w] { // v's blossom may grow during the scan
						continue
					}
					var kslack int64
					if !m.allowedge[k] {
						kslack = dv + m.dual[w] - 2*m.edges[k].w
						if kslack <= 0 {
							m.allowedge[k] = true
						}
					}
					switch {
					case m.allowedge[k]:
						switch {
						case m.label[m.inblossom[w]] == 0:
							m.assignLabel(w, 2, p^1)
						case m.label[m.inblossom[w]] == 1:
							if base := m.scanBlossom(v, w); base >= 0 {
								m.addBlossom(base, k)
							} else {
								m.augmentMatching(k)
								augmented = true
							}
						case m.label[w] == 0:
							m.label[w] = 2
							m.labelend[w] = p ^ 1
						}
					case m.label[m.inblossom[w]] == 1:
						b := m.inblossom[v]
						if m.bestedge[b] == -1 || kslack < m.slack(m.bestedge[b]) {
							m.bestedge[b] = k
						}
					case m.label[w] == 0:
						if m.bestedge[w] == -1 || kslack < m.slack(m.bestedge[w]) {
							m.bestedge[w] = k
						}
					}
					if augmented {
						break
					}
				}
			}
			if augmented {
				break
			}
			// No augmenting path with the current duals: change them.
			deltatype := -1
			var delta int64
			deltaedge, deltablossom := -1, -1
			for v := range n {
				if m.label[m.inblossom[v]] == 0 && m.bestedge[v] != -1 {
					if d := m.slack(m.bestedge[v]); deltatype == -1 || d < delta {
						delta, deltatype, deltaedge = d, 2, m.bestedge[v]
					}
				}
			}
			for b := range 2 * n {
				if m.blossomparent[b] == -1 && m.label[b] == 1 && m.bestedge[b] != -1 {
					if d := m.slack(m.bestedge[b]) / 2; deltatype == -1 || d < delta {
						delta, deltatype, deltaedge = d, 3, m.bestedge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if m.blossombase[b] >= 0 && m.blossomparent[b] == -1 && m.label[b] == 2 &&
					(deltatype == -1 || m.dual[b] < delta) {
					delta, deltatype, deltablossom = m.dual[b], 4, b
				}
			}
			if deltatype == -1 {
				// No further progress possible: maximum cardinality reached.
				deltatype = 1
				delta = max(0, slices.Min(m.dual[:n]))
			}
			for v := range n {
				switch m.label[m.inblossom[v]] {
				case 1:
					m.dual[v] -= delta
				case 2:
					m.dual[v] += delta
				}
			}
			for b := n; b < 2*n; b++ {
				if m.blossombase[b] >= 0 && m.blossomparent[b] == -1 {
					switch m.label[b] {
					case 1:
						m.dual[b] += delta
					case 2:
						m.dual[b] -= delta
					}
				}
			}
			if deltatype == 1 {
				break
			}
			switch deltatype {
			case 2:
				m.allowedge[deltaedge] = true
				i := m.edges[deltaedge].u // the end in an S-blossom
				if m.label[m.inblossom[i]] == 0 {
					i = m.edges[deltaedge].v
				}
				m.queue = append(m.queue, i)
			case 3:
				m.allowedge[deltaedge] = true
				m.queue = append(m.queue, m.edges[deltaedge].u)
			case 4:
				m.expandBlossom(deltablossom, false)
			}
		}
		if !augmented {
			break
		}
		for b := n; b < 2*n; b++ {
			if m.blossomparent[b] == -1 && m.blossombase[b] >= 0 && m.label[b] == 1 && m.dual[b] == 0 {
				m.expandBlossom(b, true)
			}
		}
	}
	for v := range n {
		if m.mate[v] >= 0 {
			m.mate[v] = m.endpoint[m.mate[v]]
		}
	}
	return m.mate
}
