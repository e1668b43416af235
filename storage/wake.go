package storage

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// WakeKind says what a Wake is about.
type WakeKind uint8

// The kinds of wake.
const (
	WakeGame      WakeKind = iota // the active game of a channel
	WakeChallenge                 // the open challenge of a channel
	// WakeReview is the review of a finished game, asked for: it has no
	// time in the index, only leases (Claim), and its ChannelID is the
	// guild and game, "guild/123".
	WakeReview
	// WakeSeason is the end of a season in a guild, whose top three are
	// posted then: like WakeReview, it has only leases, and its
	// ChannelID is the guild.
	WakeSeason
	// WakeTournament is a tournament: its ChannelID is the guild and
	// tournament, "guild/123" (TournamentKey).
	WakeTournament
	// WakeFinal is the final board of a finished game, owed (see
	// SetFinalBoard): its ChannelID is the guild and game, as
	// FinishedWake writes them.
	WakeFinal
	// WakeVacation is the vacation of a player (Vacation): its
	// ChannelID is the user's ID.
	WakeVacation
)

var wakeNames = names{"game", "challenge", "review", "season", "tournament", "final", "vacation"}

// FinishedWake returns the ChannelID of the wakes and leases of the
// finished game id of guild (WakeReview, WakeFinal): "guild/123".
func FinishedWake(guild string, id uint64) string { return guildKey(guild, id) }

// ParseFinishedWake is the inverse of FinishedWake.
func ParseFinishedWake(s string) (guild string, id uint64, err error) {
	return parseGuildKey(s, "finished game")
}

// guildKey names the thing id of guild in a wake's ChannelID, where a
// channel would be: "guild/123".
func guildKey(guild string, id uint64) string { return guild + "/" + strconv.FormatUint(id, 10) }

// parseGuildKey is the inverse of guildKey; what names the thing in the
// error.
func parseGuildKey(s, what string) (guild string, id uint64, err error) {
	i := strings.LastIndexByte(s, '/') // the ID holds none
	if i >= 0 {
		guild = s[:i]
		id, err = strconv.ParseUint(s[i+1:], 10, 64)
	}
	if i < 0 || err != nil {
		return "", 0, fmt.Errorf("%w: %q names no %s", ErrInvalid, s, what)
	}
	return guild, id, nil
}

// String returns "game", "challenge", "review", "season", "tournament",
// "final" or "vacation".
func (k WakeKind) String() string { return wakeNames.text("WakeKind", uint8(k)) }

// Wake is an entry of the time index: the game or challenge of channel
// ChannelID asked to be looked at, at At (its WakeAt).
type Wake struct {
	Kind      WakeKind
	ChannelID string
	At        time.Time
}

// NextWake returns the earliest WakeAt of all active games, open
// challenges and vacations under way, or false if none has one. A scheduler sleeps until then (or
// until a write sets an earlier one).
func (s *Core) NextWake(ctx context.Context) (time.Time, bool, error) {
	var at time.Time
	var ok bool
	err := s.b.View(ctx, func(tx Tx) error {
		var err error
		at, ok, err = tx.NextWake()
		return err
	})
	if err != nil {
		return time.Time{}, false, fmt.Errorf("next wake: %w", err)
	}
	return at, ok, nil
}

// Due returns every wake at or before now, earliest first (then games
// before challenges before vacations, then by channel). Handling one
// means an UpdateGame, UpdateChallenge or UpdateVacation that sets the
// next WakeAt (or zero); until then it
// stays due, so a wake is never lost to a crash.
func (s *Core) Due(ctx context.Context, now time.Time) ([]Wake, error) {
	out, err := inTx(ctx, s.b.View, func(tx Tx) ([]Wake, error) { return tx.Due(now) })
	if err != nil {
		return nil, fmt.Errorf("due wakes: %w", err)
	}
	return out, nil
}
