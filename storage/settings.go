package storage

import (
	"context"
	"fmt"
	"time"

	"github.com/kulami/kulami/engine/game"
)

// GuildSettings are the settings of one guild.
type GuildSettings struct {
	Threads  bool          `json:"threads"`             // play each game in a thread of its own
	MoveTime time.Duration `json:"move_time,omitempty"` // default time for a move
	Hints    bool          `json:"hints"`               // players may ask for the computer's suggestion (/kulami hint)
	// Language is the language of the guild's public messages, as the
	// guild chose it (a code such as "fr"); empty until it chooses one.
	Language string `json:"language,omitempty"`
	// Locale is the guild's Discord locale (guild_locale) as last seen in
	// an interaction, for messages sent without one (reminders, timeouts).
	Locale string `json:"locale,omitempty"`
	// SeasonChannel is the channel where the top three of each season
	// are posted when it ends; empty for none.
	SeasonChannel string `json:"season_channel,omitempty"`
	// SeasonPosted is the last season whose end was dealt with: its top
	// three posted in SeasonChannel, or nothing to post. Marked before
	// the post, so that no season is ever posted twice.
	SeasonPosted Season `json:"season_posted,omitzero"`
	// AutoTimeouts ends a game at once when a clock runs out (game.Auto);
	// by default the opponent claims the win (game.Claim).
	AutoTimeouts bool `json:"auto_timeouts,omitempty"`
	// TournamentRole is the role whose members may create tournaments
	// besides those with Manage Server; empty for none.
	TournamentRole string `json:"tournament_role,omitempty"`
	// Weekends is the default of new challenges: pause the clocks over
	// each player's weekend.
	Weekends bool `json:"weekends,omitempty"`
	// VacationDays, if not nil, is the most days a vacation bank holds in
	// the guild (game.VacationCap until the guild lowers it); 0 turns
	// vacations off.
	VacationDays *int `json:"vacation_days,omitempty"`
	// Theme is the Discord theme the guild's public images are drawn
	// for, "light" or "dark"; "" for dark.
	Theme string `json:"theme,omitempty"`
	// Marbles is the set of marbles the guild's public images are drawn
	// with, "standard" or "colour-blind"; "" for standard.
	Marbles string `json:"marbles,omitempty"`
	// PuzzleChannel is the channel where the daily puzzle is posted;
	// empty for none.
	PuzzleChannel string `json:"puzzle_channel,omitempty"`
}

// Timeouts returns what the guild's new games do when a clock runs out.
func (g GuildSettings) Timeouts() game.Timeouts {
	if g.AutoTimeouts {
		return game.Auto
	}
	return game.Claim
}

// UserSettings are the settings of one user, in every guild.
type UserSettings struct {
	DMReminders bool `json:"dm_reminders"` // send reminders as direct messages
	// Locale is the user's Discord locale as last seen in an interaction,
	// for direct messages.
	Locale string `json:"locale,omitempty"`
	// TimeZone is the IANA name of the user's time zone, for their clock
	// in new games (weekends, quiet hours); "" for UTC.
	TimeZone string `json:"time_zone,omitempty"`
	// Quiet are the user's quiet hours, in their time zone.
	Quiet game.Quiet `json:"quiet_hours,omitzero"`
	// Theme is the Discord theme the images only the user sees are drawn
	// for, "light" or "dark"; "" for the guild's (GuildSettings.Theme).
	Theme string `json:"theme,omitempty"`
	// Marbles is the set of marbles the images only the user sees are
	// drawn with, "standard" or "colour-blind"; "" for the guild's
	// (GuildSettings.Marbles).
	Marbles string `json:"marbles,omitempty"`
}

// GuildSettings returns the settings of the guild: Options.GuildDefaults
// until the guild changes them.
func (s *Core) GuildSettings(ctx context.Context, guildID string) (GuildSettings, error) {
	return readSettings(ctx, s, "guilds", guildID, s.opt.GuildDefaults, Tx.GuildSettings)
}

