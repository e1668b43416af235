package tournament

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var t0 = time.Date(2026, 1, 5, 18, 0, 0, 0, time.UTC)

// randomTournament plays a random tournament to its end, checking each
// round's pairing as it is made.
func randomTournament(t testing.TB, rng *rand.Rand) *Tournament {
	t.Helper()
	n := 3 + rng.IntN(62)
	set := Settings{
		Name:         "random",
		Rounds:       1 + rng.IntN(min(11, MostRounds(n))),
		DaysPerRound: 1 + rng.IntN(30),
		Duplicate:    rng.IntN(3) == 0,
		Start:        t0.Add(time.Hour),
	}
	tour, err := New(set, "p0", t0)
	require.NoError(t, err)
	next := 0
	join := func(now time.Time) {
		require.NoError(t, tour.Join(fmt.Sprintf("p%d", next), 1000+rng.IntN(1500), now))
		next++
	}
	for range n {
		join(t0)
	}
	now := set.Start
	require.NoError(t, tour.Start(now))
	for {
		checkRound(t, tour)
		_, k := tour.State()
		round := tour.Rounds()[k-1]
		for _, p := range round.Pairings {
			for g := range p.Games {
				ref := GameRef{Round: k, Board: p.Board, Game: g + 1}
				now = now.Add(time.Duration(rng.IntN(3600)) * time.Second)
				switch x := rng.IntN(100); {
				case x < 3:
					game, err := tour.Game(ref)
					require.NoError(t, err)
					id := []string{game.First, game.Second}[rng.IntN(2)]
					require.NoError(t, tour.Forfeit(ref, id, now))
					if tour.Comeback(id, now) == ComebackThisRound && rng.IntN(2) == 0 {
						require.NoError(t, tour.Join(id, 1500, now))
					}
				case x < 10:
					require.NoError(t, tour.Adjudicate(ref, Result(1+rng.IntN(3)), "hard evaluation", now))
				default:
					require.NoError(t, tour.Record(ref, Result(1+rng.IntN(3)), now))
				}
			}
		}
		phase, _ := tour.State()
		if phase == Finished {
			return tour
		}
		require.Equal(t, Between, phase)
		for _, p := range tour.Players() {
			switch {
			case p.Withdrawn && p.NoShow && p.WithdrawnAt == k && !tour.lateJoinOpen():
				require.ErrorIs(t, tour.Join(p.ID, p.Rating, now), ErrRejoinClosed, "the round of the forfeit is complete")
			case !p.Withdrawn && rng.IntN(40) == 0:
				require.NoError(t, tour.Withdraw(p.ID))
			}
		}
		if tour.lateJoinOpen() && tour.Active()+3 < MaxPlayersLimit {
			for range rng.IntN(3) {
				join(now)
			}
		}
		require.NoError(t, tour.PairNext(now))
		if phase, _ := tour.State(); phase == Finished {
			require.Less(t, tour.Active(), 2)
			return tour
		}
	}
}

// checkRound checks the last round's pairing: every active player paired
// once or given the bye; no rematch, no second bye and first-move limits
// held whenever a pairing keeping them exists.
func checkRound(t testing.TB, tour *Tournament) {
	t.Helper()
	rounds := tour.Rounds()
	r := rounds[len(rounds)-1]
	seen := map[string]int{}
	if r.Bye != "" {
		seen[r.Bye]++
	}
	for _, p := range r.Pairings {
		seen[p.First]++
		seen[p.Second]++
	}
	active := 0
	for _, p := range tour.Players() {
		if p.Withdrawn && p.WithdrawnAt == len(rounds) && p.NoShow {
			p.Withdrawn = false // withdrawn by this very round's no-show
		}
		if p.Withdrawn {
			assert.Zero(t, seen[p.ID], "withdrawn %s is not paired", p.ID)
			continue
		}
		active++
		assert.Equal(t, 1, seen[p.ID], "round %d: %s paired once", r.Number, p.ID)
	}
	assert.Equal(t, active%2 == 1, r.Bye != "", "a bye exactly when the number is odd")

	// What the earlier rounds say about the players.
	met := map[[2]string]bool{}
	hadBye := map[string]bool{}
	firsts := map[string][]bool{}
	for _, old := range rounds[:len(rounds)-1] {
		hadBye[old.Bye] = true
		for _, p := range old.Pairings {
			met[[2]string{p.First, p.Second}], met[[2]string{p.Second, p.First}] = true, true
			for _, g := range p.Games {
				firsts[g.First] = append(firsts[g.First], true)
				firsts[g.Second] = append(firsts[g.Second], false)
			}
		}
	}
	before := map[string]int{}
	for id, seq := range firsts {
		before[id] = len(seq)
	}
	repeats, broken := 0, 0
	if r.Bye != "" && hadBye[r.Bye] {
		repeats++
	}
	for _, p := range r.Pairings {
		if met[[2]string{p.First, p.Second}] {
			repeats++
		}
		for _, g := range p.Games {
			firsts[g.First] = append(firsts[g.First], true)
			firsts[g.Second] = append(firsts[g.Second], false)
		}
		for _, id := range []string{p.First, p.Second} {
			if !limitsHeld(firsts[id], before[id]) {
				broken++
			}
		}
	}
	if repeats == 0 && broken == 0 {
		return
	}
	relaxed[repeats > 0]++
	// Is there a pairing that keeps the rules? Build the graph of the
	// allowed pairs among the players as they were before this round and
	// ask for a perfect matching.
	es := entrantsBefore(tour)
	legal := func(strict bool) bool {
		var edges []edge
		n := len(es)
		for i := range es {
			for j := i + 1; j < n; j++ {
				if es[i].opponents[es[j].id] {
					continue
				}
				if _, b, _ := firstMoves(&es[i], &es[j], tour.Settings().games(), 0); strict && b > 0 {
					continue
				}
				edges = append(edges, edge{i, j, 1})
			}
			if n%2 == 1 && !es[i].hadBye {
				edges = append(edges, edge{i, n, 1})
			}
		}
		mate := maxWeightMatching(n+n%2, edges)
		for _, m := range mate {
			if m == -1 {
				return false
			}
		}
		return true
	}
	if repeats > 0 {
		assert.False(t, legal(false), "round %d: %d repeats though a pairing without exists", r.Number, repeats)
	} else {
		assert.False(t, legal(true), "round %d: %d first-move limits broken though a pairing keeping them exists", r.Number, broken)
	}
}

