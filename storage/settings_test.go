package storage

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSettings(t *testing.T) {
	defaults := GuildSettings{Threads: true, MoveTime: 24 * time.Hour}
	s := mustOpen(t, Options{GuildDefaults: defaults, UserDefaults: UserSettings{DMReminders: true}})

	g, err := s.GuildSettings(guild)
	require.NoError(t, err)
	assert.Equal(t, defaults, g, "a guild starts with the defaults")

	g, err = s.UpdateGuildSettings(guild, func(g *GuildSettings) error {
		g.Hints = true
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, GuildSettings{Threads: true, MoveTime: 24 * time.Hour, Hints: true}, g)
	g, err = s.GuildSettings(guild)
	require.NoError(t, err)
	assert.True(t, g.Hints)
	other, err := s.GuildSettings("other")
	require.NoError(t, err)
	assert.Equal(t, defaults, other, "settings are per guild")

	u, err := s.UserSettings(alice.UserID)
	require.NoError(t, err)
	assert.True(t, u.DMReminders)
	_, err = s.UpdateUserSettings(alice.UserID, func(u *UserSettings) error {
		u.DMReminders = false
		return nil
	})
	require.NoError(t, err)
	u, err = s.UserSettings(alice.UserID)
	require.NoError(t, err)
	assert.False(t, u.DMReminders)
}

func TestUpdateSettingsRefuses(t *testing.T) {
	s := mustOpen(t, Options{})
	boom := errors.New("boom")
	tests := []struct {
		name, guild string
		fn          func(*GuildSettings) error
		want        error
		msg         string
	}{
		{"negative move time", guild, func(g *GuildSettings) error { g.MoveTime = -time.Minute; return nil }, ErrInvalid, "the move time -1m0s is negative"},
		{"fn fails", guild, func(g *GuildSettings) error { g.Hints = true; return boom }, boom, "boom"},
		{"no guild", "", func(g *GuildSettings) error { g.Hints = true; return nil }, ErrInvalid, "ID is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.UpdateGuildSettings(tt.guild, tt.fn)
			assert.ErrorIs(t, err, tt.want)
			assert.ErrorContains(t, err, tt.msg)
			g, err := s.GuildSettings(tt.guild)
			require.NoError(t, err)
			assert.Equal(t, GuildSettings{}, g, "nothing was written")
		})
	}
}
