package game

import (
	"slices"
	"time"

	"github.com/kulami/kulami/engine"
)

// Move is one marble placed: where and when, and whether it was the
// player's planned reply (SetPlan), played for them.
type Move struct {
	Cell    engine.Cell `json:"cell"`
	At      time.Time   `json:"at"`
	Planned bool        `json:"planned,omitempty"`
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
	// Increment, if not zero, makes MoveTime the start of a clock that
	// carries over from move to move: Increment is added after each move,
	// never beyond twice MoveTime (see MoveTime, the type).
	Increment time.Duration
	// Kind is how MoveTime counts: PerMove or WholeGame (a clock that
	// carries over, as with an increment, adding Increment or nothing).
	// None (the zero ClockKind) counts as MoveTime.Explicit says.
	Kind ClockKind
	// Weekends pauses every clock over its player's weekend; New clears
	// it for a clock that no pause holds back (MoveTime.Pauses).
	Weekends bool
	// Timeouts is what a clock that runs out does: end the game (Auto) or
	// let the opponent claim the win (Claim).
	Timeouts Timeouts
	// Zones and Quiet are where each player lives, indexed by colour:
	// their time zone (nil for UTC) and quiet hours (see SetLocal).
	Zones [2]*time.Location
	Quiet [2]Quiet
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

	// The comforts of a game played over days (doc.go); each is omitted
	// when unused, so a game of an earlier release reads back unchanged.
	Increment time.Duration    `json:"increment,omitempty"`
	Kind      ClockKind        `json:"clock,omitempty"` // how the move time counts; none in games of earlier releases (MoveTime.Explicit)
	Clocks    [2]time.Duration `json:"clocks,omitzero"` // for the whole game: the time on each clock when its turn begins
	Weekends  bool             `json:"weekends,omitempty"`
	Zones     [2]string        `json:"zones,omitzero"` // each player's IANA time zone; "" for UTC
	Quiet     [2]Quiet         `json:"quiet,omitzero"`
	Away      [2]time.Time     `json:"away,omitzero"`     // since when each player is away (on vacation)
	Stopped   time.Duration    `json:"stopped,omitempty"` // the time on the stopped clock of the player to move, away
	Timeouts  Timeouts         `json:"timeouts,omitempty"`
	Late      bool             `json:"late,omitempty"`     // the clock ran out at Deadline; the opponent may claim
	Plans     [2][]Line        `json:"plans,omitzero"`     // each player's plan (private)
	PlanLog   []Plan           `json:"plan_log,omitempty"` // every plan as it was set
}

