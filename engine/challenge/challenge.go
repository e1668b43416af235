package challenge

import (
	"fmt"
	"time"

	"github.com/kulami/kulami/engine"
	"github.com/kulami/kulami/engine/game"
)

// Challenge is one player's offer of a game to another: From offers a game
// with these settings to To, or to anyone if To is the zero Player, until
// Expires. It is a plain value, not safe for concurrent use; its JSON is
// how storage keeps it.
type Challenge struct {
	From     game.Player   `json:"from"`
	To       game.Player   `json:"to,omitzero"`
	Layout   string        `json:"layout"` // canonical layout string of the board offered
	Rules    engine.Rules  `json:"rules"`
	First    FirstChoice   `json:"first"`
	MoveTime time.Duration `json:"move_time,omitempty"`
	// Increment, if not zero, makes MoveTime the start of a clock with an
	// increment (game.Config.Increment).
	Increment time.Duration `json:"increment,omitempty"`
	// Kind is how MoveTime counts (game.Config.Kind); none in the
	// challenges of earlier releases, which keep their meaning
	// (game.MoveTime.Explicit).
	Kind game.ClockKind `json:"clock,omitempty"`
	// Timeouts is what the game does when a clock runs out.
	Timeouts game.Timeouts `json:"timeouts,omitempty"`
	// Weekends pauses the game's clocks over each player's weekend
	// (game.Config.Weekends).
	Weekends bool      `json:"weekends,omitempty"`
	Created  time.Time `json:"created"`
	// Expires is when the challenge closes unanswered; zero for never.
	Expires time.Time `json:"expires,omitzero"`
}

// Config is what a challenger offers (see New).
type Config struct {
	From, To game.Player // To is the zero Player for anyone
	Layout   *engine.Layout
	Rules    engine.Rules
	First    FirstChoice
	MoveTime time.Duration
	// Increment, Kind and Timeouts are the game's (game.Config).
	Increment time.Duration
	Kind      game.ClockKind
	Timeouts  game.Timeouts
	Weekends  bool // see Challenge.Weekends
	// Open is how long the challenge stays open; 0 for no expiry.
	Open time.Duration
}

// New returns the challenge cfg describes, made at now. It returns an
// error wrapping ErrSelfChallenge if cfg.From challenges themself, and
// ErrInvalid if cfg cannot be a challenge.
func New(cfg Config, now time.Time) (*Challenge, error) {
	if cfg.Layout == nil {
		return nil, fmt.Errorf("%w: no board", ErrInvalid)
	}
	if cfg.Open < 0 {
		return nil, fmt.Errorf("%w: the time open %v is negative", ErrInvalid, cfg.Open)
	}
	c := &Challenge{From: cfg.From, To: cfg.To, Layout: cfg.Layout.String(), Rules: cfg.Rules,
		First: cfg.First, MoveTime: cfg.MoveTime, Increment: cfg.Increment, Kind: cfg.Kind, Timeouts: cfg.Timeouts, Weekends: cfg.Weekends, Created: now}
	c.Kind = c.Clock().Explicit().Kind
	if cfg.Open > 0 {
		c.Expires = now.Add(cfg.Open)
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	return c, nil
}

// Check returns an error wrapping ErrSelfChallenge if c's challenger
// challenges themself, or ErrInvalid if c cannot be a challenge: no
// creation time, an unknown choice of first player, a board that does not
// parse or is not in its canonical form, an unknown rule set, a negative
// move time, an increment longer than it, a clock kind that does not fit
// (game.MoveTime.CheckKind) or unknown timeouts. The players' IDs are the business of whoever keeps them.
func (c *Challenge) Check() error {
	if c.To != (game.Player{}) && same(c.From, c.To) {
		return fmt.Errorf("%w: %s cannot challenge themself", ErrSelfChallenge, id(c.From))
	}
	l, err := engine.ParseLayout(c.Layout)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %w", ErrInvalid, err)
	case l.String() != c.Layout:
		return fmt.Errorf("%w: layout %q is not canonical; it is %q", ErrInvalid, c.Layout, l.String())
	case c.Rules > engine.Full:
		return fmt.Errorf("%w: unknown rule set %v", ErrInvalid, c.Rules)
	case c.MoveTime < 0:
		return fmt.Errorf("%w: the move time %v is negative", ErrInvalid, c.MoveTime)
	case c.Increment < 0 || c.Increment > c.MoveTime:
		return fmt.Errorf("%w: the increment %v is not from 0 to the move time %v", ErrInvalid, c.Increment, c.MoveTime)
	case c.Clock().CheckKind() != nil:
		return fmt.Errorf("%w: %w", ErrInvalid, c.Clock().CheckKind())
	case c.Timeouts > game.Claim:
		return fmt.Errorf("%w: unknown timeouts %v", ErrInvalid, c.Timeouts)
	case !c.First.valid():
		return fmt.Errorf("%w: unknown choice of first player %v", ErrInvalid, c.First)
	case c.Created.IsZero():
		return fmt.Errorf("%w: the challenge has no creation time", ErrInvalid)
	}
	return nil
}

