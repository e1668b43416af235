package game

import (
	"slices"
	"time"

	"github.com/kulami/kulami/engine"
)

// Move is one marble placed: where and when.
type Move struct {
	Cell engine.Cell `json:"cell"`
	At   time.Time   `json:"at"`
}

// DrawOffer is a player's offer of a draw. It stands until the next move.
type DrawOffer struct {
	By  engine.Color `json:"by"`
	Ply int          `json:"ply"` // the ply it was made at; an offer of another ply has lapsed
}

// Config is what a new game is played with.
type Config struct {
	Layout  *engine.Layout
	Rules   engine.Rules
	First   engine.Color // the colour that moves first
	Players [2]Player    // indexed by colour
	// MoveTime is the time each person has for a move; 0 for no limit.
	// The computer has no clock.
	MoveTime time.Duration
}

// State is a game as plain data: what storage keeps. Restore turns it back
// into a Game. Its JSON form is stable: stored games are written with it.
type State struct {
	Layout    string        `json:"layout"` // canonical layout string (RECORD.md)
	Rules     engine.Rules  `json:"rules"`
	First     engine.Color  `json:"first"`
	Players   [2]Player     `json:"players"`
	Moves     []Move        `json:"moves,omitempty"`
	Created   time.Time     `json:"created"`
	MoveTime  time.Duration `json:"move_time,omitempty"`
	Deadline  time.Time     `json:"deadline,omitzero"`   // when the player to move runs out of time
	Reminders uint8         `json:"reminders,omitempty"` // reminders sent for the current turn
	DrawOffer *DrawOffer    `json:"draw_offer,omitempty"`
	Result    *Result       `json:"result,omitempty"`
}

// Game is a game of Kulami between two players. Make one with New or
// Restore; change it only through its methods. A Game is not safe for
// concurrent use.
type Game struct {
	s      State
	layout *engine.Layout
	pos    engine.Position
}

// New starts a game at time now: the first player's clock runs from now.
// It returns an error wrapping ErrInvalid for a config that cannot make a
// game (no layout, an unknown rule set or colour, a bad player, a player
// against themself, a negative move time).
func New(cfg Config, now time.Time) (*Game, error) {
	if cfg.Layout == nil {
		return nil, invalid("the game has no layout")
	}
	if now.IsZero() {
		return nil, invalid("the game has no creation time")
	}
	g := &Game{
		s: State{
			Layout: cfg.Layout.String(), Rules: cfg.Rules, First: cfg.First,
			Players: cfg.Players, Created: now, MoveTime: cfg.MoveTime,
		},
		layout: cfg.Layout,
		pos:    engine.NewPosition(cfg.Layout, cfg.First),
	}
	if err := g.checkSettings(); err != nil {
		return nil, err
	}
	g.startTurn(now)
	return g, nil
}

// Restore returns the game that s describes, checked as New checks a
// config, and replayed move by move: an illegal move, a result that does
// not follow from the moves, a game that is over without a result or a
// malformed clock or draw offer returns an error wrapping ErrInvalid.
func Restore(s State) (*Game, error) {
	l, err := engine.ParseLayout(s.Layout)
	if err != nil {
		return nil, invalid("%v", err)
	}
	if c := l.String(); c != s.Layout {
		return nil, invalid("layout %q is not canonical; it is written %q", s.Layout, c)
	}
	if s.Created.IsZero() {
		return nil, invalid("the game has no creation time")
	}
	g := &Game{s: s, layout: l, pos: engine.NewPosition(l, s.First)}
	g.s.Moves = slices.Clone(s.Moves)
	g.s.DrawOffer, g.s.Result = clonePtr(s.DrawOffer), clonePtr(s.Result)
	if err := g.checkSettings(); err != nil {
		return nil, err
	}
	for i, m := range s.Moves {
		if err := g.pos.Play(m.Cell); err != nil {
			return nil, invalid("%v", &engine.MoveError{Ply: i + 1, Move: m.Cell.String(), Err: err})
		}
	}
	if d := s.DrawOffer; d != nil && (d.By != engine.Red && d.By != engine.Black || d.Ply < 0 || d.Ply > len(s.Moves) || g.Player(d.By.Other()).IsAI() || s.Result != nil) {
		return nil, invalid("a draw offer by %v at ply %d", d.By, d.Ply)
	}
	if int(s.Reminders) > len(reminderShares) {
		return nil, invalid("%d reminders sent; there are %d", s.Reminders, len(reminderShares))
	}
	if s.Result == nil && g.pos.IsOver() {
		return nil, invalid("the game is over after %d moves but has no result", g.pos.Ply())
	}
	switch runs := s.Result == nil && g.clocked(g.ToMove()); {
	case runs && s.Deadline.IsZero():
		return nil, invalid("no deadline, but the clock of %v runs", g.ToMove())
	case !runs && !s.Deadline.IsZero():
		return nil, invalid("a deadline of %v, but no clock runs", s.Deadline)
	case !runs && s.Reminders > 0:
		return nil, invalid("%d reminders sent, but no clock runs", s.Reminders)
	}
	if s.Result == nil {
		return g, nil
	}
	want, err := newResult(&g.pos, s.Rules, s.Result.Ending, s.Result.Winner.Other(), s.Result.At)
	if err != nil {
		return nil, err
	}
	if !want.same(s.Result) {
		return nil, invalid("the result %q does not follow from the moves (%q would)", s.Result, want)
	}
	switch e := s.Result.Ending; {
	case g.pos.IsOver() && e != Normal:
		return nil, invalid("the board was played out after %d moves, so the game cannot have ended %v", g.Ply(), e)
	case e == Aborted && g.Ply() >= AbortPlies:
		return nil, invalid("the game was aborted after %d moves; the limit is %d", g.Ply(), AbortPlies-1)
	case e == Unstarted && g.Ply() >= 2:
		return nil, invalid("the game counts as unstarted after %d moves; both players had moved", g.Ply())
	case (e == TimedOut || e == Unstarted) && s.Result.Winner.Other() != g.ToMove():
		return nil, invalid("%v ran out of time, but it was not their turn", s.Result.Winner.Other())
	}
	return g, nil
}

