package tournament

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// finished returns a finished tournament with the given players (ID and
// rating) and rounds, built directly to test standings on chosen results.
func finished(players []Player, rounds ...Round) *Tournament {
	for i := range rounds {
		rounds[i].Number, rounds[i].Completed = i+1, t0
		for j := range rounds[i].Pairings {
			p := &rounds[i].Pairings[j]
			p.Board = j + 1
			for k := range p.Games {
				p.Games[k].First, p.Games[k].Second = p.First, p.Second
			}
		}
	}
	return &Tournament{s: state{Settings: Settings{Name: "t", Rounds: len(rounds), DaysPerRound: 1},
		Phase: Finished, Players: players, Rounds: rounds}}
}

// oneGame is a pairing of one game with the result r.
func oneGame(first, second string, r Result) Pairing {
	return Pairing{First: first, Second: second, Games: []Game{{Result: r}}}
}

func TestStandingsByesAndWithdrawals(t *testing.T) {
	// X beats Y while Z has the bye; Z beats X while Y (who then
	// withdraws) has the bye.
	tour := finished([]Player{{ID: "X", Rating: 1500}, {ID: "Y", Rating: 1600, Withdrawn: true}, {ID: "Z", Rating: 1400}},
		Round{Pairings: []Pairing{oneGame("X", "Y", FirstWon)}, Bye: "Z"},
		Round{Pairings: []Pairing{oneGame("Z", "X", FirstWon)}, Bye: "Y"},
	)
	assert.Equal(t, []Standing{
		// Z: a bye counts Z's own 2 points in Buchholz, X 1; SB only X's 1.
		{Rank: 1, Player: "Z", Points: 4, BuchholzCut1: 4, Buchholz: 6, SonnebornBerger: 1, Rating: 1400},
		// X: opponents Y 1 and Z 2; SB Y's 1 for the win.
		{Rank: 2, Player: "X", Points: 2, BuchholzCut1: 4, Buchholz: 6, SonnebornBerger: 1, Rating: 1500},
		// Y: opponent X 1, bye counts Y's own 1; nothing won against anyone.
		{Rank: 3, Player: "Y", Points: 2, BuchholzCut1: 2, Buchholz: 4, SonnebornBerger: 0, Rating: 1600, Withdrawn: true},
	}, tour.Standings())
}

func TestStandingsDirectEncounter(t *testing.T) {
	// A beats B; C beats D; C beats A; B beats D; A-D and B-C drawn. A and
	// B tie on points (1½), Buchholz (4½), Cut-1 (4) and SB (1¾); A won
	// their game, so A ranks above the higher rated B.
	tour := finished([]Player{{ID: "A", Rating: 1900}, {ID: "B", Rating: 2000}, {ID: "C", Rating: 1800}, {ID: "D", Rating: 1700}},
		Round{Pairings: []Pairing{oneGame("A", "B", FirstWon), oneGame("C", "D", FirstWon)}},
		Round{Pairings: []Pairing{oneGame("A", "C", SecondWon), oneGame("B", "D", FirstWon)}},
		Round{Pairings: []Pairing{oneGame("A", "D", Drawn), oneGame("B", "C", Drawn)}},
	)
	got := tour.Standings()
	assert.Equal(t, []string{"C", "A", "B", "D"}, []string{got[0].Player, got[1].Player, got[2].Player, got[3].Player})
	assert.Equal(t, Standing{Rank: 2, Player: "A", Points: 3, BuchholzCut1: 8, Buchholz: 9, SonnebornBerger: 1.75,
		DirectEncounter: 2, Rating: 1900}, got[1])
	assert.Equal(t, Standing{Rank: 3, Player: "B", Points: 3, BuchholzCut1: 8, Buchholz: 9, SonnebornBerger: 1.75,
		DirectEncounter: 0, Rating: 2000}, got[2])
}