// same reports whether a and b are the same player: the computer at the
// same level, or the same person whatever their name.
func same(a, b game.Player) bool {
	if a.IsAI() || b.IsAI() {
		return a.AI == b.AI
	}
	return a.UserID == b.UserID
}

// id names p in messages.
func id(p game.Player) string {
	if p.IsAI() {
		return "the computer (" + p.AI + ")"
	}
	return p.UserID
}

// Expired reports whether c can no longer be accepted at now: it has an
// expiry and now is not before it.
func (c *Challenge) Expired(now time.Time) bool {
	return !c.Expires.IsZero() && !now.Before(c.Expires)
}

// Wake returns when a scheduler should look at c next, to close it when it
// expires, or the zero time if it never does.
func (c *Challenge) Wake() time.Time { return c.Expires }

// Clock returns the move clock the challenge offers.
func (c *Challenge) Clock() game.MoveTime {
	return game.MoveTime{Start: c.MoveTime, Increment: c.Increment, Kind: c.Kind}
}

// ForAnyone reports whether c is open to anyone (To is the zero Player):
// the first player but its challenger to accept it plays.
func (c *Challenge) ForAnyone() bool { return c.To == (game.Player{}) }

// CanDecline returns nil if by may decline c: by is the player
// challenged. It returns an error wrapping ErrOwnChallenge for the
// challenger and ErrNotChallenged for anyone else (also for a challenge to
// anyone, which nobody declines: the challenger withdraws it).
func (c *Challenge) CanDecline(by game.Player) error {
	switch {
	case same(by, c.From):
		return ErrOwnChallenge
	case c.ForAnyone() || !same(by, c.To):
		return ErrNotChallenged
	}
	return nil
}

// CanWithdraw returns nil if by may withdraw c, that is if by is its
// challenger, else an error wrapping ErrNotChallenger.
func (c *Challenge) CanWithdraw(by game.Player) error {
	if !same(by, c.From) {
		return ErrNotChallenger
	}
	return nil
}

// Where says where a player lives, for their clock (game.Game.SetLocal):
// their time zone (nil for UTC) and quiet hours.
type Where func(game.Player) (*time.Location, game.Quiet)

// Accept returns the game that starts when by accepts c at now. The
// player who moves first plays red: the one c.First names or, for
// FirstRandom, the challenger if challengerFirst (a lot the caller drew).
// by's name is the challenged player's name in the game. where, if not
// nil, says where each player lives, so that the first clock already
// counts their weekends and quiet hours. It returns an
// error wrapping ErrOwnChallenge if by is the challenger, ErrNotChallenged
// if c is for someone else, ErrExpired if c has expired at now, and
// game.ErrInvalid if c's settings cannot start a game.
func (c *Challenge) Accept(by game.Player, now time.Time, challengerFirst bool, where Where) (*game.Game, error) {
	switch {
	case same(by, c.From):
		return nil, ErrOwnChallenge
	case !c.ForAnyone() && !same(by, c.To):
		return nil, ErrNotChallenged
	case c.Expired(now):
		return nil, ErrExpired
	}
	layout, err := engine.ParseLayout(c.Layout)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", game.ErrInvalid, err)
	}
	if c.First != FirstRandom {
		challengerFirst = c.First == FirstChallenger
	}
	players := [2]game.Player{by, c.From}
	if challengerFirst {
		players = [2]game.Player{c.From, by}
	}
	cfg := game.Config{Layout: layout, Rules: c.Rules, First: engine.Red, Players: players,
		MoveTime: c.MoveTime, Increment: c.Increment, Kind: c.Kind, Timeouts: c.Timeouts, Weekends: c.Weekends}
	if where != nil {
		for i, p := range players {
			cfg.Zones[i], cfg.Quiet[i] = where(p)
		}
	}
	return game.New(cfg, now)
}

// CheckGame returns an error wrapping ErrInvalid unless g may be the game
// of c: both its players play in g (the challenged player if c names one).
func (c *Challenge) CheckGame(g *game.Game) error {
	players := g.Players()
	for _, p := range []game.Player{c.From, c.To} {
		if p != (game.Player{}) && !same(p, players[0]) && !same(p, players[1]) {
			return fmt.Errorf("%w: %s of the challenge does not play in the game", ErrInvalid, id(p))
		}
	}
	return nil
}
