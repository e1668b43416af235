package tournament

import (
	"fmt"
	"slices"
	"time"
)

// Phase is where a tournament stands; State pairs it with a round.
type Phase uint8

// The phases of a tournament. The only transitions are
// Registration → Playing (Start), Playing → Between or Finished (the
// round's last result), Between → Playing or Finished (PairNext), and any
// phase but Finished → Cancelled (Cancel).
const (
	Registration Phase = iota // taking players
	Playing                   // the current round is paired and has games pending
	Between                   // the current round is complete; the next is not paired
	Finished                  // every round is complete (or too few players are left)
	Cancelled                 // called off by the organiser
)

var phaseNames = [...]string{"registration", "playing", "between", "finished", "cancelled"}

// String returns the phase's name.
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return fmt.Sprintf("Phase(%d)", p)
}

// Tournament is a Swiss tournament: its settings, players and rounds. Its
// methods are its only transitions and take the time as an argument. A
// Tournament is a value owned by one goroutine at a time (storage loads,
// changes and saves it in one transaction); it is not safe for concurrent
// use. MarshalJSON and UnmarshalJSON store it.
type Tournament struct {
	s state
}

// state is a tournament's stored content.
type state struct {
	Settings  Settings  `json:"settings"`
	Organiser string    `json:"organiser"`
	Created   time.Time `json:"created"`
	Phase     Phase     `json:"phase"`
	Started   time.Time `json:"started,omitzero"`
	Ended     time.Time `json:"ended,omitzero"` // finished or cancelled
	Players   []Player  `json:"players"`        // in order of joining
	Rounds    []Round   `json:"rounds"`
}

// New creates a tournament taking players, organised by the given player,
// after checking the settings with Settings.Validate.
func New(s Settings, organiser string, now time.Time) (*Tournament, error) {
	if err := s.Validate(now); err != nil {
		return nil, err
	}
	return &Tournament{s: state{Settings: s, Organiser: organiser, Created: now, Players: []Player{}, Rounds: []Round{}}}, nil
}

// Settings returns the tournament's settings.
func (t *Tournament) Settings() Settings { return t.s.Settings }

// Organiser returns the player who created the tournament.
func (t *Tournament) Organiser() string { return t.s.Organiser }

// State returns the phase and the number of the current round (0 before
// the first is paired).
func (t *Tournament) State() (Phase, int) { return t.s.Phase, len(t.s.Rounds) }

// Started returns when the first round was paired (zero before).
func (t *Tournament) Started() time.Time { return t.s.Started }

// Ended returns when the tournament finished or was cancelled (zero before).
func (t *Tournament) Ended() time.Time { return t.s.Ended }

// Players returns a copy of the players in the order they joined,
// withdrawn players included.
func (t *Tournament) Players() []Player { return slices.Clone(t.s.Players) }

// Active returns the number of players who have not withdrawn.
func (t *Tournament) Active() int {
	n := 0
	for _, p := range t.s.Players {
		if !p.Withdrawn {
			n++
		}
	}
	return n
}

// Rounds returns a deep copy of the rounds paired so far.
func (t *Tournament) Rounds() []Round {
	rs := slices.Clone(t.s.Rounds)
	for i := range rs {
		rs[i].Pairings = slices.Clone(rs[i].Pairings)
		for j := range rs[i].Pairings {
			rs[i].Pairings[j].Games = slices.Clone(rs[i].Pairings[j].Games)
		}
	}
	return rs
}

// Due reports whether a tournament taking players should start at now:
// its start time has come, or it starts when full and is full. Start may
// still refuse it (too few players); the caller then cancels or starts
// it later.
func (t *Tournament) Due(now time.Time) bool {
	if t.s.Phase != Registration {
		return false
	}
	if t.s.Settings.Start.IsZero() {
		return t.Active() >= t.s.Settings.limit()
	}
	return !now.Before(t.s.Settings.Start)
}

// over returns ErrFinished or ErrCancelled for a tournament that is over.
func (t *Tournament) over() error {
	switch t.s.Phase {
	case Finished:
		return ErrFinished
	case Cancelled:
		return ErrCancelled
	}
	return nil
}

func (t *Tournament) player(id string) *Player {
	for i := range t.s.Players {
		if t.s.Players[i].ID == id {
			return &t.s.Players[i]
		}
	}
	return nil
}

// lateJoinOpen reports whether players may still join a running
// tournament: fewer than half its rounds have been paired.
func (t *Tournament) lateJoinOpen() bool { return 2*len(t.s.Rounds) < t.s.Settings.Rounds }

