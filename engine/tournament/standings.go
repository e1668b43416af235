package tournament

import (
	"cmp"
	"slices"
)

// Standing is one line of a tournament's standings.
type Standing struct {
	Rank   int    `json:"rank"` // shared by players tied on every criterion
	Player string `json:"player"`
	Points Points `json:"points"`
	// BuchholzCut1 is Buchholz without its lowest contribution.
	BuchholzCut1 Points `json:"buchholz_cut1"`
	// Buchholz is the sum over the rounds of the opponent's points; a
	// round without an opponent counts the player's own points.
	Buchholz Points `json:"buchholz"`
	// SonnebornBerger is the sum over the rounds played of the opponent's
	// points times the share of the round the player won (1, ½ or 0; with
	// duplicate rounds the round score over 2).
	SonnebornBerger float64 `json:"sonneborn_berger"`
	// DirectEncounter is the player's points in the games among the
	// players tied with them on everything above, when all of those met;
	// otherwise 0 for all of them.
	DirectEncounter Points `json:"direct_encounter"`
	Rating          int    `json:"rating"`
	Withdrawn       bool   `json:"withdrawn,omitempty"`
}

// Standings ranks the players, withdrawn ones included, on the rounds
// completed so far (Completed; the round being played counts once it is
// complete, its bye too): points, then Buchholz Cut-1, Buchholz,
// Sonneborn–Berger and direct encounter (see the package documentation);
// players still tied share a rank and are listed by rating, then by the
// order they joined.
func (t *Tournament) Standings() []Standing {
	idx := make(map[string]int, len(t.s.Players))
	out := make([]Standing, len(t.s.Players))
	for i, p := range t.s.Players {
		idx[p.ID] = i
		out[i] = Standing{Player: p.ID, Rating: p.Rating, Withdrawn: p.Withdrawn}
	}
	rounds := t.s.Rounds[:t.Completed()] // rounds complete in order
	// opponent[i][r] is player i's opponent in round r, -1 without one.
	opponent := make([][]int, len(out))
	won := make([][]Points, len(out)) // the round's points against that opponent
	for i := range out {
		opponent[i] = make([]int, len(rounds))
		won[i] = make([]Points, len(rounds))
	}
	roundPoints := t.s.Settings.roundPoints()
	for r, round := range rounds {
		for i := range out {
			opponent[i][r] = -1
		}
		if i, ok := idx[round.Bye]; ok {
			out[i].Points += roundPoints
		}
		for _, p := range round.Pairings {
			a, b := idx[p.First], idx[p.Second]
			opponent[a][r], opponent[b][r] = b, a
			won[a][r], won[b][r] = p.Points(p.First), p.Points(p.Second)
			out[a].Points += won[a][r]
			out[b].Points += won[b][r]
		}
	}
	for i := range out {
		lowest := Points(-1)
		for r, o := range opponent[i] {
			c := out[i].Points
			if o >= 0 {
				c = out[o].Points
				out[i].SonnebornBerger += out[o].Points.Float() * float64(won[i][r]) / float64(roundPoints)
			}
			out[i].Buchholz += c
			if lowest < 0 || c < lowest {
				lowest = c
			}
		}
		out[i].BuchholzCut1 = out[i].Buchholz - max(lowest, 0)
	}
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	before := func(a, b int) int { // better first
		x, y := out[a], out[b]
		return cmp.Or(cmp.Compare(y.Points, x.Points), cmp.Compare(y.BuchholzCut1, x.BuchholzCut1),
			cmp.Compare(y.Buchholz, x.Buchholz), cmp.Compare(y.SonnebornBerger, x.SonnebornBerger))
	}
	slices.SortStableFunc(order, before)
	for start := 0; start < len(order); {
		end := start + 1
		for end < len(order) && before(order[start], order[end]) == 0 {
			end++
		}
		directEncounter(out, order[start:end], opponent, won)
		start = end
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(before(a, b), cmp.Compare(out[b].DirectEncounter, out[a].DirectEncounter),
			cmp.Compare(out[b].Rating, out[a].Rating), cmp.Compare(a, b))
	})
	ranked := make([]Standing, len(out))
	for k, i := range order {
		ranked[k] = out[i]
		ranked[k].Rank = k + 1
		if k > 0 && before(order[k-1], i) == 0 && out[order[k-1]].DirectEncounter == out[i].DirectEncounter {
			ranked[k].Rank = ranked[k-1].Rank
		}
	}
	return ranked
}

// directEncounter sets the DirectEncounter of a group of tied players to
// their points against each other, when every two of them met.
func directEncounter(out []Standing, group []int, opponent [][]int, won [][]Points) {
	if len(group) < 2 {
		return
	}
	in := make(map[int]bool, len(group))
	for _, i := range group {
		in[i] = true
	}
	points := make(map[int]Points, len(group))
	for _, i := range group {
		met := make(map[int]bool)
		for r, o := range opponent[i] {
			if in[o] {
				met[o] = true
				points[i] += won[i][r]
			}
		}
		if len(met) < len(group)-1 {
			return
		}
	}
	for _, i := range group {
		out[i].DirectEncounter = points[i]
	}
}

// Placing is a place on a tournament's podium.
type Placing struct {
	Place  int // 1, 2 or 3
	Player string
}

// Podium returns the places 1 to 3 of the standings rows (as Standings
// orders them): the players who did not withdraw, placed among
// themselves by their rank, so that a withdrawn player takes no medal
// and leaves theirs to the next. Players tied share a place, and the
// places they fill are skipped: two players second, then nobody third.
func Podium(rows []Standing) []Placing {
	var out []Placing
	better, last := 0, Standing{Rank: -1} // players placed before, and the last one placed
	for _, s := range rows {
		if s.Withdrawn {
			continue
		}
		place := better + 1
		if len(out) > 0 && s.Rank == last.Rank {
			place = out[len(out)-1].Place
		}
		better++
		last = s
		if place > 3 {
			break
		}
		out = append(out, Placing{Place: place, Player: s.Player})
	}
	return out
}
