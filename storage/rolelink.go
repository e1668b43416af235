package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// RoleLink is a user's link to Discord's Linked Roles (package
// bot/linkedroles): the OAuth2 grant with which the bot pushes the
// user's metadata, sealed by the bot (Token is ciphertext, opaque to
// storage, which holds no key), and what the metadata count that the
// ladders do not keep for the user across guilds. It is a plain value,
// not safe for concurrent use.
type RoleLink struct {
	UserID string `json:"user"`
	// Token is the sealed grant; never empty in a stored link.
	Token []byte `json:"token"`
	// Linked is when the user linked (or linked again).
	Linked time.Time `json:"linked"`
	// Guilds are the guilds whose human ladders count for the user's
	// metadata, in the order they were added ("" is that of the games
	// played outside servers).
	Guilds []string `json:"guilds,omitempty"`
	// Champion is set once the user won a season in any guild.
	Champion bool `json:"champion,omitempty"`
}

// AddGuild adds guild to Guilds unless it is there, and reports whether
// it added it.
func (l *RoleLink) AddGuild(guild string) bool {
	if slices.Contains(l.Guilds, guild) {
		return false
	}
	l.Guilds = append(l.Guilds, guild)
	return true
}

// check returns an error wrapping ErrInvalid if l may not be stored.
func (l *RoleLink) check() error {
	if err := checkID("user ID", l.UserID); err != nil {
		return err
	}
	if len(l.Token) == 0 {
		return fmt.Errorf("%w: role link of %s without a token", ErrInvalid, l.UserID)
	}
	return nil
}

// errNoRoleLink stops UpdateRoleLink without writing: fn left no token
// on a user who had no link.
var errNoRoleLink = errors.New("no role link")

// RoleLink returns the role link of the user, or an error wrapping
// ErrNotFound if they have none.
func (s *Core) RoleLink(ctx context.Context, userID string) (*RoleLink, error) {
	l, err := inTx(ctx, s.b.View, func(tx Tx) (*RoleLink, error) { return tx.RoleLink(userID) })
	if err != nil {
		return nil, fmt.Errorf("role link of %s: %w", userID, err)
	}
	return l, nil
}

// UpdateRoleLink changes the role link of the user in one transaction:
// fn is called with the stored link (one with only UserID if there is
// none) and what it leaves is stored. It returns the link as stored. If
// fn returns an error, nothing is written; if the user had no link and fn
// leaves no Token, nothing is written and the error wraps ErrNotFound (a
// link is made only with its token). A link without a user ID is
// refused (ErrInvalid). fn must be quick and must not call the store.
func (s *Core) UpdateRoleLink(ctx context.Context, userID string, fn func(l *RoleLink) error) (*RoleLink, error) {
	l, err := inTx(ctx, s.b.Update, func(tx Tx) (*RoleLink, error) {
		l, err := tx.RoleLink(userID)
		fresh := errors.Is(err, ErrNotFound)
		switch {
		case fresh:
			l = &RoleLink{UserID: userID}
		case err != nil:
			return nil, err
		}
		if err := fn(l); err != nil {
			return nil, err
		}
		l.UserID = userID
		if fresh && len(l.Token) == 0 {
			return nil, fmt.Errorf("%w: %w", ErrNotFound, errNoRoleLink)
		}
		if err := l.check(); err != nil {
			return nil, err
		}
		return l, tx.PutRoleLink(l)
	})
	if err != nil {
		return nil, fmt.Errorf("update the role link of %s: %w", userID, err)
	}
	return l, nil
}

// DeleteRoleLink forgets the role link of the user, if any.
func (s *Core) DeleteRoleLink(ctx context.Context, userID string) error {
	if err := s.b.Update(ctx, func(tx Tx) error { return tx.DeleteRoleLink(userID) }); err != nil {
		return fmt.Errorf("delete the role link of %s: %w", userID, err)
	}
	return nil
}