// Join adds a player with the given rating. Before the start anyone may
// join; afterwards players may join until half the rounds have been paired
// (scoring nothing for the rounds they missed), and a player withdrawn by
// a forfeit may come back while the round of the forfeit is being played
// (Comeback). It returns ErrFinished, ErrCancelled, ErrAlreadyJoined,
// ErrLateJoinClosed (a newcomer), ErrRejoinClosed (a withdrawn player) or
// ErrFull.
func (t *Tournament) Join(id string, rating int, now time.Time) error {
	if err := t.over(); err != nil {
		return err
	}
	p := t.player(id)
	if p != nil && !p.Withdrawn {
		return ErrAlreadyJoined
	}
	if t.s.Phase != Registration && !t.lateJoinOpen() && !t.rejoinOpen(p, now) {
		if p != nil {
			return ErrRejoinClosed
		}
		return ErrLateJoinClosed
	}
	if t.Active() >= t.s.Settings.limit() {
		return ErrFull
	}
	if p != nil {
		p.Withdrawn, p.NoShow, p.WithdrawnAt, p.Forfeited, p.Rating = false, false, 0, GameRef{}, rating
		return nil
	}
	t.s.Players = append(t.s.Players, Player{ID: id, Rating: rating, Joined: now})
	return nil
}

// rejoinOpen reports whether p, a player withdrawn by a forfeit, may come
// back at now: while the round of the forfeit is being played, before its
// deadline. Once it is complete (at the latest when its deadline closes
// its games) the next is paired at once, without them.
func (t *Tournament) rejoinOpen(p *Player, now time.Time) bool {
	return p != nil && p.Withdrawn && p.NoShow && p.WithdrawnAt == len(t.s.Rounds) && t.s.Phase == Playing &&
		now.Before(t.s.Rounds[len(t.s.Rounds)-1].Deadline)
}

// Comeback is whether a player withdrawn by a forfeit may come back.
type Comeback uint8

// The ways back of a player withdrawn by a forfeit.
const (
	NoComeback        Comeback = iota // no way back into this tournament
	ComebackThisRound                 // Join while the round of the forfeit is played
	ComebackLater                     // Join as a late joiner, while late joins are open
)

// Comeback says whether player id, withdrawn by a forfeit, may join again
// (Join) at now: while the round of the forfeit is being played, before
// its deadline; else, since the next round is paired as soon as that
// round is complete, only while late joins stay open once it is paired;
// never when the tournament is full or over.
func (t *Tournament) Comeback(id string, now time.Time) Comeback {
	p := t.player(id)
	switch {
	case p == nil || !p.Withdrawn || t.over() != nil || t.Active() >= t.s.Settings.limit():
		return NoComeback
	case t.rejoinOpen(p, now):
		return ComebackThisRound
	}
	paired := len(t.s.Rounds)
	if t.s.Phase != Registration && t.s.Rounds[len(t.s.Rounds)-1].Completed.IsZero() || t.s.Phase == Between {
		paired++ // the round closes and the next is paired at once
	}
	if 2*paired < t.s.Settings.Rounds {
		return ComebackLater
	}
	return NoComeback
}

// WithdrawnBy returns the player whom the forfeit of the game ref
// withdrew, or "" if it withdrew nobody (the game was not forfeited, or
// its player was withdrawn already: by their own withdrawal, or by the
// forfeit of the other game of a duplicate pairing). The one player it
// returns is told once, in that game.
func (t *Tournament) WithdrawnBy(ref GameRef) string {
	g, err := t.Game(ref)
	if err != nil || g.NoShow == "" {
		return ""
	}
	if p := t.player(g.NoShow); p != nil && p.NoShow && p.Forfeited == ref {
		return p.ID
	}
	return ""
}

// Leave removes a player before the start. It returns ErrStarted once
// the tournament has started (the player withdraws instead), ErrFinished,
// ErrCancelled or ErrNotJoined.
func (t *Tournament) Leave(id string) error {
	if err := t.over(); err != nil {
		return err
	}
	if t.s.Phase != Registration {
		return ErrStarted
	}
	i := slices.IndexFunc(t.s.Players, func(p Player) bool { return p.ID == id })
	if i < 0 {
		return ErrNotJoined
	}
	t.s.Players = slices.Delete(t.s.Players, i, i+1)
	return nil
}