// Game is a game of Kulami between two players. Make one with New or
// Restore; change it only through its methods. A Game is not safe for
// concurrent use.
type Game struct {
	s      State
	layout *engine.Layout
	pos    engine.Position
	zones  [2]*time.Location // s.Zones, loaded
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
			Increment: cfg.Increment, Kind: cfg.Kind, Weekends: cfg.Weekends, Timeouts: cfg.Timeouts,
		},
		layout: cfg.Layout,
		pos:    engine.NewPosition(cfg.Layout, cfg.First),
	}
	if err := g.checkSettings(); err != nil {
		return nil, err
	}
	if g.whole() {
		g.s.Clocks = [2]time.Duration{g.s.MoveTime, g.s.MoveTime}
	}
	if g.live() {
		g.s.Timeouts = Auto // nobody waits a week to claim a ten-minute game
	}
	if !g.pauses() {
		g.s.Weekends = false // nor a weekend for a game under an hour
	}
	for c := range cfg.Zones {
		if err := g.SetLocal(engine.Color(c), cfg.Zones[c], cfg.Quiet[c]); err != nil {
			return nil, err
		}
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
	g.s = s.clone()
	if err := g.checkSettings(); err != nil {
		return nil, err
	}
	for c, z := range s.Zones {
		if g.zones[c], err = loadZone(z); err != nil {
			return nil, err
		}
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
	if err := g.checkComforts(); err != nil {
		return nil, err
	}
	if s.Result == nil && g.pos.IsOver() {
		return nil, invalid("the game is over after %d moves but has no result", g.pos.Ply())
	}
	switch runs := s.Result == nil && g.clocked(g.ToMove()); {
	case runs && s.Deadline.IsZero() && s.Stopped == 0:
		return nil, invalid("no deadline, but the clock of %v runs", g.ToMove())
	case !runs && !s.Deadline.IsZero():
		return nil, invalid("a deadline of %v, but no clock runs", s.Deadline)
	case !runs && s.Reminders > 0:
		return nil, invalid("%d reminders sent, but no clock runs", s.Reminders)
	}
	if s.Result == nil {
		return g, nil
	}
	want, err := newResult(&g.pos, s.Rules, s.Result.Ending, s.Result.Winner.Other(), s.Result.Draw, s.Result.At)
	if err != nil {
		return nil, err
	}
	if s.Result.Claimed {
		if s.Result.Ending != TimedOut {
			return nil, invalid("a game that ended %v cannot have been claimed", s.Result.Ending)
		}
		want.Claimed = true
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
// players and move time. It writes the kind of a clock that has none
// (MoveTime.Explicit), so that a game of an earlier release is stored
// with it from its next save on.
func (g *Game) checkSettings() error {
	s := &g.s
	s.Kind = g.Clock().Explicit().Kind
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
	if s.Increment < 0 || s.Increment > s.MoveTime {
		return invalid("the increment %v is not from 0 to the move time %v", s.Increment, s.MoveTime)
	}
	if err := g.Clock().CheckKind(); err != nil {
		return invalid("%v", err)
	}
	if s.Timeouts > Claim {
		return invalid("unknown timeouts %v", s.Timeouts)
	}
	return nil
}

// checkComforts checks, for Restore, the state of the comforts of a game
// played over days (doc.go): the clocks of an increment, quiet hours,
// players away, a stopped clock, a late one, and the plans.
func (g *Game) checkComforts() error {
	s := &g.s
	runs := s.Result == nil && g.clocked(g.ToMove())
	for c := range s.Players {
		c := engine.Color(c)
		if err := s.Quiet[c].check(); err != nil {
			return invalid("the quiet hours of %v: %v", c, err)
		}
		if !g.whole() && s.Clocks[c] != 0 || s.Clocks[c] < 0 || s.Clocks[c] > 2*s.MoveTime || g.Player(c).IsAI() && s.Clocks[c] != 0 {
			return invalid("%v has %v on a clock of %v", c, s.Clocks[c], g.Clock())
		}
		if !s.Away[c].IsZero() && g.Player(c).IsAI() {
			return invalid("the computer cannot be away")
		}
	}
	switch {
	case s.Stopped < 0 || s.Stopped > 0 && (!runs || s.Away[g.ToMove()].IsZero() || !s.Deadline.IsZero()):
		return invalid("a clock stopped with %v, but %v is not away or no clock runs", s.Stopped, g.ToMove())
	case s.Late && (!runs || s.Deadline.IsZero() || s.Timeouts != Claim || g.Ply() < 2):
		return invalid("a clock ran out waiting for a claim, but the game does not wait for claims or no clock runs")
	}
	return g.checkPlans()
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
func (g *Game) State() State { return g.s.clone() }

// clone returns a copy of s that shares nothing with it.
func (s State) clone() State {
	s.Moves = slices.Clone(s.Moves)
	s.DrawOffer, s.Result = clonePtr(s.DrawOffer), clonePtr(s.Result)
	for c := range s.Plans {
		s.Plans[c] = cloneLines(s.Plans[c])
	}
	if s.PlanLog != nil {
		log := make([]Plan, len(s.PlanLog))
		for i, p := range s.PlanLog {
			p.Lines = cloneLines(p.Lines)
			log[i] = p
		}
		s.PlanLog = log
	}
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