func TestStandingsSharedRank(t *testing.T) {
	// A beats B, B beats C, C beats A, and all beat D: a cycle that direct
	// encounter cannot break, so A, B and C share first place, listed by
	// rating.
	tour := finished([]Player{{ID: "A", Rating: 1500}, {ID: "B", Rating: 1700}, {ID: "C", Rating: 1600}, {ID: "D", Rating: 1800}},
		Round{Pairings: []Pairing{oneGame("A", "B", FirstWon), oneGame("C", "D", FirstWon)}},
		Round{Pairings: []Pairing{oneGame("C", "A", FirstWon), oneGame("B", "D", FirstWon)}},
		Round{Pairings: []Pairing{oneGame("A", "D", FirstWon), oneGame("B", "C", FirstWon)}},
	)
	got := tour.Standings()
	var ranks []any
	for _, s := range got {
		ranks = append(ranks, s.Player, s.Rank)
	}
	assert.Equal(t, []any{"B", 1, "C", 1, "A", 1, "D", 4}, ranks)
}

func TestStandingsAfterTheLastCompletedRound(t *testing.T) {
	tour := mustTournament(t, 5, nil)
	now := t0.Add(time.Hour)
	require.NoError(t, tour.Start(now))
	assert.Zero(t, tour.Completed())
	for _, s := range tour.Standings() {
		assert.Zero(t, s.Points, "round 1's bye counts once round 1 is complete: %s", s.Player)
	}
	playRound(t, tour, now)
	require.NoError(t, tour.PairNext(now))
	assert.Equal(t, 1, tour.Completed())
	bye := tour.Rounds()[1].Bye
	require.NotEmpty(t, bye)
	require.NoError(t, tour.Record(GameRef{2, 1, 1}, FirstWon, now))
	var total Points
	for _, s := range tour.Standings() {
		total += s.Points
	}
	assert.Equal(t, Points(3*2), total, "round 1 only: two wins and a bye, not round 2's bye nor its first result")
}

func TestPodium(t *testing.T) {
	tests := []struct {
		name string
		rows []Standing
		want []Placing
	}{
		{"three places", []Standing{{Rank: 1, Player: "a"}, {Rank: 2, Player: "b"}, {Rank: 3, Player: "c"}, {Rank: 4, Player: "d"}},
			[]Placing{{1, "a"}, {2, "b"}, {3, "c"}}},
		{"two share the second place, none is third", []Standing{{Rank: 1, Player: "a"}, {Rank: 2, Player: "b"}, {Rank: 2, Player: "c"}, {Rank: 4, Player: "d"}},
			[]Placing{{1, "a"}, {2, "b"}, {2, "c"}}},
		{"three share the first place", []Standing{{Rank: 1, Player: "a"}, {Rank: 1, Player: "b"}, {Rank: 1, Player: "c"}, {Rank: 4, Player: "d"}},
			[]Placing{{1, "a"}, {1, "b"}, {1, "c"}}},
		{"two share the third place", []Standing{{Rank: 1, Player: "a"}, {Rank: 2, Player: "b"}, {Rank: 3, Player: "c"}, {Rank: 3, Player: "d"}, {Rank: 5, Player: "e"}},
			[]Placing{{1, "a"}, {2, "b"}, {3, "c"}, {3, "d"}}},
		{"a withdrawn player takes no medal", []Standing{{Rank: 1, Player: "a", Withdrawn: true}, {Rank: 2, Player: "b"}, {Rank: 3, Player: "c"}, {Rank: 4, Player: "d"}},
			[]Placing{{1, "b"}, {2, "c"}, {3, "d"}}},
		{"a withdrawn player tied with another", []Standing{{Rank: 1, Player: "a"}, {Rank: 2, Player: "b", Withdrawn: true}, {Rank: 2, Player: "c"}, {Rank: 4, Player: "d"}},
			[]Placing{{1, "a"}, {2, "c"}, {3, "d"}}},
		{"two players", []Standing{{Rank: 1, Player: "a"}, {Rank: 2, Player: "b"}}, []Placing{{1, "a"}, {2, "b"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, Podium(tt.rows)) })
	}
}
