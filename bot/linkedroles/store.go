package linkedroles

import (
	"context"

	"github.com/kulami/kulami/storage"
)

// Store is what Linked Roles reads and keeps. Each method returns an
// error wrapping storage.ErrNotFound for what is not stored (a link, a
// profile, a puzzle record).
type Store interface {
	// RoleLink returns the user's link.
	RoleLink(ctx context.Context, userID string) (*storage.RoleLink, error)
	// UpdateRoleLink changes, or with a token makes, the user's link (see
	// storage.Core.UpdateRoleLink).
	UpdateRoleLink(ctx context.Context, userID string, fn func(*storage.RoleLink) error) (*storage.RoleLink, error)
	// DeleteRoleLink forgets the user's link.
	DeleteRoleLink(ctx context.Context, userID string) error
	// Profile returns the user's standing on a ladder of a guild.
	Profile(ctx context.Context, guildID, userID string, ladder storage.Ladder) (*storage.Profile, error)
	// PuzzleProfile returns the user's record at puzzles.
	PuzzleProfile(ctx context.Context, userID string) (*storage.PuzzleProfile, error)
	// PlayerGames returns the user's active games, for the guilds a new
	// link counts.
	PlayerGames(ctx context.Context, userID string) ([]*storage.Game, error)
}
