package tournament

import (
	"cmp"
	"slices"
)

// entrant is an active player as the pairing sees them.
type entrant struct {
	id        string
	rating    int
	order     int // join order, the last tie-break
	score     Points
	opponents map[string]bool
	hadBye    bool
	// The first moves so far: the number of games ending the history in
	// which the player moved first in a row, firsts minus seconds, and
	// whether they moved first in their last game (played: they have one).
	run, balance int
	last, played bool
}

// moved adds a game to e's first moves.
func (e *entrant) moved(first bool) {
	if first {
		e.run++
		e.balance++
	} else {
		e.run = 0
		e.balance--
	}
	e.last, e.played = first, true
}

// breaks reports whether playing the given number of games, moving first
// in the first one and alternating, makes e move first three times in a
// row or puts e's firsts and seconds more than 2 apart.
func (e entrant) breaks(first bool, games int) bool {
	for g := range games {
		e.moved(first == (g%2 == 0))
		if e.run >= 3 {
			return true
		}
	}
	return e.balance > 2 || e.balance < -2
}

// preference returns whether e would rather move first next: on the side
// they moved on less often or, when even, the side they did not move on
// last. A player with no game has none.
func (e *entrant) preference() (first, ok bool) {
	switch {
	case !e.played:
		return false, false
	case e.balance != 0:
		return e.balance < 0, true
	}
	return !e.last, true
}

// entrants returns the active players with their history.
func (t *Tournament) entrants() []entrant {
	byID := make(map[string]*entrant)
	var es []*entrant
	for i, p := range t.s.Players {
		e := &entrant{id: p.ID, rating: p.Rating, order: i, opponents: map[string]bool{}}
		byID[p.ID] = e
		if !p.Withdrawn {
			es = append(es, e)
		}
	}
	bye := t.s.Settings.roundPoints()
	for _, r := range t.s.Rounds {
		if e := byID[r.Bye]; e != nil {
			e.hadBye = true
			e.score += bye
		}
		for _, p := range r.Pairings {
			for _, id := range []string{p.First, p.Second} {
				e := byID[id]
				e.opponents[p.Opponent(id)] = true
				e.score += p.Points(id)
				for _, g := range p.Games {
					e.moved(g.First == id)
				}
			}
		}
	}
	out := make([]entrant, len(es))
	for i, e := range es {
		out[i] = *e
	}
	return out
}

// The pairing's criteria, from the most important. Each pair (and the bye,
// when the number of players is odd) gets a penalty on each level; the
// matching minimises them in this order, a level counting only when all
// the levels above it tie.
const (
	levelRepeat    = iota // a rematch, or a second bye
	levelFirstMove        // first-move limits broken (per player, 0–2)
	levelScore            // squared score difference, in half points
	levelColour           // first-move preferences not met (0–2)
	levelFold             // distance from the top-half-against-bottom-half pairing
	levels
)

