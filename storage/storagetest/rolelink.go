package storagetest

import (
	"errors"
	"testing"
	"time"

	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testRoleLink: a role link is made only with its token, changed in
// place, kept across the store's copies (Export) and forgotten.
func testRoleLink(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	ctx := t.Context()
	t0 := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

	_, err := s.RoleLink(ctx, alice.UserID)
	require.ErrorIs(t, err, storage.ErrNotFound, "nobody is linked at first")

	_, err = s.UpdateRoleLink(ctx, alice.UserID, func(l *storage.RoleLink) error {
		l.AddGuild(guild)
		return nil
	})
	require.ErrorIs(t, err, storage.ErrNotFound, "a link without a token is not made")
	_, err = s.RoleLink(ctx, alice.UserID)
	require.ErrorIs(t, err, storage.ErrNotFound)

	refused := errors.New("refused")
	_, err = s.UpdateRoleLink(ctx, alice.UserID, func(l *storage.RoleLink) error {
		l.Token = []byte{1}
		return refused
	})
	require.ErrorIs(t, err, refused)
	_, err = s.RoleLink(ctx, alice.UserID)
	require.ErrorIs(t, err, storage.ErrNotFound, "fn's error writes nothing")

	l, err := s.UpdateRoleLink(ctx, alice.UserID, func(l *storage.RoleLink) error {
		l.Token, l.Linked = []byte{0, 1, 2, 255}, t0
		l.AddGuild(guild)
		return nil
	})
	require.NoError(t, err)
	want := &storage.RoleLink{UserID: alice.UserID, Token: []byte{0, 1, 2, 255}, Linked: t0, Guilds: []string{guild}}
	assert.Equal(t, want, l)
	got, err := s.RoleLink(ctx, alice.UserID)
	require.NoError(t, err)
	assert.Equal(t, want, got)

	_, err = s.UpdateRoleLink(ctx, alice.UserID, func(l *storage.RoleLink) error {
		assert.False(t, l.AddGuild(guild), "a guild is counted once")
		assert.True(t, l.AddGuild(""))
		l.Champion = true
		return nil
	})
	require.NoError(t, err)
	got, err = s.RoleLink(ctx, alice.UserID)
	require.NoError(t, err)
	assert.Equal(t, []string{guild, ""}, got.Guilds)
	assert.True(t, got.Champion)

	_, err = s.UpdateRoleLink(ctx, alice.UserID, func(l *storage.RoleLink) error {
		l.Token = nil
		return nil
	})
	require.ErrorIs(t, err, storage.ErrInvalid, "a stored link keeps a token")

	var exported []*storage.RoleLink
	require.NoError(t, s.Export(ctx, func(r storage.Record) error {
		if l, ok := storage.RoleLinkRecords.Of(r); ok {
			exported = append(exported, l)
		}
		return nil
	}))
	require.Len(t, exported, 1)
	assert.Equal(t, got, exported[0])

	require.NoError(t, s.DeleteRoleLink(ctx, alice.UserID))
	_, err = s.RoleLink(ctx, alice.UserID)
	require.ErrorIs(t, err, storage.ErrNotFound)
	require.NoError(t, s.DeleteRoleLink(ctx, alice.UserID), "forgetting twice is no error")
}