// entrantsBefore returns the entrants as they were when the last round was
// paired.
func entrantsBefore(tour *Tournament) []entrant {
	c := &Tournament{s: tour.s}
	c.s.Rounds = c.s.Rounds[:len(c.s.Rounds)-1]
	c.s.Players = tour.Players()
	var active []entrant
	paired := map[string]bool{}
	last := tour.s.Rounds[len(tour.s.Rounds)-1]
	paired[last.Bye] = true
	for _, p := range last.Pairings {
		paired[p.First], paired[p.Second] = true, true
	}
	for i := range c.s.Players {
		c.s.Players[i].Withdrawn = !paired[c.s.Players[i].ID]
	}
	active = c.entrants()
	return active
}

// limitsHeld reports whether a player's sequence of first moves, of which
// the games from index from on are new, has no three firsts in a row
// ending in a new game, and firsts and seconds at most 2 apart at its end.
func limitsHeld(seq []bool, from int) bool {
	run, balance := 0, 0
	for i, f := range seq {
		if f {
			run, balance = run+1, balance+1
		} else {
			run, balance = 0, balance-1
		}
		if run >= 3 && i >= from {
			return false
		}
	}
	return balance >= -2 && balance <= 2
}

// relaxed counts the rounds paired with a rematch or second bye (true) or
// with first-move limits broken (false), for the log.
var relaxed = map[bool]int{}

func TestRandomTournaments(t *testing.T) {
	// The tournaments are the same at every run (a fixed seed); 400 cover
	// the package as 2,000 did (87.3% of its statements, rounds relaxed
	// with a rematch or a second bye among them), in a fifth of the time.
	count := 400
	if testing.Short() {
		count = 200
	}
	rng := rand.New(rand.NewPCG(28, 2))
	for i := range count {
		tour := randomTournament(t, rng)
		if t.Failed() {
			t.Fatalf("tournament %d failed", i)
		}
		checkStandings(t, tour)
		b, err := json.Marshal(tour)
		require.NoError(t, err)
		var back Tournament
		require.NoError(t, json.Unmarshal(b, &back))
		require.Equal(t, tour.s, back.s, "JSON round trip")
	}
	t.Logf("%d tournaments; rounds relaxed: %d with a rematch or second bye, %d with first-move limits broken",
		count, relaxed[true], relaxed[false])
}

// checkStandings checks that standings hand out exactly the points the
// games and byes gave (a double forfeit none), in order.
func checkStandings(t *testing.T, tour *Tournament) {
	t.Helper()
	var total Points
	for _, r := range tour.Rounds() {
		if r.Bye != "" {
			total += tour.Settings().roundPoints()
		}
		for _, p := range r.Pairings {
			if !p.DoubleForfeit() {
				total += tour.Settings().roundPoints()
			}
		}
	}
	st := tour.Standings()
	require.Len(t, st, len(tour.Players()))
	var sum Points
	for i, s := range st {
		sum += s.Points
		assert.LessOrEqual(t, s.BuchholzCut1, s.Buchholz)
		if i > 0 {
			assert.GreaterOrEqual(t, st[i-1].Points, s.Points)
			assert.LessOrEqual(t, st[i-1].Rank, s.Rank)
		}
	}
	assert.Equal(t, total, sum)
}