// checkSettings checks what New and Restore share: rules, colours,
// players and move time.
func (g *Game) checkSettings() error {
	s := &g.s
	if s.Rules > engine.Full {
		return invalid("unknown rule set %v", s.Rules)
	}
	if s.First != engine.Red && s.First != engine.Black {
		return invalid("the first colour must be red or black, not %v", s.First)
	}
	for c, p := range s.Players {
		if err := p.check(engine.Color(c).String() + " player"); err != nil {
			return err
		}
	}
	if r, b := s.Players[engine.Red], s.Players[engine.Black]; r.UserID == b.UserID && r.AI == b.AI {
		return invalid("%s cannot play against themself", r.Name)
	}
	if s.MoveTime < 0 {
		return invalid("the move time %v is negative", s.MoveTime)
	}
	return nil
}

// clonePtr returns a pointer to a copy of *p, or nil.
func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}

// State returns the game as plain data; the caller owns it.
func (g *Game) State() State {
	s := g.s
	s.Moves = slices.Clone(g.s.Moves)
	s.DrawOffer, s.Result = clonePtr(g.s.DrawOffer), clonePtr(g.s.Result)
	return s
}

// Clone returns a copy of g that shares nothing with it.
func (g *Game) Clone() *Game {
	c := *g
	c.s = g.State()
	return &c
}

// Layout returns the board.
func (g *Game) Layout() *engine.Layout { return g.layout }

// Rules returns the rule set the game is scored by.
func (g *Game) Rules() engine.Rules { return g.s.Rules }

// First returns the colour that moved first.
func (g *Game) First() engine.Color { return g.s.First }

// Players returns the players, indexed by colour.
func (g *Game) Players() [2]Player { return g.s.Players }

// Player returns the player of colour c.
func (g *Game) Player(c engine.Color) Player { return g.s.Players[c&1] }

// Rename sets the name shown for the player of colour c (a person who
// changed their name); the game is otherwise unchanged.
func (g *Game) Rename(c engine.Color, name string) { g.s.Players[c&1].Name = name }

// Moves returns the moves played, first to last; the caller owns the slice.
func (g *Game) Moves() []Move { return slices.Clone(g.s.Moves) }

// Ply returns the number of marbles placed.
func (g *Game) Ply() int { return len(g.s.Moves) }

// ToMove returns the colour whose turn it is (after the end: whose turn it
// would be).
func (g *Game) ToMove() engine.Color { return g.pos.ToMove() }

// Position returns the position on the board.
func (g *Game) Position() engine.Position { return g.pos }

// Created returns when the game began.
func (g *Game) Created() time.Time { return g.s.Created }

// MoveTime returns the time a person has for each move; 0 for no limit.
func (g *Game) MoveTime() time.Duration { return g.s.MoveTime }

// Deadline returns when the player to move runs out of time; zero when no
// clock runs (no move time, the computer's turn, the game is over).
func (g *Game) Deadline() time.Time { return g.s.Deadline }

// DrawOffer returns the draw offer that stands, or nil.
func (g *Game) DrawOffer() *DrawOffer {
	if d := g.s.DrawOffer; d != nil && d.Ply == g.Ply() {
		return clonePtr(d)
	}
	return nil
}

// Result returns how the game ended, or nil while it goes on.
func (g *Game) Result() *Result { return clonePtr(g.s.Result) }

// Over reports whether the game has ended.
func (g *Game) Over() bool { return g.s.Result != nil }

// Blocked reports whether the game ended because the player to move had
// no legal hole while marbles were left (RULES.md), not because every
// marble was placed.
func (g *Game) Blocked() bool {
	return g.s.Result != nil && g.s.Result.Ending == Normal && g.Ply() < engine.MaxPly
}

// Seat returns the colour played by the person with the ID userID, or
// ErrNotAPlayer.
func (g *Game) Seat(userID string) (engine.Color, error) {
	for c, p := range g.s.Players {
		if userID != "" && p.UserID == userID && !p.IsAI() {
			return engine.Color(c), nil
		}
	}
	return 0, ErrNotAPlayer
}

// Record returns the game record (RECORD.md) with the tags Game, Red,
// Black, Date (the day the game began, UTC) and Result (see
// Result.String, or "*" while the game goes on, when the moves also end
// with the result word "*").
func (g *Game) Record() *engine.Record {
	r := engine.NewRecord(g.layout, g.s.First, g.s.Rules)
	r.SetTag("Game", "Kulami")
	r.SetTag("Red", g.s.Players[engine.Red].Name)
	r.SetTag("Black", g.s.Players[engine.Black].Name)
	r.SetTag("Date", g.s.Created.UTC().Format("2006.01.02"))
	if res := g.s.Result; res != nil {
		r.SetTag("Result", res.String())
	} else {
		r.SetTag("Result", "*")
		r.Result = "*"
	}
	for _, m := range g.s.Moves {
		r.Moves = append(r.Moves, m.Cell.String())
	}
	return r
}
