package tournament

import (
	"fmt"
	"time"
)

// Result is the result of one tournament game, seen from its players.
type Result uint8

// The results of a game.
const (
	Pending   Result = iota // not played out yet
	FirstWon                // the player who moved first won
	Drawn                   // a draw
	SecondWon               // the player who moved second won
)

var resultNames = [...]string{"pending", "first-won", "drawn", "second-won"}

// String returns the result's name: pending, first-won, drawn or second-won.
func (r Result) String() string {
	if int(r) < len(resultNames) {
		return resultNames[r]
	}
	return fmt.Sprintf("Result(%d)", r)
}

// MarshalText writes r's name.
func (r Result) MarshalText() ([]byte, error) {
	if int(r) >= len(resultNames) {
		return nil, fmt.Errorf("result %d: %w", r, ErrResult)
	}
	return []byte(resultNames[r]), nil
}

// UnmarshalText reads a name that MarshalText writes.
func (r *Result) UnmarshalText(b []byte) error {
	for i, n := range resultNames {
		if n == string(b) {
			*r = Result(i)
			return nil
		}
	}
	return fmt.Errorf("result %q: %w", b, ErrResult)
}

// Game is one game of a pairing.
type Game struct {
	First  string `json:"first"`  // the player who moves first
	Second string `json:"second"` // the player who moves second
	Result Result `json:"result"`
	// Adjudicated: the game was unfinished at the round's deadline and
	// Result is what the caller computed; Reason says how.
	Adjudicated bool   `json:"adjudicated,omitempty"`
	Reason      string `json:"reason,omitempty"`
	// NoShow names the player who forfeited the game (Forfeit): their
	// clock ran out before their first move in it.
	NoShow string    `json:"no_show,omitempty"`
	Ended  time.Time `json:"ended,omitzero"`
}

// points returns what the game gave player id.
func (g Game) points(id string) Points {
	switch {
	case g.Result == Drawn:
		return 1
	case g.Result == FirstWon && id == g.First, g.Result == SecondWon && id == g.Second:
		return 2
	}
	return 0
}

// Pairing is two players meeting in a round on a board: one game, or two
// with duplicate rounds, the second with the first move swapped.
type Pairing struct {
	Board int    `json:"board"` // 1 for the top board
	First string `json:"first"` // the player moving first in the first game
	// Second moves second in the first game (and first in the second).
	Second string `json:"second"`
	Games  []Game `json:"games"`
}

// Points returns the round score of player id in the pairing: the sum of
// its games (0–1 point, or 0–2 with duplicate rounds); 0 for both players
// of a double forfeit.
func (p Pairing) Points(id string) Points {
	if p.DoubleForfeit() {
		return 0
	}
	var sum Points
	for _, g := range p.Games {
		sum += g.points(id)
	}
	return sum
}

// DoubleForfeit reports whether neither player of the pairing played it:
// with duplicate rounds, each forfeited the game they moved first in, so
// that no move was made in either game. Both then lose both games.
func (p Pairing) DoubleForfeit() bool {
	if len(p.Games) < 2 {
		return false // one game: its second player never had the turn
	}
	for _, g := range p.Games {
		if g.NoShow == "" || g.NoShow != g.First {
			return false
		}
	}
	return true
}

// Opponent returns the other player of the pairing.
func (p Pairing) Opponent(id string) string {
	if id == p.First {
		return p.Second
	}
	return p.First
}

// Done reports whether every game of the pairing has a result.
func (p Pairing) Done() bool {
	for _, g := range p.Games {
		if g.Result == Pending {
			return false
		}
	}
	return true
}

// Round is one round of a tournament.
type Round struct {
	Number   int       `json:"number"` // 1 for the first round
	Paired   time.Time `json:"paired"`
	Deadline time.Time `json:"deadline"` // Paired + DaysPerRound days
	Pairings []Pairing `json:"pairings"`
	// Bye is the player who sat out with a won round's points, or "".
	Bye       string    `json:"bye,omitempty"`
	Completed time.Time `json:"completed,omitzero"` // zero while games are pending
}

// GameRef names one game of a round: its board (from 1) and, with
// duplicate rounds, which of the pairing's games (1 or 2).
type GameRef struct {
	Round int `json:"round"`
	Board int `json:"board"`
	Game  int `json:"game"`
}

// String writes the reference as round.board.game, like "3.2.1".
func (r GameRef) String() string { return fmt.Sprintf("%d.%d.%d", r.Round, r.Board, r.Game) }
