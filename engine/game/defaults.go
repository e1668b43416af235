package game

import (
	"cmp"
	"time"
)

// Defaults are what a new game takes for what its players did not ask:
// the settings of the server it is played in, then the bot's own. The
// zero Defaults is a server that set nothing, a bot without a move time.
type Defaults struct {
	// ServerMoveTime is the server's default move time; 0 where it set
	// none.
	ServerMoveTime time.Duration
	// BotMoveTime is the bot's default move time, for a server that set
	// none; 0 for none.
	BotMoveTime time.Duration
	// Weekends: the server pauses its games over weekends by default.
	Weekends bool
	// Timeouts is what the server's games do when a clock runs out.
	Timeouts Timeouts
}

// Asked is what the players of a new game asked for, each nil where they
// asked for nothing: a clock ("3d", "10m": a challenge's move_time, a
// tournament's), and whether clocks pause over weekends.
type Asked struct {
	Clock    *MoveTime
	Weekends *bool
}

// Settings are the clock and comforts a new game is played with, as a
// Config holds them (Apply).
type Settings struct {
	Clock    MoveTime
	Weekends bool
	Timeouts Timeouts
}

// Settings returns the settings of a new game in which the players asked
// for asked, against the computer if computer. The clock is the one
// asked for, else the server's default move time, else the bot's, per
// move (MoveTime.Explicit). Weekends pause as asked, else as the server
// says; never in a game against the computer, which has no weekend and
// waits for no one, nor in a game under an hour (MoveTime.Pauses): asking
// for a weekend pause with such a clock is refused with ErrLiveGame. Timeouts
// are the server's; a game against the computer ends on time at once
// (the computer claims nothing), and so does a live game (New).
//
// Every new game takes its settings from here: a challenge (then
// accepted), a game against the computer and its rematch, and a
// tournament's round. A rematch between two people offers the settings
// of the game it follows (engine/challenge.Rematch).
func (d Defaults) Settings(asked Asked, computer bool) (Settings, error) {
	s := Settings{Clock: MoveTime{Start: cmp.Or(d.ServerMoveTime, d.BotMoveTime)}, Weekends: d.Weekends, Timeouts: d.Timeouts}
	if asked.Clock != nil {
		s.Clock = *asked.Clock
	}
	s.Clock = s.Clock.Explicit()
	if asked.Weekends != nil {
		if *asked.Weekends && !s.Clock.Pauses() {
			return Settings{}, ErrLiveGame
		}
		s.Weekends = *asked.Weekends
	}
	if computer {
		s.Weekends, s.Timeouts = false, Auto
	}
	if !s.Clock.Pauses() {
		s.Weekends = false
	}
	return s, nil
}

// Apply sets the clock and comforts of cfg to s.
func (s Settings) Apply(cfg *Config) {
	cfg.MoveTime, cfg.Increment, cfg.Kind = s.Clock.Start, s.Clock.Increment, s.Clock.Kind
	cfg.Weekends, cfg.Timeouts = s.Weekends, s.Timeouts
}