// pair pairs the entrants for a round: maxScore is the most points anyone
// can have, which bounds the score level. It returns the pairs, each with
// the player moving first in the first game ahead, ordered from the top
// board, and the player given the bye ("" for an even number of players).
//
// Pairing is a maximum-weight matching among maximum-cardinality ones on
// the complete graph of the players, plus a bye vertex when their number
// is odd: every player is paired or gets the bye. Each edge weighs
// big − Σ penalty[level]·scale[level], the scales chosen so that no sum of
// lower-level penalties over a whole matching outweighs one unit of a
// higher level (see weights).
func pair(es []entrant, duplicate bool, maxScore Points) (pairs [][2]string, bye string) {
	slices.SortStableFunc(es, func(a, b entrant) int {
		return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(b.rating, a.rating), cmp.Compare(a.order, b.order))
	})
	n := len(es)
	groupStart, groupSize := make([]int, n), make([]int, n)
	for i := range es {
		if i > 0 && es[i].score == es[i-1].score {
			groupStart[i] = groupStart[i-1]
		} else {
			groupStart[i] = i
		}
	}
	for i := n - 1; i >= 0; i-- {
		if i < n-1 && es[i].score == es[i+1].score {
			groupSize[i] = groupSize[i+1]
		} else {
			groupSize[i] = i - groupStart[i] + 1
		}
	}
	games := 1
	if duplicate {
		games = 2
	}
	minScore := es[n-1].score
	vertices := n + n%2
	scale, big := weights(vertices, maxScore)
	weigh := func(pen [levels]int64) int64 {
		w := big
		for l, p := range pen {
			w -= p * scale[l]
		}
		return w
	}
	var edges []edge
	for i := range n {
		for j := i + 1; j < n; j++ {
			var pen [levels]int64
			a, b := &es[i], &es[j]
			if a.opponents[b.id] {
				pen[levelRepeat] = 1
			}
			_, broken, unmet := firstMoves(a, b, games, 0)
			pen[levelFirstMove], pen[levelColour] = int64(broken), int64(unmet)
			d := int64(a.score - b.score)
			pen[levelScore] = d * d
			if groupStart[i] == groupStart[j] {
				pen[levelFold] = abs(int64(j-i) - int64(groupSize[i]/2))
			} else { // a floats down from the bottom of its group, b up from the top of its own
				pen[levelFold] = int64(groupStart[i]+groupSize[i]-1-i) + int64(j-groupStart[j])
			}
			edges = append(edges, edge{i, j, weigh(pen)})
		}
		if n%2 == 1 {
			var pen [levels]int64
			if es[i].hadBye {
				pen[levelRepeat] = 1
			}
			d := int64(es[i].score-minScore) + 1
			pen[levelScore] = d * d
			pen[levelFold] = int64(n - 1 - i)
			edges = append(edges, edge{i, n, weigh(pen)})
		}
	}
	mate := maxWeightMatching(vertices, edges)
	// Pairs come out ordered by their better-placed player: the top board first.
	for i := range n {
		switch j := mate[i]; {
		case j == n:
			bye = es[i].id
		case j > i:
			p := [2]string{es[i].id, es[j].id}
			if aFirst, _, _ := firstMoves(&es[i], &es[j], games, len(pairs)); !aFirst {
				p = [2]string{p[1], p[0]}
			}
			pairs = append(pairs, p)
		}
	}
	return pairs, bye
}

// weights returns each level's scale and the weight big from which the
// penalties are taken, for a graph of the given number of vertices and a
// score difference of at most maxScore.
//
// A matching has at most k = vertices/2 edges. If one edge's penalties on
// the levels below l can reach cum, a whole matching's reach at most k·cum,
// so scale[l] = k·cum + 1 makes one unit on level l outweigh any
// combination below it. For 256 players, 15 duplicate rounds, big is about
// 2^50, well within int64 (the matching doubles weights).
func weights(vertices int, maxScore Points) (scale [levels]int64, big int64) {
	most := [levels]int64{
		levelRepeat:    1,
		levelFirstMove: 2,
		levelScore:     int64(maxScore+1) * int64(maxScore+1),
		levelColour:    2,
		levelFold:      int64(vertices),
	}
	k := int64(vertices/2 + 1)
	var cum int64
	for l := levels - 1; l >= 0; l-- {
		scale[l] = k*cum + 1
		cum += scale[l] * most[l]
	}
	return scale, cum + 1
}

// firstMoves decides who moves first in the first game of a pairing of a
// (the better placed) and b playing the given number of games (1, or 2
// with the first move swapped): the choice that breaks the fewest
// first-move limits, then meets the most preferences; on a tie the better
// placed player's preference, then b's, then a moves first on odd boards
// (counted from 0 here: board%2 == 0). It returns whether a moves first,
// and the limits broken and preferences unmet by that choice.
func firstMoves(a, b *entrant, games, board int) (aFirst bool, broken, unmet int) {
	cost := func(aFirst bool) (int, int) {
		broken, unmet := 0, 0
		for _, pl := range []struct {
			e     *entrant
			first bool
		}{{a, aFirst}, {b, !aFirst}} {
			if pl.e.breaks(pl.first, games) {
				broken++
			}
			if p, ok := pl.e.preference(); ok && p != pl.first {
				unmet++
			}
		}
		return broken, unmet
	}
	b1, u1 := cost(true)
	b2, u2 := cost(false)
	switch {
	case b1 < b2, b1 == b2 && u1 < u2:
		return true, b1, u1
	case b1 > b2, u1 > u2:
		return false, b2, u2
	}
	if p, ok := a.preference(); ok {
		return p, b1, u1
	}
	if p, ok := b.preference(); ok {
		return !p, b1, u1
	}
	return board%2 == 0, b1, u1
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
