package storagetest

import (
	"errors"
	"testing"
	"time"

	"github.com/kulami/kulami/engine/game"
	"github.com/kulami/kulami/storage"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func testSettings(t *testing.T, open Open) {
	defaults := storage.GuildSettings{Threads: true, MoveTime: 24 * time.Hour}
	s := open(t, storage.Options{GuildDefaults: defaults, UserDefaults: storage.UserSettings{DMReminders: true}})

	g, err := s.GuildSettings(t.Context(), guild)
	require.NoError(t, err)
	assert.Equal(t, defaults, g, "a guild starts with the defaults")

	g, err = s.UpdateGuildSettings(t.Context(), guild, func(g *storage.GuildSettings) error {
		g.Hints = true
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, storage.GuildSettings{Threads: true, MoveTime: 24 * time.Hour, Hints: true}, g)
	g, err = s.GuildSettings(t.Context(), guild)
	require.NoError(t, err)
	assert.True(t, g.Hints)
	other, err := s.GuildSettings(t.Context(), "other")
	require.NoError(t, err)
	assert.Equal(t, defaults, other, "settings are per guild")

	u, err := s.UserSettings(t.Context(), alice.UserID)
	require.NoError(t, err)
	assert.True(t, u.DMReminders)
	_, err = s.UpdateUserSettings(t.Context(), alice.UserID, func(u *storage.UserSettings) error {
		u.DMReminders = false
		return nil
	})
	require.NoError(t, err)
	u, err = s.UserSettings(t.Context(), alice.UserID)
	require.NoError(t, err)
	assert.False(t, u.DMReminders)

	// The guild's language and locale, the user's locale.
	_, err = s.UpdateGuildSettings(t.Context(), guild, func(g *storage.GuildSettings) error {
		g.Language, g.Locale = "fr", "de"
		return nil
	})
	require.NoError(t, err)
	_, err = s.UpdateUserSettings(t.Context(), alice.UserID, func(u *storage.UserSettings) error {
		u.Locale = "es-419"
		return nil
	})
	require.NoError(t, err)
	g, err = s.GuildSettings(t.Context(), guild)
	require.NoError(t, err)
	assert.Equal(t, storage.GuildSettings{Threads: true, MoveTime: 24 * time.Hour, Hints: true, Language: "fr", Locale: "de"}, g)
	u, err = s.UserSettings(t.Context(), alice.UserID)
	require.NoError(t, err)
	assert.Equal(t, storage.UserSettings{Locale: "es-419"}, u)

	// What a clock that runs out does: claims by default.
	assert.Equal(t, game.Claim, g.Timeouts())
	_, err = s.UpdateGuildSettings(t.Context(), guild, func(g *storage.GuildSettings) error {
		g.AutoTimeouts = true
		return nil
	})
	require.NoError(t, err)
	g, err = s.GuildSettings(t.Context(), guild)
	require.NoError(t, err)
	assert.Equal(t, game.Auto, g.Timeouts())

	// Playing over days: the guild's weekend default and vacation cap,
	// the user's time zone and quiet hours.
	days := 0
	_, err = s.UpdateGuildSettings(t.Context(), guild, func(g *storage.GuildSettings) error {
		g.Weekends, g.VacationDays = true, &days
		return nil
	})
	require.NoError(t, err)
	g, err = s.GuildSettings(t.Context(), guild)
	require.NoError(t, err)
	assert.True(t, g.Weekends)
	require.NotNil(t, g.VacationDays, "a cap of 0 (vacations off) is kept, not taken for none")
	assert.Equal(t, 0, *g.VacationDays)
	_, err = s.UpdateUserSettings(t.Context(), alice.UserID, func(u *storage.UserSettings) error {
		u.TimeZone, u.Quiet = "Europe/Paris", game.Quiet{From: 22, To: 8}
		return nil
	})
	require.NoError(t, err)
	u, err = s.UserSettings(t.Context(), alice.UserID)
	require.NoError(t, err)
	assert.Equal(t, storage.UserSettings{Locale: "es-419", TimeZone: "Europe/Paris", Quiet: game.Quiet{From: 22, To: 8}}, u)

	// How boards look: the guild's theme and marbles, and the user's own.
	_, err = s.UpdateGuildSettings(t.Context(), guild, func(g *storage.GuildSettings) error {
		g.Theme, g.Marbles = "light", "colour-blind"
		return nil
	})
	require.NoError(t, err)
	_, err = s.UpdateUserSettings(t.Context(), alice.UserID, func(u *storage.UserSettings) error {
		u.Theme, u.Marbles = "dark", "standard"
		return nil
	})
	require.NoError(t, err)
	g, err = s.GuildSettings(t.Context(), guild)
	require.NoError(t, err)
	assert.Equal(t, "light", g.Theme)
	assert.Equal(t, "colour-blind", g.Marbles)
	u, err = s.UserSettings(t.Context(), alice.UserID)
	require.NoError(t, err)
	assert.Equal(t, "dark", u.Theme)
	assert.Equal(t, "standard", u.Marbles)
}

func testUpdateSettingsRefuses(t *testing.T, open Open) {
	s := open(t, storage.Options{})
	boom := errors.New("boom")
	tests := []struct {
		name, guild string
		fn          func(*storage.GuildSettings) error
		want        error
		msg         string
	}{
		{"negative move time", guild, func(g *storage.GuildSettings) error { g.MoveTime = -time.Minute; return nil }, storage.ErrInvalid, "the move time -1m0s is negative"},
		{"negative vacation cap", guild, func(g *storage.GuildSettings) error { d := -1; g.VacationDays = &d; return nil }, storage.ErrInvalid, "the vacation cap of -1 days is negative"},
		{"fn fails", guild, func(g *storage.GuildSettings) error { g.Hints = true; return boom }, boom, "boom"},
		{"no guild", "", func(g *storage.GuildSettings) error { g.Hints = true; return nil }, storage.ErrInvalid, "ID is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := s.UpdateGuildSettings(t.Context(), tt.guild, tt.fn)
			assert.ErrorIs(t, err, tt.want)
			assert.ErrorContains(t, err, tt.msg)
			g, err := s.GuildSettings(t.Context(), tt.guild)
			require.NoError(t, err)
			assert.Equal(t, storage.GuildSettings{}, g, "nothing was written")
		})
	}
}