// Withdraw takes a player out of the rounds still to be paired; their
// games so far keep counting. Games of the current round still pending
// are the caller's to end (by resignation, say). It returns ErrNotStarted
// (the player leaves instead), ErrFinished, ErrCancelled, ErrNotJoined or
// ErrWithdrawn.
func (t *Tournament) Withdraw(id string) error {
	return t.withdraw(id, false)
}

func (t *Tournament) withdraw(id string, noShow bool) error {
	if err := t.over(); err != nil {
		return err
	}
	if t.s.Phase == Registration {
		return ErrNotStarted
	}
	p := t.player(id)
	switch {
	case p == nil:
		return ErrNotJoined
	case p.Withdrawn:
		return ErrWithdrawn
	}
	p.Withdrawn, p.NoShow, p.WithdrawnAt = true, noShow, len(t.s.Rounds)
	return nil
}

// Start pairs the first round at now. It returns ErrStarted, ErrFinished,
// ErrCancelled, ErrTooFewPlayers (fewer than MinPlayers) or a *RoundsError
// (the players cannot play every round without a rematch).
func (t *Tournament) Start(now time.Time) error {
	if err := t.over(); err != nil {
		return err
	}
	if t.s.Phase != Registration {
		return ErrStarted
	}
	n := t.Active()
	if n < MinPlayers {
		return ErrTooFewPlayers
	}
	if r := t.s.Settings.Rounds; r > MostRounds(n) {
		return &RoundsError{Rounds: r, Max: MostRounds(n)}
	}
	t.s.Started = now
	t.pairRound(now)
	return nil
}

// PairNext pairs the next round at now, once the current one is complete.
// When fewer than two players are left, the tournament finishes instead.
// It returns ErrNotStarted, ErrRoundNotComplete, ErrFinished or
// ErrCancelled.
func (t *Tournament) PairNext(now time.Time) error {
	switch t.s.Phase {
	case Registration:
		return ErrNotStarted
	case Playing:
		return ErrRoundNotComplete
	case Finished:
		return ErrFinished
	case Cancelled:
		return ErrCancelled
	}
	if t.Active() < 2 {
		t.s.Phase, t.s.Ended = Finished, now
		return nil
	}
	t.pairRound(now)
	return nil
}

// Cancel calls the tournament off: no result is recorded any more. The
// games still in progress (InProgress) go on as casual games (Release).
// It returns ErrFinished or ErrCancelled.
func (t *Tournament) Cancel(now time.Time) error {
	if err := t.over(); err != nil {
		return err
	}
	t.s.Phase, t.s.Ended = Cancelled, now
	return nil
}

// pairRound pairs the next round among the active players.
func (t *Tournament) pairRound(now time.Time) {
	set := t.s.Settings
	pairs, bye := pair(t.entrants(), set.Duplicate, Points(len(t.s.Rounds))*set.roundPoints())
	r := Round{
		Number:   len(t.s.Rounds) + 1,
		Paired:   now,
		Deadline: now.Add(time.Duration(set.DaysPerRound) * 24 * time.Hour),
		Bye:      bye,
		Pairings: make([]Pairing, len(pairs)),
	}
	for i, p := range pairs {
		games := []Game{{First: p[0], Second: p[1]}}
		if set.Duplicate {
			games = append(games, Game{First: p[1], Second: p[0]})
		}
		r.Pairings[i] = Pairing{Board: i + 1, First: p[0], Second: p[1], Games: games}
	}
	t.s.Rounds = append(t.s.Rounds, r)
	t.s.Phase = Playing
	t.complete(now) // a round of only a bye is complete at once
}

// Overdue returns the games of the current round still pending at now
// when its deadline has passed: the games the caller adjudicates.
func (t *Tournament) Overdue(now time.Time) []GameRef {
	if t.s.Phase != Playing {
		return nil
	}
	r := t.s.Rounds[len(t.s.Rounds)-1]
	if now.Before(r.Deadline) {
		return nil
	}
	return t.InProgress()
}

// Pairing returns the pairing of the game ref, or ErrNoSuchGame.
func (t *Tournament) Pairing(ref GameRef) (Pairing, error) {
	if _, err := t.Game(ref); err != nil {
		return Pairing{}, err
	}
	return t.Rounds()[ref.Round-1].Pairings[ref.Board-1], nil
}

