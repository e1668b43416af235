package storage

import (
	"fmt"
	"time"

	"github.com/kulami/kulami/engine"
)

// Move is one marble placed: where and when.
type Move struct {
	Cell engine.Cell `json:"cell"`
	At   time.Time   `json:"at"`
}

// DrawOffer is a player's offer of a draw.
type DrawOffer struct {
	By  engine.Color `json:"by"`
	Ply int          `json:"ply"` // the ply it was made at; an offer of another ply has lapsed
}

// Game is the game played in one channel.
//
// The store fills in ID; the bot fills in the rest. Layout, Rules, First,
// the players' IDs and the channel stay as the game was created; Moves,
// the clock fields, BoardMessageID, DrawOffer, WakeAt and Result change
// through UpdateGame. A Game is a plain value, not safe for concurrent use;
// every Game the store returns is the caller's own copy.
type Game struct {
	ID              uint64        `json:"id"`               // unique, set by CreateGame
	GuildID         string        `json:"guild,omitempty"`  // "" in direct messages
	ChannelID       string        `json:"channel"`          // the channel (or thread) the game is played in
	ParentChannelID string        `json:"parent,omitempty"` // the channel a thread was opened from, else ""
	Layout          string        `json:"layout"`           // canonical layout string (RECORD.md)
	Rules           engine.Rules  `json:"rules"`
	First           engine.Color  `json:"first"`   // the colour that moves first
	Players         [2]Player     `json:"players"` // indexed by engine.Color
	Moves           []Move        `json:"moves,omitempty"`
	Created         time.Time     `json:"created"`
	MoveTime        time.Duration `json:"move_time,omitempty"` // time allowed for each move; 0: no limit
	Deadline        time.Time     `json:"deadline,omitzero"`   // when the player to move runs out of time
	Reminders       uint8         `json:"reminders,omitempty"` // reminders sent for the current turn
	BoardMessageID  string        `json:"board_message,omitempty"`
	DrawOffer       *DrawOffer    `json:"draw_offer,omitempty"`
	// WakeAt is when the scheduler should next look at the game (a
	// reminder, a timeout); zero when nothing is scheduled. See Store.Due.
	WakeAt time.Time `json:"wake_at,omitzero"`
	// Result is set when the game has ended; the store then moves the game
	// to the finished games.
	Result *Result `json:"result,omitempty"`
}

// Ply returns the number of marbles placed.
func (g *Game) Ply() int { return len(g.Moves) }

// ToMove returns the colour whose turn it is (after the end: whose turn it
// would be).
func (g *Game) ToMove() engine.Color { return g.First ^ engine.Color(len(g.Moves)&1) }

// Ladder returns the ladder the game counts on: AI if a computer opponent
// plays, else Human.
func (g *Game) Ladder() Ladder {
	if g.Players[engine.Red].IsAI() || g.Players[engine.Black].IsAI() {
		return AI
	}
	return Human
}

// PlayerColor returns the colour played by the user with ID userID, or
// false if the user does not play in g.
func (g *Game) PlayerColor(userID string) (engine.Color, bool) {
	for c, p := range g.Players {
		if userID != "" && p.UserID == userID {
			return engine.Color(c), true
		}
	}
	return 0, false
}

// Position replays the game's moves. It fails only for a game the store
// would refuse: a bad layout (wrapping engine.ErrLayout) or an illegal move
// (an *engine.MoveError).
func (g *Game) Position() (engine.Position, error) {
	l, err := engine.ParseLayout(g.Layout)
	if err != nil {
		return engine.Position{}, err
	}
	p := engine.NewPosition(l, g.First)
	for i, m := range g.Moves {
		if err := p.Play(m.Cell); err != nil {
			return p, &engine.MoveError{Ply: i + 1, Move: m.Cell.String(), Err: err}
		}
	}
	return p, nil
}

// Play places the next marble at cell c at time at and returns the new
// position. An illegal move returns the engine's *engine.RuleError
// (engine.ErrGameOver once the game has a Result) and leaves g unchanged.
// A move that ends the game (RULES.md: all marbles placed, or no legal
// hole for the next player) also sets g.Result, as Finish(Normal) does.
func (g *Game) Play(c engine.Cell, at time.Time) (engine.Position, error) {
	if g.Result != nil {
		return engine.Position{}, engine.ErrGameOver
	}
	p, err := g.Position()
	if err != nil {
		return p, err
	}
	if err := p.Play(c); err != nil {
		return p, err
	}
	if p.IsOver() {
		r, err := newResult(&p, g.Rules, Normal, 0, at)
		if err != nil {
			return p, err
		}
		g.Result = r
	}
	g.Moves = append(g.Moves, Move{Cell: c, At: at})
	return p, nil
}

// Finish ends the game at time at as ending says, setting g.Result: Normal
// (only once no move is left) gives the game to the higher score,
// Resigned and TimedOut to the opponent of loser, DrawAgreed is a draw
// whatever the score, and Aborted counts for nobody. loser is ignored
// except for Resigned and TimedOut. A game that already has a Result
// returns engine.ErrGameOver; any other refusal wraps ErrInvalid.
func (g *Game) Finish(ending Ending, loser engine.Color, at time.Time) error {
	if g.Result != nil {
		return engine.ErrGameOver
	}
	p, err := g.Position()
	if err != nil {
		return err
	}
	r, err := newResult(&p, g.Rules, ending, loser, at)
	if err != nil {
		return err
	}
	g.Result = r
	return nil
}

