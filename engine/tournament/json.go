package tournament

import (
	"encoding/json"
	"fmt"
)

// Version is the version of the stored form MarshalJSON writes.
const Version = 1

// stored is the stored form of a tournament: its state and a version.
type stored struct {
	Version int `json:"version"`
	state
}

// MarshalText writes p as its name.
func (p Phase) MarshalText() ([]byte, error) {
	if int(p) >= len(phaseNames) {
		return nil, fmt.Errorf("phase %d: %w", p, ErrFormat)
	}
	return []byte(phaseNames[p]), nil
}

// UnmarshalText reads a name that MarshalText writes.
func (p *Phase) UnmarshalText(b []byte) error {
	for i, n := range phaseNames {
		if n == string(b) {
			*p = Phase(i)
			return nil
		}
	}
	return fmt.Errorf("phase %q: %w", b, ErrFormat)
}

// MarshalJSON writes the tournament with a version, for storage. Its
// receiver is a value so that a Tournament marshals like a *Tournament.
func (t Tournament) MarshalJSON() ([]byte, error) {
	return json.Marshal(stored{Version: Version, state: t.s})
}

// UnmarshalJSON reads what MarshalJSON writes. It returns an error
// wrapping ErrFormat for an unknown version or a tournament whose rounds
// do not fit its players and phase.
func (t *Tournament) UnmarshalJSON(b []byte) error {
	var s stored
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("%w: %w", ErrFormat, err)
	}
	if s.Version != Version {
		return fmt.Errorf("%w: version %d, want %d", ErrFormat, s.Version, Version)
	}
	if err := s.check(); err != nil {
		return fmt.Errorf("%w: %s", ErrFormat, err)
	}
	if s.Players == nil {
		s.Players = []Player{}
	}
	if s.Rounds == nil {
		s.Rounds = []Round{}
	}
	t.s = s.state
	return nil
}

// check finds what would make the methods of a loaded tournament go wrong:
// rounds naming unknown players, boards out of order, games of the wrong
// number or players, or a phase that does not fit the rounds.
func (s *state) check() error {
	ids := make(map[string]bool, len(s.Players))
	for _, p := range s.Players {
		if ids[p.ID] {
			return fmt.Errorf("player %q twice", p.ID)
		}
		ids[p.ID] = true
	}
	if s.Settings.Rounds > MaxRounds || len(s.Rounds) > s.Settings.Rounds {
		return fmt.Errorf("%d rounds of %d", len(s.Rounds), s.Settings.Rounds)
	}
	for i, r := range s.Rounds {
		if r.Number != i+1 {
			return fmt.Errorf("round %d numbered %d", i+1, r.Number)
		}
		if r.Bye != "" && !ids[r.Bye] {
			return fmt.Errorf("round %d: unknown bye %q", r.Number, r.Bye)
		}
		seen := map[string]bool{r.Bye: true}
		for j, p := range r.Pairings {
			if p.Board != j+1 {
				return fmt.Errorf("round %d: board %d numbered %d", r.Number, j+1, p.Board)
			}
			if len(p.Games) != s.Settings.games() {
				return fmt.Errorf("round %d board %d: %d games", r.Number, p.Board, len(p.Games))
			}
			for _, id := range []string{p.First, p.Second} {
				if !ids[id] || seen[id] {
					return fmt.Errorf("round %d board %d: player %q unknown or twice", r.Number, p.Board, id)
				}
				seen[id] = true
			}
			for g, game := range p.Games {
				first, second := p.First, p.Second
				if g == 1 {
					first, second = second, first
				}
				if game.First != first || game.Second != second || game.Result > SecondWon {
					return fmt.Errorf("round %d board %d game %d does not fit its pairing", r.Number, p.Board, g+1)
				}
			}
		}
	}
	playing := len(s.Rounds) > 0 && s.Rounds[len(s.Rounds)-1].Completed.IsZero()
	switch {
	case s.Phase == Registration && len(s.Rounds) > 0,
		s.Phase == Playing && !playing,
		s.Phase == Between && (len(s.Rounds) == 0 || playing),
		s.Phase > Cancelled:
		return fmt.Errorf("phase %s with %d rounds", s.Phase, len(s.Rounds))
	}
	return nil
}