// InProgress returns the games of the current round still without a
// result: after Cancel, the games that go on as casual games.
func (t *Tournament) InProgress() []GameRef {
	if len(t.s.Rounds) == 0 {
		return nil
	}
	r := t.s.Rounds[len(t.s.Rounds)-1]
	var refs []GameRef
	for _, p := range r.Pairings {
		for i, g := range p.Games {
			if g.Result == Pending {
				refs = append(refs, GameRef{Round: r.Number, Board: p.Board, Game: i + 1})
			}
		}
	}
	return refs
}

// Completed returns the number of rounds complete: every game of them
// has a result.
func (t *Tournament) Completed() int {
	n := 0
	for _, r := range t.s.Rounds {
		if !r.Completed.IsZero() {
			n++
		}
	}
	return n
}

// Game returns the game ref names, or ErrNoSuchGame.
func (t *Tournament) Game(ref GameRef) (Game, error) {
	if ref.Round < 1 || ref.Round > len(t.s.Rounds) {
		return Game{}, ErrNoSuchGame
	}
	r := t.s.Rounds[ref.Round-1]
	if ref.Board < 1 || ref.Board > len(r.Pairings) || ref.Game < 1 || ref.Game > len(r.Pairings[ref.Board-1].Games) {
		return Game{}, ErrNoSuchGame
	}
	return r.Pairings[ref.Board-1].Games[ref.Game-1], nil
}

// Record sets the result of a game of the current round played out at
// now. When it is the round's last result, the round is complete: the
// tournament is then Between rounds, or Finished after its last round. It
// returns ErrResult, ErrNoSuchGame, ErrResultRecorded, ErrFinished,
// ErrCancelled or ErrNotStarted.
func (t *Tournament) Record(ref GameRef, res Result, now time.Time) error {
	return t.record(ref, Game{Result: res, Ended: now}, now)
}

// Adjudicate sets the result the caller computed for a game unfinished at
// the round's deadline, saying how (the reason, like "exact solver" or
// "hard evaluation"), as Record does.
func (t *Tournament) Adjudicate(ref GameRef, res Result, reason string, now time.Time) error {
	return t.record(ref, Game{Result: res, Adjudicated: true, Reason: reason, Ended: now}, now)
}

// Forfeit records that player id forfeited the game ref at now: their
// clock, bounded by the round's deadline, ran out before their first
// move in it. The opponent wins by forfeit (1–0), unless both players of
// a duplicate pairing forfeited the game they moved first in: then
// neither played, and both lose both games (Pairing.DoubleForfeit). A
// forfeit withdraws its player from the rounds still to come, if any
// (Comeback says whether and when they may come back); the game whose forfeit
// withdrew them is kept (WithdrawnBy). It returns ErrNotInGame and the
// errors of Record.
func (t *Tournament) Forfeit(ref GameRef, id string, now time.Time) error {
	g, err := t.Game(ref)
	if err != nil {
		return err
	}
	res := FirstWon
	switch id {
	case g.First:
		res = SecondWon
	case g.Second:
	default:
		return ErrNotInGame
	}
	if err := t.record(ref, Game{Result: res, NoShow: id, Ended: now}, now); err != nil {
		return err
	}
	if p := t.player(id); !p.Withdrawn && t.s.Phase != Finished {
		p.Withdrawn, p.NoShow, p.WithdrawnAt, p.Forfeited = true, true, len(t.s.Rounds), ref
	}
	return nil
}

func (t *Tournament) record(ref GameRef, g Game, now time.Time) error {
	switch t.s.Phase {
	case Registration:
		return ErrNotStarted
	case Finished:
		return ErrFinished
	case Cancelled:
		return ErrCancelled
	}
	if g.Result == Pending || g.Result > SecondWon {
		return ErrResult
	}
	if ref.Round != len(t.s.Rounds) {
		return ErrNoSuchGame
	}
	old, err := t.Game(ref)
	if err != nil {
		return err
	}
	if old.Result != Pending {
		return ErrResultRecorded
	}
	g.First, g.Second = old.First, old.Second
	t.s.Rounds[ref.Round-1].Pairings[ref.Board-1].Games[ref.Game-1] = g
	t.complete(now)
	return nil
}

// complete ends the current round at now if none of its games is pending.
func (t *Tournament) complete(now time.Time) {
	r := &t.s.Rounds[len(t.s.Rounds)-1]
	for _, p := range r.Pairings {
		if !p.Done() {
			return
		}
	}
	r.Completed = now
	t.s.Phase = Between
	if r.Number == t.s.Settings.Rounds {
		t.s.Phase, t.s.Ended = Finished, now
	}
}