// UpdateGuildSettings changes the settings of the guild in one
// transaction: fn changes the current settings (see GuildSettings), and
// nothing is written if it returns an error. A negative MoveTime or
// VacationDays, or an unusable SeasonChannel or PuzzleChannel ID, is refused (ErrInvalid).
func (s *Core) UpdateGuildSettings(ctx context.Context, guildID string, fn func(*GuildSettings) error) (GuildSettings, error) {
	return updateSettings(ctx, s, "guilds", guildID, s.opt.GuildDefaults, Tx.GuildSettings, Tx.PutGuildSettings, func(g *GuildSettings) error {
		if err := fn(g); err != nil {
			return err
		}
		if g.MoveTime < 0 {
			return fmt.Errorf("%w: the move time %v is negative", ErrInvalid, g.MoveTime)
		}
		if g.VacationDays != nil && *g.VacationDays < 0 {
			return fmt.Errorf("%w: the vacation cap of %d days is negative", ErrInvalid, *g.VacationDays)
		}
		if g.SeasonChannel != "" {
			if err := checkID("season channel", g.SeasonChannel); err != nil {
				return err
			}
		}
		if g.PuzzleChannel != "" {
			return checkID("puzzle channel", g.PuzzleChannel)
		}
		return nil
	})
}

// UserSettings returns the settings of the user: Options.UserDefaults
// until the user changes them.
func (s *Core) UserSettings(ctx context.Context, userID string) (UserSettings, error) {
	return readSettings(ctx, s, "users", userID, s.opt.UserDefaults, Tx.UserSettings)
}

// UpdateUserSettings changes the settings of the user in one transaction:
// fn changes the current settings (see UserSettings), and nothing is
// written if it returns an error.
func (s *Core) UpdateUserSettings(ctx context.Context, userID string, fn func(*UserSettings) error) (UserSettings, error) {
	return updateSettings(ctx, s, "users", userID, s.opt.UserDefaults, Tx.UserSettings, Tx.PutUserSettings, fn)
}

// getSettings reads the settings of id with get, or returns def.
func getSettings[T any](tx Tx, get func(Tx, string) (*T, error), id string, def T) (*T, error) {
	v, err := get(tx, id)
	if isNotFound(err) {
		return &def, nil
	}
	return v, err
}

// readSettings returns the settings of id (of the kind named what), or
// def.
func readSettings[T any](ctx context.Context, s *Core, what, id string, def T, get func(Tx, string) (*T, error)) (T, error) {
	v, err := inTx(ctx, s.b.View, func(tx Tx) (*T, error) { return getSettings(tx, get, id, def) })
	if err != nil {
		return def, fmt.Errorf("%s %s: %w", what, id, err)
	}
	return *v, nil
}

// updateSettings changes the settings of id (of the kind named what) with
// fn.
func updateSettings[T any](ctx context.Context, s *Core, what, id string, def T, get func(Tx, string) (*T, error), put func(Tx, string, *T) error, fn func(*T) error) (T, error) {
	v, err := inTx(ctx, s.b.Update, func(tx Tx) (*T, error) {
		if err := checkID("ID", id); err != nil {
			return nil, err
		}
		v, err := getSettings(tx, get, id, def)
		if err != nil {
			return nil, err
		}
		if err := fn(v); err != nil {
			return nil, err
		}
		return v, put(tx, id, v)
	})
	if err != nil {
		return def, fmt.Errorf("update %s %s: %w", what, id, err)
	}
	return *v, nil
}

// SeasonChannels returns the settings of every guild that chose a
// SeasonChannel, by guild.
func (s *Core) SeasonChannels(ctx context.Context) ([]GuildSettingsEntry, error) {
	return s.guildsWith(ctx, "season channels", func(g *GuildSettings) bool { return g.SeasonChannel != "" })
}

// PuzzleChannels returns the settings of every guild that chose a
// PuzzleChannel, by guild.
func (s *Core) PuzzleChannels(ctx context.Context) ([]GuildSettingsEntry, error) {
	return s.guildsWith(ctx, "puzzle channels", func(g *GuildSettings) bool { return g.PuzzleChannel != "" })
}

// guildsWith returns the settings of every guild whose settings keep,
// by guild; what names them in an error.
func (s *Core) guildsWith(ctx context.Context, what string, keep func(*GuildSettings) bool) ([]GuildSettingsEntry, error) {
	var out []GuildSettingsEntry
	err := s.b.View(ctx, func(tx Tx) error {
		out = out[:0]
		return tx.EachGuildSettings(func(e *GuildSettingsEntry) error {
			if keep(&e.Settings) {
				out = append(out, *e)
			}
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	return out, nil
}