// Record returns the game record (RECORD.md) with the tags Game, Red,
// Black, Date (the day the game was created, UTC) and Result (see
// Result.String, or "*" while the game goes on, when the moves also end
// with the result word "*").
func (g *Game) Record() (*engine.Record, error) {
	l, err := engine.ParseLayout(g.Layout)
	if err != nil {
		return nil, err
	}
	r := engine.NewRecord(l, g.First, g.Rules)
	r.SetTag("Game", "Kulami")
	r.SetTag("Red", g.Players[engine.Red].Name)
	r.SetTag("Black", g.Players[engine.Black].Name)
	r.SetTag("Date", g.Created.UTC().Format("2006.01.02"))
	if g.Result != nil {
		r.SetTag("Result", g.Result.String())
	} else {
		r.SetTag("Result", "*")
		r.Result = "*"
	}
	for _, m := range g.Moves {
		r.Moves = append(r.Moves, m.Cell.String())
	}
	return r, nil
}

// check returns an error wrapping ErrInvalid if g may not be stored: a bad
// ID, layout, rule set, colour or player, an illegal move, a game that is
// over without a Result, or a Result that does not follow from the moves.
func (g *Game) check() error {
	if err := checkGuildID(g.GuildID); err != nil {
		return err
	}
	if err := checkID("channel ID", g.ChannelID); err != nil {
		return err
	}
	if g.ParentChannelID != "" {
		if err := checkID("parent channel ID", g.ParentChannelID); err != nil {
			return err
		}
	}
	if err := checkSettings(g.Layout, g.Rules, g.MoveTime); err != nil {
		return err
	}
	if g.First != engine.Red && g.First != engine.Black {
		return fmt.Errorf("%w: the first colour must be red or black, not %v", ErrInvalid, g.First)
	}
	for c, p := range g.Players {
		if err := p.check(engine.Color(c).String() + " player"); err != nil {
			return err
		}
	}
	if g.Players[engine.Red].ProfileID() == g.Players[engine.Black].ProfileID() {
		return fmt.Errorf("%w: %s cannot play against themself", ErrInvalid, g.Players[engine.Red].ProfileID())
	}
	if g.Created.IsZero() {
		return fmt.Errorf("%w: the game has no creation time", ErrInvalid)
	}
	if d := g.DrawOffer; d != nil && d.By != engine.Red && d.By != engine.Black {
		return fmt.Errorf("%w: a draw offer must be by red or black, not %v", ErrInvalid, d.By)
	}
	p, err := g.Position()
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if g.Result == nil {
		if p.IsOver() {
			return fmt.Errorf("%w: the game is over after %d moves but has no result", ErrInvalid, p.Ply())
		}
		return nil
	}
	want, err := newResult(&p, g.Rules, g.Result.Ending, g.Result.Winner.Other(), g.Result.At)
	if err != nil {
		return err
	}
	if !want.same(g.Result) {
		return fmt.Errorf("%w: the result %q does not follow from the moves (%q would)", ErrInvalid, g.Result, want)
	}
	return nil
}

// checkSettings returns an error wrapping ErrInvalid unless layout, rules
// and moveTime may start a game; layout must be canonical.
func checkSettings(layout string, rules engine.Rules, moveTime time.Duration) error {
	l, err := engine.ParseLayout(layout)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	}
	if s := l.String(); s != layout {
		return fmt.Errorf("%w: layout %q is not canonical; store %q", ErrInvalid, layout, s)
	}
	if rules > engine.Full {
		return fmt.Errorf("%w: unknown rule set %v", ErrInvalid, rules)
	}
	if moveTime < 0 {
		return fmt.Errorf("%w: the move time %v is negative", ErrInvalid, moveTime)
	}
	return nil
}

// canonicalLayout returns the canonical form of a layout string, or s
// itself if it does not parse (check then says why).
func canonicalLayout(s string) string {
	if l, err := engine.ParseLayout(s); err == nil {
		return l.String()
	}
	return s
}

// checkUpdate returns an error wrapping ErrInvalid if g, changed by an
// update function, differs from the stored old in a field that may not
// change.
func (g *Game) checkUpdate(old *Game) error {
	switch {
	case g.ID != old.ID, g.GuildID != old.GuildID, g.ChannelID != old.ChannelID,
		g.ParentChannelID != old.ParentChannelID, g.Layout != old.Layout, g.Rules != old.Rules,
		g.First != old.First, !g.Created.Equal(old.Created):
		return fmt.Errorf("%w: game %d: the ID, place, layout, rules, first colour and creation time may not change", ErrInvalid, old.ID)
	}
	for c := range g.Players {
		if g.Players[c].UserID != old.Players[c].UserID || g.Players[c].AI != old.Players[c].AI {
			return fmt.Errorf("%w: game %d: the players may not change (only their names)", ErrInvalid, old.ID)
		}
	}
	return nil
}
