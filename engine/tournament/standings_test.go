package tournament

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// finished returns a finished tournament with the given players (ID and
// rating) and rounds, built directly to test standings on chosen results.
func finished(players []Player, rounds ...Round) *Tournament {
	for i := range rounds {
		rounds[i].Number = i + 1
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

func game(first, second string, r Result) Pairing {
	return Pairing{First: first, Second: second, Games: []Game{{Result: r}}}
}

func TestStandingsByesAndWithdrawals(t *testing.T) {
	// X beats Y while Z has the bye; Z beats X while Y (who then
	// withdraws) has the bye.
	tour := finished([]Player{{ID: "X", Rating: 1500}, {ID: "Y", Rating: 1600, Withdrawn: true}, {ID: "Z", Rating: 1400}},
		Round{Pairings: []Pairing{game("X", "Y", FirstWon)}, Bye: "Z"},
		Round{Pairings: []Pairing{game("Z", "X", FirstWon)}, Bye: "Y"},
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
		Round{Pairings: []Pairing{game("A", "B", FirstWon), game("C", "D", FirstWon)}},
		Round{Pairings: []Pairing{game("A", "C", SecondWon), game("B", "D", FirstWon)}},
		Round{Pairings: []Pairing{game("A", "D", Drawn), game("B", "C", Drawn)}},
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
		Round{Pairings: []Pairing{game("A", "B", FirstWon), game("C", "D", FirstWon)}},
		Round{Pairings: []Pairing{game("C", "A", FirstWon), game("B", "D", FirstWon)}},
		Round{Pairings: []Pairing{game("A", "D", FirstWon), game("B", "C", FirstWon)}},
	)
	got := tour.Standings()
	var ranks []any
	for _, s := range got {
		ranks = append(ranks, s.Player, s.Rank)
	}
	assert.Equal(t, []any{"B", 1, "C", 1, "A", 1, "D", 4}, ranks)
}
